//! `DELETE /api/notification/{id}` → {message, id}: deletes one of the caller's notifications;
//! if it was unread, every tab of theirs gets the new unread count.

use actix_web::{web, HttpResponse};

use super::{notification_id, signed_in, MSG_INVALID_ID};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::services::inbox;
use crate::state::AppState;

pub const MSG_DELETED: &str = "Notification deleted";

#[tracing::instrument(skip(state, user))]
pub async fn delete(
    state: web::Data<AppState>,
    user: MaybeUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let me = signed_in(user)?;
    let id = notification_id(&id)?;
    inbox::delete(&state, &me, id).await?;
    Ok(HttpResponse::Ok().json(NoticeDeletedAnswer {
        message: MSG_DELETED,
        id: id.to_hex(),
    }))
}

/// `{message, id}`: which notification was removed.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct NoticeDeletedAnswer {
    message: &'static str,
    id: String,
}

/// `DELETE /api/notification/` without an id.
pub async fn missing_id(user: MaybeUser) -> ApiResult<HttpResponse> {
    signed_in(user)?;
    Err(ApiError::invalid("invalid_id", MSG_INVALID_ID))
}
