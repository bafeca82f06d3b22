//! Contact messages (seed 001 §7): anyone writes (`POST /admin/contact`); administrators list
//! them, mark them handled and reply by email. New messages and replies reach `adminRoom` live
//! (`newContactMessage`, `contactMessageReplied`).

pub mod create;
pub mod handled;
pub mod list;
pub mod reply;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::persistence::contact_messages::ContactMessage;
use crate::post_view::iso;

pub const MSG_NOT_FOUND: &str = "Contact message not found";
pub const MSG_INVALID_ID: &str = "Invalid contact message id";
/// Longest subject.
pub const MAX_SUBJECT_LEN: usize = 200;
/// Longest message or reply.
pub const MAX_MESSAGE_LEN: usize = 5000;

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

/// `{message, isHandled, data}`: a contact message after a change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactAnswer {
    pub message: String,
    pub is_handled: bool,
    pub data: ContactView,
}

/// A contact message as administrators see it.
pub fn view(m: &ContactMessage) -> ContactView {
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

/// A contact message id from the path.
pub fn message_id(raw: &str) -> ApiResult<ObjectId> {
    ObjectId::parse_str(raw.trim()).map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_ID))
}

/// Trimmed text of a required field of at most `max` characters, named `field` in errors.
pub fn text_field(raw: Option<&str>, field: &str, max: usize) -> ApiResult<String> {
    let text = raw.map(str::trim).unwrap_or_default();
    if text.is_empty() {
        return Err(ApiError::bad_request(format!("{field} is required")));
    }
    if text.chars().count() > max {
        return Err(ApiError::bad_request(format!(
            "{field} must be at most {max} characters"
        )));
    }
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
    {
        return Err(ApiError::bad_request(format!(
            "{field} contains invalid characters"
        )));
    }
    Ok(text.to_string())
}

/// A one-line field (a subject): no line breaks.
pub fn line_field(raw: Option<&str>, field: &str, max: usize) -> ApiResult<String> {
    let text = text_field(raw, field, max)?;
    if text.contains(['\n', '\r']) {
        return Err(ApiError::bad_request(format!(
            "{field} must be a single line"
        )));
    }
    Ok(text)
}
