//! `GET /api/notification/user/{userId}` (administrators) → {notifications}: a user's most recent
//! notifications (at most 200), newest first.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;

use super::{present, NotificationsAnswer, MSG_INVALID_USER, MSG_MISSING_USER};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::services::inbox;
use crate::state::AppState;

#[tracing::instrument(skip(state, _admin))]
pub async fn history(
    state: web::Data<AppState>,
    _admin: AdminUser,
    user_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let raw = present(Some(user_id.as_str()))
        .filter(|u| u != "undefined" && u != "null")
        .ok_or_else(|| ApiError::bad_request(MSG_MISSING_USER))?;
    let user =
        ObjectId::parse_str(&raw).map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_USER))?;
    let notifications = inbox::history(&state, user).await?;
    Ok(HttpResponse::Ok().json(NotificationsAnswer { notifications }))
}

/// `GET /api/notification/user/` without an id.
pub async fn missing_user(_admin: AdminUser) -> ApiResult<HttpResponse> {
    Err(ApiError::bad_request(MSG_MISSING_USER))
}
