//! `PATCH /api/notification/mark-as-read/{id}` → {notification}: marks one of the caller's
//! notifications read; every tab of theirs gets the new unread count.

use actix_web::{web, HttpResponse};

use super::{
    notification_id, signed_in, NotificationAnswer, NotificationView, MSG_INVALID_ID, MSG_NOT_FOUND,
};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::notifications;
use crate::services::notify::push_unread_count;
use crate::state::AppState;

#[tracing::instrument(skip(state, user))]
pub async fn mark_read(
    state: web::Data<AppState>,
    user: MaybeUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let me = signed_in(user)?;
    let id = notification_id(&id)?;
    let mut notification = notifications::mark_read(&state.db, id, me.user.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if !notification.read {
        crate::services::unread::moved(&state, me.user.id, -1).await;
        notification.read = true;
    }
    push_unread_count(&state, me.user.id).await;
    Ok(HttpResponse::Ok().json(NotificationAnswer {
        notification: NotificationView::of(&notification),
    }))
}

/// `PATCH /api/notification/mark-as-read/` without an id.
pub async fn missing_id(user: MaybeUser) -> ApiResult<HttpResponse> {
    signed_in(user)?;
    Err(ApiError::invalid("invalid_id", MSG_INVALID_ID))
}
