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
use crate::services::contact::ContactView;

pub const MSG_INVALID_ID: &str = "Invalid contact message id";
/// Longest subject.
pub const MAX_SUBJECT_LEN: usize = 200;
/// Longest message or reply.
pub const MAX_MESSAGE_LEN: usize = 5000;

/// `{message, isHandled, data}`: a contact message after a change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactAnswer {
    pub message: String,
    pub is_handled: bool,
    pub data: ContactView,
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
