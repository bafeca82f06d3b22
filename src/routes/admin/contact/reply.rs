//! `POST /api/admin/reply-contact/{id}` {subject, message} (administrators) → {message,
//! isHandled, data}: emails the sender (logged in the email log like every mail, and re-sendable
//! from there), records the reply and marks the message handled; administrators hear
//! `contactMessageReplied`. When the mail cannot be sent now the answer is a 503 and the message
//! stays unhandled.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use super::{
    line_field, message_id, text_field, view, MAX_MESSAGE_LEN, MAX_SUBJECT_LEN, MSG_NOT_FOUND,
};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::live;
use crate::mail::{MailKind, Outgoing};
use crate::persistence::contact_messages::{self, ContactReply};
use crate::persistence::now;
use crate::post_view::iso;
use crate::state::AppState;

pub const MSG_REPLIED: &str = "Reply sent";
pub const MSG_NOT_SENT: &str =
    "The reply could not be sent right now. It is kept in the email log and can be sent again from there.";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ReplyBody {
    #[serde(default)]
    subject: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// The text of a reply: the administrator's message, then the sender's own for reference.
fn reply_text(name: &str, reply: &str, original: &str, sent_at: &str) -> String {
    let quoted: Vec<String> = original.lines().map(|l| format!("> {l}")).collect();
    format!(
        "Hello {name},\n\n{reply}\n\n--\nThe Pressroom team\n\nYou wrote on {sent_at}:\n{}\n",
        quoted.join("\n")
    )
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
    let original = contact_messages::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    let mail_body = reply_text(
        &original.name,
        &text,
        &original.message,
        &iso(original.created_at),
    );
    let mut mail = Outgoing::new(MailKind::ContactReply, &original.email, &subject, mail_body);
    mail.user_id = original.user_id;
    let log = state.mailer.send_mail(mail).await;
    if !log.success {
        return Err(ApiError::MailFailed(MSG_NOT_SENT.to_string()));
    }
    let record = ContactReply {
        subject: subject.clone(),
        message: text,
        replied_by: admin.user.id,
        replied_at: now(),
        email_log_id: log.id,
    };
    let updated = contact_messages::record_reply(&state.db, id, &record)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    live::contact_message_replied(
        &state.realtime,
        &id.to_hex(),
        &iso(record.replied_at),
        &admin.id_hex(),
    );
    let target = Target::new("contact_message", id.to_hex(), original.subject.clone());
    let details = json!({ "subject": subject, "to": original.email });
    audit::record(&state, &admin, Action::ContactReply, target, details).await;
    Ok(HttpResponse::Ok().json(super::ContactAnswer {
        message: MSG_REPLIED.to_string(),
        is_handled: true,
        data: view(&updated),
    }))
}
