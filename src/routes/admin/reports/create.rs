//! `POST /api/admin/reports` {postId, reason, details} (signed-in users) → 201 {message,
//! report}: reports a post the caller can read and did not write. `reason` is one of
//! `REASONS`; `details` at most 2000 characters. One open report per user and post: another
//! before an administrator reviewed the first is a 409. Administrators hear `newReport`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{parse_reason, MAX_DETAILS_LEN};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::reports;
use crate::state::AppState;

pub const MSG_REPORTED: &str = "Thank you. The post was reported to the moderators.";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportBody {
    #[serde(default)]
    post_id: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    details: Option<String>,
}

#[tracing::instrument(skip(state, me, body), fields(user = %me.id_hex()))]
pub async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<ReportBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let raw_post = body
        .post_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::bad_request("postId is required"))?;
    object_id(raw_post, "postId")?;
    let reason = parse_reason(body.reason.as_deref())?;
    let details = body.details.unwrap_or_default().trim().to_string();
    if details.chars().count() > MAX_DETAILS_LEN {
        return Err(ApiError::bad_request(format!(
            "details must be at most {MAX_DETAILS_LEN} characters"
        )));
    }
    let report = reports::create(&state, &me, raw_post, reason, details).await?;
    Ok(HttpResponse::Created().json(super::ReportAnswer {
        message: MSG_REPORTED.to_string(),
        report,
    }))
}
