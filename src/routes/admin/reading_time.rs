//! `POST /api/admin/reading-time` {postId, timeSpent} → {message, postId, totalTimeSpent}: the
//! reading-time report the admin dashboard's tracker sends (administrators only, as the path
//! says; others 403). It records `timeSpent` seconds (the same bounds as `time-spent`) for the
//! calling administrator on a post they may read, into the same records `reading-details` and
//! the analytics read.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, Sent};
use crate::routes::post::time_spent::{parse_post_id, TimeSpent, MSG_TIME_RECORDED};
use crate::services::engagement::add_reading_time;
use crate::services::engagement::readable_post;
use crate::state::AppState;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadingTimeBody {
    #[serde(default)]
    post_id: Option<String>,
    #[serde(default)]
    #[schema(value_type = Value)]
    time_spent: Sent<TimeSpent>,
}

/// `{message, postId, totalTimeSpent}`: the seconds recorded for the post in all.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadingTimeAnswer {
    pub message: String,
    pub post_id: String,
    pub total_time_spent: i64,
}

#[tracing::instrument(skip(state, me, req, body))]
pub async fn reading_time(
    state: web::Data<AppState>,
    AdminUser(me): AdminUser,
    req: HttpRequest,
    body: ApiJson<ReadingTimeBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let post_id = body
        .post_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::bad_request("postId is required"))?;
    parse_post_id(post_id)?;
    let seconds = TimeSpent::of(&body.time_spent)?;
    let post = readable_post(&state, post_id, Some(&me)).await?;
    let total = add_reading_time(&state, &req, Some(&me), &post, seconds, None).await?;
    Ok(HttpResponse::Ok().json(ReadingTimeAnswer {
        message: MSG_TIME_RECORDED.to_string(),
        post_id: post.id.to_hex(),
        total_time_spent: total,
    }))
}
