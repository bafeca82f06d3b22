//! Email delivery records as administrators see them, and sending a failed message again (or
//! giving it up when it is no longer needed).

use serde::Serialize;

use super::codes::issue_code;
use crate::domain::params::present_param as present;
use crate::error::{ApiError, ApiResult};
use crate::mail::MailKind;
use crate::persistence::email_logs::{EmailLog, Outcome};
use crate::persistence::otps::Purpose;
use crate::persistence::users;
use crate::post_view::iso;
use crate::state::AppState;

/// Most messages one call sends again.
pub const MAX_PER_RETRY: i64 = 100;
pub const MSG_ACCOUNT_GONE: &str = "No longer needed: the account no longer exists";
pub const MSG_ACCOUNT_BLOCKED: &str = "No longer needed: the account is blocked";
pub const MSG_ALREADY_VERIFIED: &str = "No longer needed: the account is already verified";
pub const MSG_UNSUBSCRIBED: &str = "No longer needed: the recipient unsubscribed";
pub const MSG_TEXT_NOT_KEPT: &str =
    "The text of this message was not kept, so it cannot be sent again";

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

/// A message sent again: its log record, or only the outcome when the record is gone.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum RetryResult {
    Log(EmailLogView),
    Gone(GoneLog),
}

/// The outcome of a message whose log record is gone.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GoneLog {
    #[serde(rename = "_id")]
    pub id: String,
    pub success: bool,
    pub error: Option<String>,
}

/// Sends one claimed message again, or gives it up when it is no longer needed.
/// One page of the email log, newest first (to `email` only, and of `kind` only, when given),
/// and how many entries match.
pub async fn page(
    state: &AppState,
    email: Option<&str>,
    kind: Option<MailKind>,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<EmailLogView>, u64)> {
    let (logs, total) = crate::persistence::email_logs::page(
        &state.db,
        email,
        kind.map(|k| k.as_str()),
        skip,
        limit,
    )
    .await?;
    Ok((logs.iter().map(view).collect(), total))
}

pub async fn send_again(state: &AppState, log: &EmailLog, kind: MailKind) -> ApiResult<Outcome> {
    let mailer = &state.mailer;
    if kind.carries_code() || kind == MailKind::DailyPost {
        let user = match log.user_id {
            Some(id) => users::find_by_id(&state.db, id).await?,
            None => None,
        };
        let Some(user) = user else {
            return Ok(mailer.give_up(log, MSG_ACCOUNT_GONE).await);
        };
        if user.blocked {
            return Ok(mailer.give_up(log, MSG_ACCOUNT_BLOCKED).await);
        }
        let purpose = match kind {
            MailKind::VerifyOtp if user.is_account_verified => {
                return Ok(mailer.give_up(log, MSG_ALREADY_VERIFIED).await);
            }
            MailKind::VerifyOtp => Purpose::VerifyEmail,
            MailKind::ResetOtp => Purpose::ResetPassword,
            _ if user.daily_post_opt_out => {
                return Ok(mailer.give_up(log, MSG_UNSUBSCRIBED).await);
            }
            _ => return resend_stored(state, log).await,
        };
        let (_, subject, body) = issue_code(state, purpose, &user).await?;
        return Ok(mailer.resend(log, subject, body).await);
    }
    resend_stored(state, log).await
}

async fn resend_stored(state: &AppState, log: &EmailLog) -> ApiResult<Outcome> {
    Ok(match &log.body {
        Some(body) => state.mailer.resend(log, &log.subject, body.clone()).await,
        None => state.mailer.give_up(log, MSG_TEXT_NOT_KEPT).await,
    })
}
