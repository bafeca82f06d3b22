//! `POST /api/notification/broadcast` {content} (administrators) → 202 {message, count, jobId,
//! job}: a notice to every user (not blocked, not the sender), written by the job worker
//! (`crate::services::jobs::admin_tasks`), so the request answers at once however many users there are.
//! `count` is the number of addressees. Each notice is stored; the users online when theirs is
//! written get their own `newNotification` and `updateUnreadCount`, and `adminNoticeBroadcast`
//! with the same stored item (its `_id` and every field, plus `broadcast: true`); the others find
//! it when they next look. Guests hear nothing of it. The job's progress reaches `adminRoom`
//! (`adminJobProgress`) and `GET /api/admin/jobs/{id}`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{check_length, present, MSG_CONTENT_REQUIRED};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::jobs::admin_tasks;
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct BroadcastBody {
    content: Option<String>,
}

/// `{message, count, jobId, job}`: how many users the broadcast goes to, and its job.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BroadcastAnswer {
    message: String,
    count: usize,
    job_id: String,
    #[schema(value_type = Object)]
    job: serde_json::Value,
}

#[tracing::instrument(skip_all)]
pub async fn broadcast(
    state: web::Data<AppState>,
    AdminUser(me): AdminUser,
    body: ApiJson<BroadcastBody>,
) -> ApiResult<HttpResponse> {
    let content = present(body.into_inner().content.as_deref())
        .ok_or_else(|| ApiError::bad_request(MSG_CONTENT_REQUIRED))?;
    check_length(&content)?;
    let (count, job_id, job) = admin_tasks::start_broadcast(&state, &me, &content).await?;
    Ok(HttpResponse::Accepted().json(BroadcastAnswer {
        message: format!("Sending the notification to {count} users"),
        count,
        job_id,
        job,
    }))
}
