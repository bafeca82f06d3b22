//! Contact messages (seed 001 §7): what anyone writes to the administrators, the administrators'
//! list, marking one handled and replying by email (logged in the email log like every mail).
//! New messages and replies reach `adminRoom` live.

use mongodb::bson::oid::ObjectId;
use serde::Serialize;
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::live;
use crate::mail::{MailKind, Outgoing};
use crate::persistence::contact_messages::{self, ContactMessage, ContactReply};
use crate::persistence::now;
use crate::post_view::iso;
use crate::services::people::MSG_CHANGED_MEANWHILE;
use crate::state::AppState;

pub const MSG_NOT_FOUND: &str = "Contact message not found";
pub const MSG_NOT_SENT: &str =
    "The reply could not be sent right now. It is kept in the email log and can be sent again from there.";

/// A contact message as administrators see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactView {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub is_handled: bool,
    /// The sender's account, when they were signed in.
    pub user_id: Option<String>,
    pub handled_at: Option<String>,
    pub reply: Option<ReplyView>,
    pub created_at: String,
}

/// An administrator's reply to a contact message.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplyView {
    pub subject: String,
    pub message: String,
    pub replied_by: String,
    pub replied_at: String,
}

/// A contact message as administrators see it.
fn view(m: &ContactMessage) -> ContactView {
    ContactView {
        id: m.id.to_hex(),
        name: m.name.clone(),
        email: m.email.clone(),
        subject: m.subject.clone(),
        message: m.message.clone(),
        is_handled: m.is_handled,
        user_id: m.user_id.map(|id| id.to_hex()),
        handled_at: m.handled_at.map(iso),
        reply: m.reply.as_ref().map(|r| ReplyView {
            subject: r.subject.clone(),
            message: r.message.clone(),
            replied_by: r.replied_by.to_hex(),
            replied_at: iso(r.replied_at),
        }),
        created_at: iso(m.created_at),
    }
}

/// A message someone wrote (checked fields): stored unhandled and told to the administrators.
pub struct NewMessage {
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    /// The sender's account, when they are signed in.
    pub user_id: Option<ObjectId>,
}

/// Stores `new` and tells the administrators; answers its id.
pub async fn send(state: &AppState, new: NewMessage) -> ApiResult<ObjectId> {
    let stored = ContactMessage {
        id: ObjectId::new(),
        name: new.name,
        email: new.email,
        subject: new.subject,
        message: new.message,
        is_handled: false,
        user_id: new.user_id,
        handled_at: None,
        handled_by: None,
        reply: None,
        created_at: now(),
    };
    contact_messages::insert(&state.db, &stored).await?;
    live::new_contact_message(
        &state.realtime,
        serde_json::to_value(view(&stored)).unwrap_or_default(),
    );
    Ok(stored.id)
}

/// One page of contact messages, newest first, and how many there are.
pub async fn page(state: &AppState, skip: u64, limit: i64) -> ApiResult<(Vec<ContactView>, u64)> {
    let (found, total) = contact_messages::page(&state.db, skip, limit).await?;
    Ok((found.iter().map(view).collect(), total))
}

/// Turns message `id` handled or not handled (the other way from what it is), as `admin`'s act.
pub async fn toggle_handled(
    state: &AppState,
    admin: &AuthUser,
    id: ObjectId,
) -> ApiResult<ContactView> {
    let current = contact_messages::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    let updated =
        contact_messages::toggle_handled(&state.db, id, current.is_handled, admin.user.id)
            .await?
            .ok_or_else(|| ApiError::conflict(MSG_CHANGED_MEANWHILE))?;
    let target = Target::new("contact_message", id.to_hex(), updated.subject.clone());
    let details = json!({ "isHandled": updated.is_handled });
    audit::record(state, admin, Action::ContactHandled, target, details).await;
    Ok(view(&updated))
}

/// The text of a reply: the administrator's message, then the sender's own for reference.
fn reply_text(name: &str, reply: &str, original: &str, sent_at: &str) -> String {
    let quoted: Vec<String> = original.lines().map(|l| format!("> {l}")).collect();
    format!(
        "Hello {name},\n\n{reply}\n\n--\nThe Pressroom team\n\nYou wrote on {sent_at}:\n{}\n",
        quoted.join("\n")
    )
}

/// Emails `admin`'s reply (checked `subject` and `text`) to the sender of message `id`, records
/// it and marks the message handled; when the mail cannot be sent now nothing changes (503).
pub async fn reply(
    state: &AppState,
    admin: &AuthUser,
    id: ObjectId,
    subject: String,
    text: String,
) -> ApiResult<ContactView> {
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
    audit::record(state, admin, Action::ContactReply, target, details).await;
    Ok(view(&updated))
}
