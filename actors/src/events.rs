//! Every event the server emits to clients, one typed definition each (seed 000 §7
//! "Realtime"). An event is a name and a payload; [`Event::args`] is its Socket.IO argument
//! list. Events whose payload is a stored document (a notification, a banner, post counts)
//! carry that document as the server crate serialised it.
//!
//! Shapes: events the spec writes as a call with parameters (`updateUnreadCount(count)`,
//! `userStatus(userId, isOnline)`, `newAppeal(postId, postTitle)`, `postBlockToggled(postId,
//! blocked)`, `broadcastNotificationDismissed(id)`, `broadcastNotificationDeactivated(id)`,
//! `showFeedbackPrompt(message)`) send those values as positional arguments, in that order;
//! `onlineUsersCount` sends a bare number; the others send one object or document.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

/// A typed server event.
pub trait Event {
    /// Event name on the wire.
    const NAME: &'static str;

    /// The Socket.IO arguments after the name.
    fn args(&self) -> Vec<Value>;
}

/// An event ready to emit: its name and argument list.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerEvent {
    name: Cow<'static, str>,
    args: Vec<Value>,
}

impl ServerEvent {
    /// An event received from another node: its name and arguments as they were sent.
    pub fn from_parts(name: String, args: Vec<Value>) -> Self {
        ServerEvent {
            name: Cow::Owned(name),
            args,
        }
    }

    /// Event name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Arguments after the name.
    pub fn args(&self) -> &[Value] {
        &self.args
    }
}

impl<E: Event> From<E> for ServerEvent {
    fn from(event: E) -> Self {
        ServerEvent {
            name: Cow::Borrowed(E::NAME),
            args: event.args(),
        }
    }
}

fn object(value: impl Serialize) -> Vec<Value> {
    // Serialising these plain structs into a `Value` cannot fail (string keys, no maps
    // with non-string keys, no custom serialisers).
    vec![serde_json::to_value(value).unwrap_or(Value::Null)]
}

macro_rules! object_event {
    ($ty:ident, $name:literal) => {
        impl Event for $ty {
            const NAME: &'static str = $name;

            fn args(&self) -> Vec<Value> {
                object(self)
            }
        }
    };
}

/// Events whose arguments are the struct's fields, in declaration order.
macro_rules! positional_event {
    ($ty:ident, $name:literal, $($field:ident),+) => {
        impl Event for $ty {
            const NAME: &'static str = $name;

            fn args(&self) -> Vec<Value> {
                vec![$(serde_json::to_value(&self.$field).unwrap_or(Value::Null)),+]
            }
        }
    };
}

macro_rules! document_event {
    ($(#[$doc:meta])* $ty:ident, $name:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $ty(pub Value);

        impl Event for $ty {
            const NAME: &'static str = $name;

            fn args(&self) -> Vec<Value> {
                vec![self.0.clone()]
            }
        }
    };
}

/// `onlineUsersCount`: people online, each signed-in user and each guest once however many
/// tabs (a bare number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnlineUsersCount {
    /// Connected sockets.
    pub count: usize,
}

impl Event for OnlineUsersCount {
    const NAME: &'static str = "onlineUsersCount";

    fn args(&self) -> Vec<Value> {
        vec![Value::from(self.count)]
    }
}

document_event!(
    /// `newNotification`: a user notification document, to its addressee.
    NewNotification,
    "newNotification"
);

/// `updateUnreadCount(count)`: the addressee's unread notification count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct UpdateUnreadCount {
    /// Unread notifications.
    pub count: u64,
}
positional_event!(UpdateUnreadCount, "updateUnreadCount", count);

/// `userStatus(userId, isOnline)`: a user's first socket connected or last one closed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UserStatus {
    /// The user.
    pub user_id: String,
    /// Whether they are online now.
    pub is_online: bool,
}
positional_event!(UserStatus, "userStatus", user_id, is_online);

/// Coordinates of a [`UserLocationUpdate`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Coordinates {
    /// Latitude in degrees.
    pub lat: f64,
    /// Longitude in degrees.
    pub lon: f64,
}

/// `userLocationUpdate`: a user's location changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UserLocationUpdate {
    /// The user.
    pub user_id: String,
    /// Position.
    pub coordinates: Coordinates,
    /// City (`Unknown` when missing).
    pub city: String,
    /// Country (`Unknown` when missing).
    pub country: String,
    /// ISO country code, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub country_code: Option<String>,
    /// State (`Unknown` when missing).
    pub state: String,
    /// Postal code (`Unknown` when missing).
    pub pincode: String,
    /// When it was recorded (RFC 3339).
    pub timestamp: String,
}
object_event!(UserLocationUpdate, "userLocationUpdate");

/// `newAppeal(postId, postTitle)`: an author appealed a block, to the administrators.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewAppeal {
    /// The blocked post.
    pub post_id: String,
    /// Its title.
    pub post_title: String,
}
positional_event!(NewAppeal, "newAppeal", post_id, post_title);

/// `appealDecided(appealId, status)`: an administrator accepted or rejected an appeal, to the
/// administrators.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppealDecided {
    /// The appeal.
    pub appeal_id: String,
    /// `accepted` or `rejected`.
    pub status: String,
}
positional_event!(AppealDecided, "appealDecided", appeal_id, status);

document_event!(
    /// `newBroadcastNotification`: a banner notification document, to everyone. Only banners.
    NewBroadcastNotification,
    "newBroadcastNotification"
);

document_event!(
    /// `adminNoticeBroadcast`: an administrator's notice broadcast to every user, to each
    /// signed-in addressee's tabs: their own stored notification (`_id`, `type: "admin"`,
    /// `content`, ... and `broadcast: true`). Never a banner.
    AdminNoticeBroadcast,
    "adminNoticeBroadcast"
);

document_event!(
    /// `importProgress`: where one of the writer's imports stands (`{id, source, status,
    /// counts, warnings, progress, report, error, ...}`, as `GET /api/import/{id}` answers it
    /// without its sample), to the writer's tabs.
    ImportProgress,
    "importProgress"
);

document_event!(
    /// `adminJobProgress`: where an administrator's background job stands (`{jobId, kind,
    /// status, done, total, message, ...}`), to `adminRoom`.
    AdminJobProgress,
    "adminJobProgress"
);

/// `broadcastNotificationDismissed(id)`: the user dismissed a banner (to their other tabs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BroadcastNotificationDismissed {
    /// The banner.
    pub id: String,
}
positional_event!(
    BroadcastNotificationDismissed,
    "broadcastNotificationDismissed",
    id
);

/// `broadcastNotificationDeactivated(id)`: an administrator deactivated a banner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BroadcastNotificationDeactivated {
    /// The banner.
    pub id: String,
}
positional_event!(
    BroadcastNotificationDeactivated,
    "broadcastNotificationDeactivated",
    id
);

/// `broadcastNotificationDeletedAll`: every banner was deleted (no arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BroadcastNotificationDeletedAll;

impl Event for BroadcastNotificationDeletedAll {
    const NAME: &'static str = "broadcastNotificationDeletedAll";

    fn args(&self) -> Vec<Value> {
        Vec::new()
    }
}

/// `postCountsUpdated`: post counts changed. One object carrying any subset of the numeric keys
/// `allPostsCount`, `myPostsCount` and `followingPostsCount` (seed 000 §3 "Post counts"): every
/// client receives `allPostsCount`; the author's sockets also receive `myPostsCount` and
/// `followingPostsCount`; each follower of the author whose following feed changed receives
/// `followingPostsCount` for them. A client keeps the counts it does not receive.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PostCountsUpdated {
    /// Posts of the public feed (`GET /post/count/all`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_posts_count: Option<u64>,
    /// The receiver's own posts (`GET /post/count/my`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub my_posts_count: Option<u64>,
    /// The receiver's following feed (`GET /post/count/following`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub following_posts_count: Option<u64>,
}
object_event!(PostCountsUpdated, "postCountsUpdated");

/// `postDeliveryUpdated({postId, notices, emailsSent, emailsFailed, done})`: how far a new post's
/// notices and emails have gone out, to its author's tabs while it is being sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PostDeliveryUpdated {
    /// The post.
    pub post_id: String,
    /// In-app notices stored so far.
    pub notices: i64,
    /// Emails delivered so far.
    pub emails_sent: i64,
    /// Emails that failed so far.
    pub emails_failed: i64,
    /// Whether the delivery has finished.
    pub done: bool,
}
object_event!(PostDeliveryUpdated, "postDeliveryUpdated");

/// Who tipped, in a [`TipReceived`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tipper {
    /// The reader's id.
    pub id: String,
    /// The reader's name.
    pub name: String,
}

/// `tipReceived({tipId, postId, amount, currency, from: {id, name}, message})`: a reader's tip
/// for one of the writer's posts was paid, to the writer's tabs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TipReceived {
    /// The tip.
    pub tip_id: String,
    /// The post it came for.
    pub post_id: String,
    /// In the currency's smallest unit.
    pub amount: i64,
    /// Lowercase ISO 4217.
    pub currency: String,
    /// The reader.
    pub from: Tipper,
    /// The reader's message, if any.
    pub message: Option<String>,
}
object_event!(TipReceived, "tipReceived");

/// `postBlockToggled(postId, blocked)`: an administrator blocked or unblocked a post.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PostBlockToggled {
    /// The post.
    pub post_id: String,
    /// Whether it is blocked now.
    pub blocked: bool,
}
positional_event!(PostBlockToggled, "postBlockToggled", post_id, blocked);

/// `guestVisitUpdate`: a guest visit was tracked, to the administrators.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestVisitUpdate {
    /// The guest id kept in the visitor's local storage.
    pub guest_id: String,
    /// Visits so far.
    pub visit_count: u64,
    /// Last visit (RFC 3339).
    pub last_visit: String,
}
object_event!(GuestVisitUpdate, "guestVisitUpdate");

// Administrator events (seed 001 §4 "Administration": "Realtime events add a new contact message
// or report at the front of the list (capped at 10), mark a report reviewed or acknowledged, and
// mark a contact message replied"). The seed does not name them; these are the names. Each goes
// to `adminRoom` only.

document_event!(
    /// `newContactMessage`: someone wrote through the contact form; the stored message
    /// (`{_id, name, email, subject, message, isHandled, createdAt}`), to administrators.
    NewContactMessage,
    "newContactMessage"
);

/// `contactMessageReplied`: an administrator answered a contact message by email, to
/// administrators.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactMessageReplied {
    /// The contact message.
    pub message_id: String,
    /// Always true: a reply marks the message handled.
    pub is_handled: bool,
    /// When the reply was sent (RFC 3339).
    pub replied_at: String,
    /// The administrator who replied.
    pub replied_by: String,
}
object_event!(ContactMessageReplied, "contactMessageReplied");

document_event!(
    /// `newReport`: a signed-in user reported a post; the report as the admin list shows it
    /// (`{_id, post, reporter, author, reason, details, isReviewed, forwardedToAuthor,
    /// isAcknowledged, createdAt}`), to administrators.
    NewReport,
    "newReport"
);

document_event!(
    /// `operationsSnapshot`: one node's live operating figures (online users, guests and
    /// sockets, events and HTTP requests per second with their p99, database, Redis and index
    /// health, the last run of each job), every few seconds, to administrators of every node.
    OperationsSnapshot,
    "operationsSnapshot"
);

/// `reportReviewed`: an administrator reviewed a report, to administrators.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportReviewed {
    /// The report.
    pub report_id: String,
    /// Always true.
    pub is_reviewed: bool,
    /// Whether the post's author was told.
    pub forwarded_to_author: bool,
}
object_event!(ReportReviewed, "reportReviewed");

/// `reportAcknowledged`: the reported post's author acknowledged a report, to administrators.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportAcknowledged {
    /// The report.
    pub report_id: String,
    /// Always true.
    pub is_acknowledged: bool,
    /// When (RFC 3339).
    pub acknowledged_at: String,
}
object_event!(ReportAcknowledged, "reportAcknowledged");

/// Text of a feedback prompt when the server gives none.
pub const DEFAULT_FEEDBACK_PROMPT: &str = "We'd love your feedback!";

/// `showFeedbackPrompt(message)`: ask the user for feedback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShowFeedbackPrompt {
    /// Prompt text.
    pub message: String,
}

impl Default for ShowFeedbackPrompt {
    fn default() -> Self {
        ShowFeedbackPrompt {
            message: DEFAULT_FEEDBACK_PROMPT.to_owned(),
        }
    }
}
positional_event!(ShowFeedbackPrompt, "showFeedbackPrompt", message);

/// Names of all server events, for documentation and tests.
pub const ALL_EVENTS: [&str; 23] = [
    OnlineUsersCount::NAME,
    NewNotification::NAME,
    UpdateUnreadCount::NAME,
    UserStatus::NAME,
    UserLocationUpdate::NAME,
    NewAppeal::NAME,
    NewBroadcastNotification::NAME,
    AdminNoticeBroadcast::NAME,
    AdminJobProgress::NAME,
    BroadcastNotificationDismissed::NAME,
    BroadcastNotificationDeactivated::NAME,
    BroadcastNotificationDeletedAll::NAME,
    PostCountsUpdated::NAME,
    PostDeliveryUpdated::NAME,
    PostBlockToggled::NAME,
    GuestVisitUpdate::NAME,
    ShowFeedbackPrompt::NAME,
    NewContactMessage::NAME,
    ContactMessageReplied::NAME,
    NewReport::NAME,
    ReportReviewed::NAME,
    ReportAcknowledged::NAME,
    OperationsSnapshot::NAME,
];

/// Events that go to `adminRoom` only.
pub const ADMIN_EVENTS: [&str; 6] = [
    NewContactMessage::NAME,
    ContactMessageReplied::NAME,
    NewReport::NAME,
    ReportReviewed::NAME,
    ReportAcknowledged::NAME,
    OperationsSnapshot::NAME,
];

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::socketio::{eio::Frame, sio::encode_event};

    fn wire(event: impl Into<ServerEvent>) -> String {
        match encode_event(&event.into(), "/").frames() {
            [Frame::Text(text)] => text.to_string(),
            other => panic!("unexpected frames {other:?}"),
        }
    }

    #[test]
    fn every_event_has_its_wire_form() {
        let cases: Vec<(ServerEvent, &str)> = vec![
            (
                OnlineUsersCount { count: 3 }.into(),
                r#"42["onlineUsersCount",3]"#,
            ),
            (
                NewNotification(json!({"_id": "n1", "read": false})).into(),
                r#"42["newNotification",{"_id":"n1","read":false}]"#,
            ),
            (
                UpdateUnreadCount { count: 2 }.into(),
                r#"42["updateUnreadCount",2]"#,
            ),
            (
                UserStatus {
                    user_id: "u1".into(),
                    is_online: true,
                }
                .into(),
                r#"42["userStatus","u1",true]"#,
            ),
            (
                UserLocationUpdate {
                    user_id: "u1".into(),
                    coordinates: Coordinates {
                        lat: 1.5,
                        lon: -2.0,
                    },
                    city: "Pune".into(),
                    country: "India".into(),
                    country_code: Some("IN".into()),
                    state: "MH".into(),
                    pincode: "411001".into(),
                    timestamp: "2024-01-01T00:00:00Z".into(),
                }
                .into(),
                r#"42["userLocationUpdate",{"userId":"u1","coordinates":{"lat":1.5,"lon":-2.0},"city":"Pune","country":"India","countryCode":"IN","state":"MH","pincode":"411001","timestamp":"2024-01-01T00:00:00Z"}]"#,
            ),
            (
                NewAppeal {
                    post_id: "p1".into(),
                    post_title: "T".into(),
                }
                .into(),
                r#"42["newAppeal","p1","T"]"#,
            ),
            (
                NewBroadcastNotification(json!({"_id": "b1"})).into(),
                r#"42["newBroadcastNotification",{"_id":"b1"}]"#,
            ),
            (
                BroadcastNotificationDismissed { id: "b1".into() }.into(),
                r#"42["broadcastNotificationDismissed","b1"]"#,
            ),
            (
                BroadcastNotificationDeactivated { id: "b1".into() }.into(),
                r#"42["broadcastNotificationDeactivated","b1"]"#,
            ),
            (
                BroadcastNotificationDeletedAll.into(),
                r#"42["broadcastNotificationDeletedAll"]"#,
            ),
            (
                PostCountsUpdated {
                    all_posts_count: Some(4),
                    ..PostCountsUpdated::default()
                }
                .into(),
                r#"42["postCountsUpdated",{"allPostsCount":4}]"#,
            ),
            (
                PostDeliveryUpdated {
                    post_id: "p1".into(),
                    notices: 3,
                    emails_sent: 2,
                    emails_failed: 1,
                    done: false,
                }
                .into(),
                r#"42["postDeliveryUpdated",{"postId":"p1","notices":3,"emailsSent":2,"emailsFailed":1,"done":false}]"#,
            ),
            (
                PostBlockToggled {
                    post_id: "p1".into(),
                    blocked: true,
                }
                .into(),
                r#"42["postBlockToggled","p1",true]"#,
            ),
            (
                GuestVisitUpdate {
                    guest_id: "g1".into(),
                    visit_count: 2,
                    last_visit: "2024-01-01T00:00:00Z".into(),
                }
                .into(),
                r#"42["guestVisitUpdate",{"guestId":"g1","visitCount":2,"lastVisit":"2024-01-01T00:00:00Z"}]"#,
            ),
            (
                ShowFeedbackPrompt::default().into(),
                r#"42["showFeedbackPrompt","We'd love your feedback!"]"#,
            ),
            (
                NewContactMessage(json!({"_id": "c1", "isHandled": false})).into(),
                r#"42["newContactMessage",{"_id":"c1","isHandled":false}]"#,
            ),
            (
                ContactMessageReplied {
                    message_id: "c1".into(),
                    is_handled: true,
                    replied_at: "2024-01-01T00:00:00Z".into(),
                    replied_by: "a1".into(),
                }
                .into(),
                r#"42["contactMessageReplied",{"messageId":"c1","isHandled":true,"repliedAt":"2024-01-01T00:00:00Z","repliedBy":"a1"}]"#,
            ),
            (
                NewReport(json!({"_id": "r1", "reason": "spam"})).into(),
                r#"42["newReport",{"_id":"r1","reason":"spam"}]"#,
            ),
            (
                ReportReviewed {
                    report_id: "r1".into(),
                    is_reviewed: true,
                    forwarded_to_author: true,
                }
                .into(),
                r#"42["reportReviewed",{"reportId":"r1","isReviewed":true,"forwardedToAuthor":true}]"#,
            ),
            (
                ReportAcknowledged {
                    report_id: "r1".into(),
                    is_acknowledged: true,
                    acknowledged_at: "2024-01-01T00:00:00Z".into(),
                }
                .into(),
                r#"42["reportAcknowledged",{"reportId":"r1","isAcknowledged":true,"acknowledgedAt":"2024-01-01T00:00:00Z"}]"#,
            ),
            (
                AdminNoticeBroadcast(json!({"_id": "n1", "broadcast": true})).into(),
                r#"42["adminNoticeBroadcast",{"_id":"n1","broadcast":true}]"#,
            ),
            (
                AdminJobProgress(json!({"jobId": "j1", "done": 1})).into(),
                r#"42["adminJobProgress",{"jobId":"j1","done":1}]"#,
            ),
            (
                OperationsSnapshot(json!({"node": "n1", "sockets": 3})).into(),
                r#"42["operationsSnapshot",{"node":"n1","sockets":3}]"#,
            ),
        ];
        assert_eq!(cases.len(), ALL_EVENTS.len());
        for (event, expected) in cases {
            assert!(
                ALL_EVENTS.contains(&event.name()),
                "{} listed",
                event.name()
            );
            // Object keys may come out in any order; compare the JSON after the `42` prefix.
            let actual = wire(event.clone());
            assert!(
                actual.starts_with("42["),
                "event {}: {actual}",
                event.name()
            );
            let parse = |s: &str| serde_json::from_str::<Value>(&s[2..]).unwrap();
            assert_eq!(parse(&actual), parse(expected), "event {}", event.name());
        }
    }
}
