//! The one place HTTP handlers announce what happened to the live actors. Each function maps a
//! domain event to its typed Socket.IO event and audience.

use pressroom_actors::events::{
    BroadcastNotificationDeactivated, BroadcastNotificationDeletedAll,
    BroadcastNotificationDismissed, GuestVisitUpdate, NewBroadcastNotification, NewNotification,
    ShowFeedbackPrompt, UpdateUnreadCount, UserLocationUpdate,
};
use pressroom_actors::events::{NewAppeal, PostBlockToggled, PostCountsUpdated};
use pressroom_actors::Realtime;
use serde_json::json;
use serde_json::Value;

use crate::state::AppState;

pub mod actors;
pub mod banners;
pub mod guests;
pub mod locations;

/// Room of the administrators.
pub const ADMIN_ROOM: &str = "adminRoom";

/// Posts were created, deleted, blocked or unblocked: everyone's counts may have changed, so every
/// client refetches the counts it shows.
pub fn post_counts_updated(state: &AppState) {
    state.realtime.emit_all(PostCountsUpdated(json!({})));
}

/// The author of a blocked post appealed: administrators hear of it.
pub fn new_appeal(state: &AppState, post_id: &str, post_title: &str) {
    state.realtime.emit_room(
        ADMIN_ROOM,
        NewAppeal {
            post_id: post_id.to_string(),
            post_title: post_title.to_string(),
        },
    );
}

/// A post's blocked flag changed: administrators' lists and anyone with the post open update.
pub fn post_block_toggled(state: &AppState, post_id: &str, blocked: bool) {
    state.realtime.emit_all(PostBlockToggled {
        post_id: post_id.to_string(),
        blocked,
    });
}

/// Every token of a user stopped working (password reset, block, deletion): close their sockets.
pub fn sessions_ended(state: &AppState, user_id: &str) {
    state.realtime.disconnect_user(user_id);
}

/// A notification was stored for `user_id`: every tab of theirs shows it at once.
pub fn notification_created(state: &AppState, user_id: &str, item: Value) {
    state.realtime.emit_user(user_id, NewNotification(item));
}

/// `user_id`'s unread notification count changed (new, read, all read, deleted), so every tab
/// shows the same badge.
pub fn unread_count_changed(state: &AppState, user_id: &str, count: u64) {
    state
        .realtime
        .emit_user(user_id, UpdateUnreadCount { count });
}

/// An administrator created a banner: everyone, guests included, may show it (each client checks
/// the region).
/// An administrator broadcast a notice to every user: besides each user's own stored item
/// (`newNotification`), every open client hears `newBroadcastNotification` with the notice
/// (`{type: "admin", content, sender, createdAt, broadcast: true}`; banners carry `title` and
/// `message` instead, which is how clients tell the two apart).
pub fn notice_broadcast(state: &AppState, notice: Value) {
    state.realtime.emit_all(NewBroadcastNotification(notice));
}

pub fn banner_created(state: &AppState, banner: Value) {
    state.realtime.emit_all(NewBroadcastNotification(banner));
}

/// `user_id` dismissed a banner: their other tabs hide it too.
pub fn banner_dismissed(state: &AppState, user_id: &str, banner_id: &str) {
    state.realtime.emit_user(
        user_id,
        BroadcastNotificationDismissed {
            id: banner_id.to_string(),
        },
    );
}

/// A banner was deactivated by an administrator or expired: everyone hides it.
pub fn banner_deactivated(realtime: &Realtime, banner_id: &str) {
    realtime.emit_all(BroadcastNotificationDeactivated {
        id: banner_id.to_string(),
    });
}

/// Every banner was deleted: everyone hides theirs.
pub fn banners_deleted(state: &AppState) {
    state.realtime.emit_all(BroadcastNotificationDeletedAll);
}

/// A user's location changed (already debounced): administrators and the user's followers see it
/// on their maps.
pub fn user_location_updated(
    realtime: &Realtime,
    followers: &[String],
    update: UserLocationUpdate,
) {
    realtime.emit_room(ADMIN_ROOM, update.clone());
    for follower in followers {
        realtime.emit_user(follower, update.clone());
    }
}

/// A guest visit was counted (already debounced): administrators see it.
pub fn guest_visit_updated(realtime: &Realtime, visit: GuestVisitUpdate) {
    realtime.emit_room(ADMIN_ROOM, visit);
}

/// An administrator asked `user_id` for feedback: their tabs open the feedback modal.
pub fn feedback_prompt(state: &AppState, user_id: &str, message: &str) {
    state.realtime.emit_user(
        user_id,
        ShowFeedbackPrompt {
            message: message.to_string(),
        },
    );
}
