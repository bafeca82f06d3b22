//! `POST /api/admin/retry-failed-emails` {type} (administrators) → 202 {message, jobId, job,
//! results}: queues a job (`crate::jobs::admin_tasks`) that sends the failed messages of that
//! type whose `stopEmailAttempts` is false again, oldest first (at most `MAX_PER_RETRY` per
//! call), and records each outcome on its log record; the answer comes at once, with `results`
//! so far (none), and the job's progress reaches `adminRoom` (`adminJobProgress`) and
//! `GET /api/admin/jobs/{id}`. Each message is claimed first, so two retries at once never send
//! it twice.
//!
//! A message is sent again as it was (its stored text), except a message with a one-time code:
//! its code is never stored, so a fresh code is issued (replacing any earlier one) and sent. A
//! message that is no longer needed (the account is verified, blocked or gone; the recipient of
//! a daily email unsubscribed) is given up instead (`stopEmailAttempts`), with the reason.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{mail_type, EmailLogView};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::jobs::admin_tasks;
use crate::mail::MailKind;
use crate::persistence::email_logs::EmailLog;
use crate::persistence::email_logs::Outcome;
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

/// `{message, jobId, job, results}`: the queued job; `results` so far (filled in the job).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RetryQueued {
    pub message: String,
    pub job_id: String,
    #[schema(value_type = Object)]
    pub job: serde_json::Value,
    pub results: Vec<RetryResult>,
}

pub const MSG_RETRY_QUEUED: &str = "Retrying the failed emails in the background";

#[tracing::instrument(skip(state, admin, body), fields(admin = %admin.0.id_hex()))]
pub async fn retry_failed_emails(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: ApiJson<RetryBody>,
) -> ApiResult<HttpResponse> {
    let kind = mail_type(body.into_inner().kind.as_deref())?
        .ok_or_else(|| ApiError::bad_request("type is required"))?;
    let job = admin_tasks::enqueue(
        &state.db,
        admin_tasks::RETRY_EMAILS,
        mongodb::bson::doc! { "type": kind.as_str() },
        admin.0.user.id,
    )
    .await?;
    let job = admin_tasks::job_view(&job);
    let job_id = job["_id"].as_str().unwrap_or_default().to_string();
    audit::record(
        &state,
        &admin.0,
        Action::EmailRetry,
        Target::site(),
        json!({ "type": kind.as_str(), "jobId": job_id }),
    )
    .await;
    Ok(HttpResponse::Accepted().json(RetryQueued {
        message: MSG_RETRY_QUEUED.to_string(),
        job_id,
        job,
        results: Vec::new(),
    }))
}
