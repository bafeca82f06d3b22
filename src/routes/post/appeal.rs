//! `POST /api/post/appeal/{postId}` {message} → 201 {message, appeal}: the author of a blocked post
//! asks administrators to lift the block. One pending appeal per post; administrators hear of it
//! at once (`newAppeal`).

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::appeals::{self, AppealView};
use crate::state::AppState;

pub const MAX_APPEAL_LEN: usize = 2000;
pub const MSG_APPEAL_SENT: &str = "Appeal submitted successfully";

#[derive(Deserialize, utoipa::ToSchema)]
pub struct AppealBody {
    #[serde(default)]
    message: Option<String>,
}

/// `{message, appeal}`: the appeal as filed.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct AppealAnswer {
    message: &'static str,
    appeal: AppealView,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn appeal(
    state: web::Data<AppState>,
    me: AuthUser,
    post_id: web::Path<String>,
    body: ApiJson<AppealBody>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&post_id, "post id")?;
    let message = body
        .into_inner()
        .message
        .unwrap_or_default()
        .trim()
        .to_string();
    if message.is_empty() {
        return Err(ApiError::bad_request("Appeal message is required"));
    }
    if message.chars().count() > MAX_APPEAL_LEN {
        return Err(ApiError::bad_request(format!(
            "Appeal message must be at most {MAX_APPEAL_LEN} characters"
        )));
    }
    let appeal = appeals::file(&state, &me, id, message).await?;
    Ok(HttpResponse::Created().json(AppealAnswer {
        message: MSG_APPEAL_SENT,
        appeal,
    }))
}
