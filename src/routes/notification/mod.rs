//! `/api/notification/*`: a user's notifications (list, unread count, mark read, delete, reply)
//! and administrators' notices, broadcasts and per-user history (seed 000 §7 "Notifications").
//! Only the addressee reads, marks or deletes a notification; anyone else gets a 404.

pub mod admin;
pub mod broadcast;
pub mod delete;
pub mod history;
pub mod list;
pub mod mark_all_read;
pub mod mark_read;
pub mod reply;
pub mod unread_count;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::{AuthUser, MaybeUser};
use crate::error::{ApiError, ApiResult};

pub const MSG_INVALID_ID: &str = "Invalid notification ID";
pub const MSG_MISSING_USER_OR_CONTENT: &str = "Missing userId or content";
pub const MSG_CONTENT_REQUIRED: &str = "Content is required";
pub const MSG_MISSING_ID_OR_CONTENT: &str = "Missing notificationId or content";
pub const MSG_MISSING_USER: &str = "Missing userId";
pub const MSG_NOT_AUTHENTICATED: &str = "User not authenticated";
pub const MSG_INVALID_USER: &str = "Invalid userId";
pub const MSG_BAD_NAVIGATE: &str = "navigateTo must be a path inside the site, starting with /";
pub const MSG_TOO_LONG: &str = "Content must be at most 2000 characters";
/// Default page size (seed 000 §9).
pub const DEFAULT_LIMIT: i64 = 20;
/// Largest page.
pub const MAX_LIMIT: i64 = 100;
/// Longest notification text.
pub const MAX_CONTENT_LEN: usize = 2000;

/// The signed-in user, or 401 'User not authenticated'.
pub fn signed_in(user: MaybeUser) -> ApiResult<AuthUser> {
    user.0
        .ok_or_else(|| ApiError::unauthorized(MSG_NOT_AUTHENTICATED))
}

/// A notification id from the path: empty or the text `undefined` (or not an id) is refused.
pub fn notification_id(raw: &str) -> ApiResult<ObjectId> {
    let raw = raw.trim();
    if raw.is_empty() || raw == "undefined" || raw == "null" {
        return Err(ApiError::invalid("invalid_id", MSG_INVALID_ID));
    }
    ObjectId::parse_str(raw).map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_ID))
}

/// Trimmed text, `None` when missing or blank.
pub fn present(raw: Option<&str>) -> Option<String> {
    raw.map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// Refuses notification text longer than [`MAX_CONTENT_LEN`].
pub fn check_length(content: &str) -> ApiResult<()> {
    if content.chars().count() > MAX_CONTENT_LEN {
        return Err(ApiError::bad_request(MSG_TOO_LONG));
    }
    Ok(())
}

/// A `navigateTo` target: a path inside the site (`/...`, not `//host`).
pub fn navigate_to(raw: Option<&str>) -> ApiResult<Option<String>> {
    match present(raw) {
        None => Ok(None),
        Some(path) if path.starts_with('/') && !path.starts_with("//") && path.len() <= 500 => {
            Ok(Some(path))
        }
        Some(_) => Err(ApiError::bad_request(MSG_BAD_NAVIGATE)),
    }
}

use crate::services::notifications::NotificationView;

/// `{notification}`: one notification.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NotificationAnswer {
    pub notification: NotificationView,
}

/// `{message, notification}`: a notification as sent.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NotificationSentAnswer {
    pub message: &'static str,
    pub notification: NotificationView,
}

/// `{notifications}`: a list of notifications.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NotificationsAnswer {
    pub notifications: Vec<NotificationView>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_undefined_ids_are_invalid() {
        for raw in ["", " ", "undefined", "null", "abc"] {
            let err = notification_id(raw).unwrap_err();
            assert_eq!(err.to_string(), MSG_INVALID_ID, "case {raw:?}");
        }
        assert!(notification_id(&ObjectId::new().to_hex()).is_ok());
    }

    #[test]
    fn navigate_to_stays_inside_the_site() {
        assert_eq!(
            navigate_to(Some("/post/a")).unwrap().as_deref(),
            Some("/post/a")
        );
        assert_eq!(navigate_to(Some("  ")).unwrap(), None);
        assert!(navigate_to(Some("https://evil.example")).is_err());
        assert!(navigate_to(Some("//evil.example")).is_err());
    }

    #[test]
    fn pages_have_bounds() {
        let q = crate::routes::paging::PageQuery {
            page: Some(0),
            limit: Some(1000),
        };
        assert_eq!(q.resolve(20, 100), (1, 100, 0));
        let q = crate::routes::paging::PageQuery {
            page: Some(3),
            limit: None,
        };
        assert_eq!(q.resolve(20, 100), (3, 20, 40));
    }
}
