//! Email delivery for administrators (seed 001 §7): one address's messages, every message by
//! type, and sending the failed ones of a type again.

pub mod retry;
pub mod statuses;

use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::mail::MailKind;
use crate::persistence::email_logs::EmailLog;
use crate::routes::admin::present;
use crate::routes::user::iso;

/// An email log record as administrators see it (seed 001 §3: email, type, success,
/// stopEmailAttempts). The text itself is not shown.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailLogView {
    #[serde(rename = "_id")]
    pub id: String,
    pub email: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub subject: String,
    pub success: bool,
    pub error: Option<String>,
    pub attempts: i32,
    pub retries: i32,
    pub stop_email_attempts: bool,
    pub can_retry: bool,
    pub created_at: String,
    pub last_attempt_at: Option<String>,
    pub sent_at: Option<String>,
}

pub fn view(log: &EmailLog) -> EmailLogView {
    EmailLogView {
        id: log.id.to_hex(),
        email: log.email.clone(),
        kind: log.kind.clone(),
        subject: log.subject.clone(),
        success: log.success,
        error: log.error.clone(),
        attempts: log.attempts,
        retries: log.retries,
        stop_email_attempts: log.stop_email_attempts,
        can_retry: !log.success && !log.stop_email_attempts,
        created_at: iso(log.created_at),
        last_attempt_at: log.last_attempt_at.map(iso),
        sent_at: log.sent_at.map(iso),
    }
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
