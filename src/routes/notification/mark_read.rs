//! `PATCH /api/notification/mark-as-read/{id}` → {notification}: marks one of the caller's
//! notifications read; every tab of theirs gets the new unread count.

use actix_web::{web, HttpResponse};

use super::{notification_id, signed_in, NotificationAnswer, MSG_INVALID_ID};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::services::inbox;
use crate::state::AppState;

#[tracing::instrument(skip(state, user))]
pub async fn mark_read(
    state: web::Data<AppState>,
    user: MaybeUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let me = signed_in(user)?;
    let id = notification_id(&id)?;
    Ok(HttpResponse::Ok().json(NotificationAnswer {
        notification: inbox::mark_read(&state, &me, id).await?,
    }))
}

/// `PATCH /api/notification/mark-as-read/` without an id.
pub async fn missing_id(user: MaybeUser) -> ApiResult<HttpResponse> {
    signed_in(user)?;
    Err(ApiError::invalid("invalid_id", MSG_INVALID_ID))
}
