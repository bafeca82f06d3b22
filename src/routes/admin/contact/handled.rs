//! `PATCH /api/admin/contact-messages/{id}/handled` (administrators) → {message, isHandled,
//! data}: toggles whether a contact message is handled.

use actix_web::{web, HttpResponse};

use super::message_id;
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::services::contact;
use crate::state::AppState;

#[tracing::instrument(skip(state, admin), fields(admin = %admin.0.id_hex()))]
pub async fn toggle_handled(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = message_id(&id)?;
    let updated = contact::toggle_handled(&state, &admin.0, id).await?;
    let message = if updated.is_handled {
        "Message marked as handled"
    } else {
        "Message marked as not handled"
    };
    Ok(HttpResponse::Ok().json(super::ContactAnswer {
        message: message.to_string(),
        is_handled: updated.is_handled,
        data: updated,
    }))
}
