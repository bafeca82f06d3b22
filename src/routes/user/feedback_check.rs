//! `GET /api/user/feedback/check` → {shouldPrompt}: whether to ask the caller for feedback now.
//! Cadence (`services::feedback`): never in an account's first 3 days, never within 90 days of
//! their last feedback, and at most once every 14 days (a "yes" is recorded, so other tabs and
//! later page loads get "no" until then).

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::feedback;
use crate::state::AppState;

/// `{shouldPrompt}`: whether to ask now.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedbackCheckAnswer {
    should_prompt: bool,
}

#[tracing::instrument(skip_all)]
pub async fn feedback_check(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let should_prompt = feedback::check(&state, &me).await?;
    Ok(HttpResponse::Ok().json(FeedbackCheckAnswer { should_prompt }))
}
