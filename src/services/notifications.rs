//! Notifications as clients see them, for the HTTP answers and the live events alike.

use serde::Serialize;
use serde_json::Value;

use crate::persistence::notifications::{Kind, Notification};
use crate::post_view::iso;

/// Who sent a notification.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SenderView {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: Option<String>,
    pub avatar: Option<String>,
}

/// The post a notification is about.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NoticePostView {
    #[serde(rename = "_id")]
    pub id: String,
    pub title: Option<String>,
}

/// A notification as clients see it (seed 000 §3 "User notification").
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationView {
    #[serde(rename = "_id")]
    pub id: String,
    #[serde(rename = "type")]
    pub kind: Kind,
    pub content: String,
    pub read: bool,
    pub created_at: String,
    pub navigate_to: Option<String>,
    pub sender: Option<SenderView>,
    pub post: Option<NoticePostView>,
    pub user: String,
    pub reply_to: Option<String>,
}

impl NotificationView {
    pub fn of(n: &Notification) -> Self {
        NotificationView {
            id: n.id.to_hex(),
            kind: n.kind,
            content: n.content.clone(),
            read: n.read,
            created_at: iso(n.created_at),
            navigate_to: n.navigate_to.clone(),
            sender: n.sender_id.map(|id| SenderView {
                id: id.to_hex(),
                name: n.sender_name.clone(),
                avatar: n.sender_avatar.clone(),
            }),
            post: n.post_id.map(|id| NoticePostView {
                id: id.to_hex(),
                title: n.post_title.clone(),
            }),
            user: n.user_id.to_hex(),
            reply_to: n.reply_to.map(|id| id.to_hex()),
        }
    }
}

/// A notification as clients see it, as JSON (for the live events).
pub fn view(n: &Notification) -> Value {
    serde_json::to_value(NotificationView::of(n)).unwrap_or(Value::Null)
}
