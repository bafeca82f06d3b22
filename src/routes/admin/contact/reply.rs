//! `POST /api/admin/reply-contact/{id}` {subject, message} (administrators) → {message,
//! isHandled, data}: emails the sender (logged in the email log like every mail, and re-sendable
//! from there), records the reply and marks the message handled; administrators hear
//! `contactMessageReplied`. When the mail cannot be sent now the answer is a 503 and the message
//! stays unhandled.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{line_field, message_id, text_field, MAX_MESSAGE_LEN, MAX_SUBJECT_LEN};
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::services::contact;
use crate::state::AppState;

pub const MSG_REPLIED: &str = "Reply sent";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ReplyBody {
    #[serde(default)]
    subject: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

#[tracing::instrument(skip(state, admin, body), fields(admin = %admin.0.id_hex()))]
pub async fn reply(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
    body: ApiJson<ReplyBody>,
) -> ApiResult<HttpResponse> {
    let AdminUser(admin) = admin;
    let body = body.into_inner();
    let id = message_id(&id)?;
    let subject = line_field(body.subject.as_deref(), "Subject", MAX_SUBJECT_LEN)?;
    let text = text_field(body.message.as_deref(), "Message", MAX_MESSAGE_LEN)?;
    let updated = contact::reply(&state, &admin, id, subject, text).await?;
    Ok(HttpResponse::Ok().json(super::ContactAnswer {
        message: MSG_REPLIED.to_string(),
        is_handled: true,
        data: updated,
    }))
}
