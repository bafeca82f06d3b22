//! `POST /api/admin/retry-failed-emails` {type} (administrators) → 202 {message, jobId, job,
//! results}: queues a job (`crate::services::jobs::admin_tasks`) that sends the failed messages of that
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

use super::mail_type;
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::jobs::admin_tasks;
use crate::state::AppState;

use crate::services::email_retry::RetryResult;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct RetryBody {
    #[serde(default, rename = "type")]
    kind: Option<String>,
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
    let job = admin_tasks::enqueue_email_retry(&state, kind, admin.0.user.id).await?;
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
