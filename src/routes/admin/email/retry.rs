//! `POST /api/admin/retry-failed-emails` {type} (administrators) → {message, results}: sends the
//! failed messages of that type whose `stopEmailAttempts` is false again, oldest first (at most
//! `MAX_PER_RETRY` per call), and records each outcome on its log record. Each message is claimed
//! first, so two retries at once never send it twice.
//!
//! A message is sent again as it was (its stored text), except a message with a one-time code:
//! its code is never stored, so a fresh code is issued (replacing any earlier one) and sent. A
//! message that is no longer needed (the account is verified, blocked or gone; the recipient of
//! a daily email unsubscribed) is given up instead (`stopEmailAttempts`), with the reason.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{mail_type, view, EmailLogView};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::mail::MailKind;
use crate::persistence::email_logs::{self, EmailLog, Outcome};
use crate::persistence::otps::Purpose;
use crate::persistence::users;
use crate::routes::auth::issue_code;
use crate::state::AppState;

/// Most messages one call sends again.
pub const MAX_PER_RETRY: i64 = 100;
pub const MSG_ACCOUNT_GONE: &str = "No longer needed: the account no longer exists";
pub const MSG_ACCOUNT_BLOCKED: &str = "No longer needed: the account is blocked";
pub const MSG_ALREADY_VERIFIED: &str = "No longer needed: the account is already verified";
pub const MSG_UNSUBSCRIBED: &str = "No longer needed: the recipient unsubscribed";
pub const MSG_TEXT_NOT_KEPT: &str =
    "The text of this message was not kept, so it cannot be sent again";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct RetryBody {
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

/// `{message, results}`: what became of each message sent again.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RetryAnswer {
    pub message: String,
    pub results: Vec<RetryResult>,
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
async fn send_again(state: &AppState, log: &EmailLog, kind: MailKind) -> ApiResult<Outcome> {
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

#[tracing::instrument(skip(state, admin, body), fields(admin = %admin.0.id_hex()))]
pub async fn retry_failed_emails(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: ApiJson<RetryBody>,
) -> ApiResult<HttpResponse> {
    let kind = mail_type(body.into_inner().kind.as_deref())?
        .ok_or_else(|| ApiError::bad_request("type is required"))?;
    let mut results: Vec<RetryResult> = Vec::new();
    let (mut sent, mut failed) = (0, 0);
    for id in email_logs::retryable_ids(&state.db, kind.as_str(), MAX_PER_RETRY).await? {
        let Some(log) = email_logs::claim_for_retry(&state.db, id).await? else {
            continue;
        };
        let outcome = match send_again(&state, &log, kind).await {
            Ok(outcome) => outcome,
            Err(e) => {
                // Release the claim before answering: the message stays open for a later retry.
                let _ = email_logs::release_claim(&state.db, id).await;
                return Err(e);
            }
        };
        if outcome.success {
            sent += 1;
        } else {
            failed += 1;
        }
        let now = email_logs::find_by_id(&state.db, id).await?;
        results.push(match now {
            Some(log) => RetryResult::Log(view(&log)),
            None => RetryResult::Gone(GoneLog {
                id: id.to_hex(),
                success: outcome.success,
                error: outcome.error,
            }),
        });
    }
    audit::record(
        &state,
        &admin.0,
        Action::EmailRetry,
        Target::site(),
        json!({ "type": kind.as_str(), "sent": sent, "failed": failed }),
    )
    .await;
    Ok(HttpResponse::Ok().json(RetryAnswer {
        message: format!("{sent} sent, {failed} still failing"),
        results,
    }))
}
