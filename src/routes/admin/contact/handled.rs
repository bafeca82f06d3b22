//! `PATCH /api/admin/contact-messages/{id}/handled` (administrators) → {message, isHandled,
//! data}: toggles whether a contact message is handled.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{message_id, view, MSG_NOT_FOUND};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::contact_messages;
use crate::routes::admin::users::MSG_CHANGED_MEANWHILE;
use crate::state::AppState;

#[tracing::instrument(skip(state, admin), fields(admin = %admin.0.id_hex()))]
pub async fn toggle_handled(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = message_id(&id)?;
    let current = contact_messages::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    let updated =
        contact_messages::toggle_handled(&state.db, id, current.is_handled, admin.0.user.id)
            .await?
            .ok_or_else(|| ApiError::conflict(MSG_CHANGED_MEANWHILE))?;
    let message = if updated.is_handled {
        "Message marked as handled"
    } else {
        "Message marked as not handled"
    };
    let target = Target::new("contact_message", id.to_hex(), updated.subject.clone());
    let details = json!({ "isHandled": updated.is_handled });
    audit::record(&state, &admin.0, Action::ContactHandled, target, details).await;
    Ok(HttpResponse::Ok().json(super::ContactAnswer {
        message: message.to_string(),
        is_handled: updated.is_handled,
        data: view(&updated),
    }))
}
