//! Email delivery for administrators (seed 001 §7): one address's messages, every message by
//! type, and sending the failed ones of a type again.

pub mod retry;
pub mod statuses;

use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};
use crate::mail::MailKind;
use crate::persistence::email_logs::EmailLog;
use crate::routes::admin::present;
use crate::routes::user::iso;

/// An email log record as administrators see it (seed 001 §3: email, type, success,
/// stopEmailAttempts). The text itself is not shown.
pub fn view(log: &EmailLog) -> Value {
    json!({
        "_id": log.id.to_hex(),
        "email": log.email,
        "type": log.kind,
        "subject": log.subject,
        "success": log.success,
        "error": log.error,
        "attempts": log.attempts,
        "retries": log.retries,
        "stopEmailAttempts": log.stop_email_attempts,
        "canRetry": !log.success && !log.stop_email_attempts,
        "createdAt": iso(log.created_at),
        "lastAttemptAt": log.last_attempt_at.map(iso),
        "sentAt": log.sent_at.map(iso),
    })
}

/// A `type` filter: one of the kinds the mailer records.
pub fn mail_type(raw: Option<&str>) -> ApiResult<Option<MailKind>> {
    match present(raw) {
        None => Ok(None),
        Some(raw) => MailKind::parse(raw).map(Some).ok_or_else(|| {
            let names: Vec<&str> = MailKind::ALL.iter().map(|k| k.as_str()).collect();
            ApiError::bad_request(format!("type must be one of: {}", names.join(", ")))
        }),
    }
}
