//! The one place the server announces what happened to the live actors. Each function maps a
//! domain event to its typed Socket.IO event and audience, sent through the realtime handle.
//! Nothing else in the server emits (the architecture test keeps it so); what needs counting
//! first (`services::counts`) counts, then calls a function here.

use pressroom_actors::events::{
    AdminJobProgress, AppealDecided, ImportProgress, NewAppeal, PostBlockToggled,
    PostCountsUpdated, PostDeliveryUpdated,
};
use pressroom_actors::events::{
    AdminNoticeBroadcast, BroadcastNotificationDeactivated, BroadcastNotificationDeletedAll,
    BroadcastNotificationDismissed, GuestVisitUpdate, NewBroadcastNotification, NewNotification,
    ShowFeedbackPrompt, UpdateUnreadCount, UserLocationUpdate,
};
use pressroom_actors::events::{
    ContactMessageReplied, NewContactMessage, NewReport, OperationsSnapshot, ReportAcknowledged,
    ReportReviewed,
};
pub(crate) use pressroom_actors::events::{TipReceived, Tipper};
use pressroom_actors::Realtime;
use serde_json::Value;

pub(crate) mod actors;
pub(crate) mod banners;
pub mod cluster;
pub(crate) mod guests;
pub(crate) mod locations;
pub(crate) mod socket_auth;

/// Room of the administrators (the actors crate's).
pub use pressroom_actors::ADMIN_ROOM;

/// Someone wrote through the contact form: administrators add it to their list.
pub(crate) fn new_contact_message(realtime: &Realtime, message: Value) {
    realtime.emit_room(ADMIN_ROOM, NewContactMessage(message));
}

/// An administrator answered a contact message: every administrator's list marks it.
pub(crate) fn contact_message_replied(realtime: &Realtime, id: &str, at: &str, by: &str) {
    realtime.emit_room(
        ADMIN_ROOM,
        ContactMessageReplied {
            message_id: id.to_string(),
            is_handled: true,
            replied_at: at.to_string(),
            replied_by: by.to_string(),
        },
    );
}

/// This node's operating figures: administrators' Operations section shows them per node.
pub(crate) fn operations_snapshot(realtime: &Realtime, snapshot: Value) {
    realtime.emit_room(ADMIN_ROOM, OperationsSnapshot(snapshot));
}

/// A user reported a post: administrators add it to their list.
pub(crate) fn new_report(realtime: &Realtime, report: Value) {
    realtime.emit_room(ADMIN_ROOM, NewReport(report));
}

/// An administrator reviewed a report: every administrator's list marks it.
pub(crate) fn report_reviewed(realtime: &Realtime, id: &str, forwarded: bool) {
    realtime.emit_room(
        ADMIN_ROOM,
        ReportReviewed {
            report_id: id.to_string(),
            is_reviewed: true,
            forwarded_to_author: forwarded,
        },
    );
}

/// The reported post's author acknowledged a report: administrators' lists mark it.
pub(crate) fn report_acknowledged(realtime: &Realtime, id: &str, at: &str) {
    realtime.emit_room(
        ADMIN_ROOM,
        ReportAcknowledged {
            report_id: id.to_string(),
            is_acknowledged: true,
            acknowledged_at: at.to_string(),
        },
    );
}

/// The author of a blocked post appealed: administrators hear of it.
pub(crate) fn new_appeal(realtime: &Realtime, post_id: &str, post_title: &str) {
    realtime.emit_room(
        ADMIN_ROOM,
        NewAppeal {
            post_id: post_id.to_string(),
            post_title: post_title.to_string(),
        },
    );
}

/// An administrator decided an appeal: the other administrators' lists update.
pub(crate) fn appeal_decided(realtime: &Realtime, appeal_id: &str, status: &str) {
    realtime.emit_room(
        ADMIN_ROOM,
        AppealDecided {
            appeal_id: appeal_id.to_string(),
            status: status.to_string(),
        },
    );
}

/// A post's blocked flag changed: administrators' lists and anyone with the post open update.
pub(crate) fn post_block_toggled(realtime: &Realtime, post_id: &str, blocked: bool) {
    realtime.emit_all(PostBlockToggled {
        post_id: post_id.to_string(),
        blocked,
    });
}

/// Every token of a user stopped working (password reset, block, deletion): close their sockets.
pub(crate) fn sessions_ended(realtime: &Realtime, user_id: &str) {
    realtime.disconnect_user(user_id);
}

/// One sign-in session of `user_id` ended: its sockets (on every node) are closed, the user's
/// other sessions stay connected.
pub(crate) fn session_ended(realtime: &Realtime, user_id: &str, session: &str) {
    realtime.disconnect_session(user_id, session);
}

/// A notification was stored for `user_id`: every tab of theirs shows it at once.
pub(crate) fn notification_created(realtime: &Realtime, user_id: &str, item: Value) {
    realtime.emit_user(user_id, NewNotification(item));
}

/// One of `user_id`'s imports moved on (read, previewed, written, ended): their tabs show it.
pub(crate) fn import_progress(realtime: &Realtime, user_id: &str, import: Value) {
    realtime.emit_user(user_id, ImportProgress(import));
}

/// `user_id`'s unread notification count changed (new, read, all read, deleted), so every tab
/// shows the same badge.
pub(crate) fn unread_count_changed(realtime: &Realtime, user_id: &str, count: u64) {
    realtime.emit_user(user_id, UpdateUnreadCount { count });
}

/// An administrator broadcast a notice to every user: besides `newNotification`, each
/// signed-in addressee's tabs hear `adminNoticeBroadcast` with their own stored item (its
/// `_id` and fields, `type: "admin"`, `broadcast: true`). Guests hear nothing of it.
/// `newBroadcastNotification` carries banners only.
pub(crate) fn notice_broadcast(realtime: &Realtime, user_id: &str, notice: Value) {
    realtime.emit_user(user_id, AdminNoticeBroadcast(notice));
}

/// An administrator created a banner: everyone, guests included, may show it (each client checks
/// the region).
pub(crate) fn banner_created(realtime: &Realtime, banner: Value) {
    realtime.emit_all(NewBroadcastNotification(banner));
}

/// `user_id` dismissed a banner: their other tabs hide it too.
pub(crate) fn banner_dismissed(realtime: &Realtime, user_id: &str, banner_id: &str) {
    realtime.emit_user(
        user_id,
        BroadcastNotificationDismissed {
            id: banner_id.to_string(),
        },
    );
}

/// A banner was deactivated by an administrator or expired: everyone hides it.
pub(crate) fn banner_deactivated(realtime: &Realtime, banner_id: &str) {
    realtime.emit_all(BroadcastNotificationDeactivated {
        id: banner_id.to_string(),
    });
}

/// Every banner was deleted: everyone hides theirs.
pub(crate) fn banners_deleted(realtime: &Realtime) {
    realtime.emit_all(BroadcastNotificationDeletedAll);
}

/// A user's location changed (already debounced): administrators and the users whose follower
/// maps show this user (those they follow) see it move.
pub(crate) fn user_location_updated(
    realtime: &Realtime,
    audience: &[String],
    update: UserLocationUpdate,
) {
    realtime.emit_room(ADMIN_ROOM, update.clone());
    for user in audience {
        realtime.emit_user(user, update.clone());
    }
}

/// A guest visit was counted (already debounced): administrators see it.
pub(crate) fn guest_visit_updated(realtime: &Realtime, visit: GuestVisitUpdate) {
    realtime.emit_room(ADMIN_ROOM, visit);
}

/// An administrator asked `user_id` for feedback: their tabs open the feedback modal.
pub(crate) fn feedback_prompt(realtime: &Realtime, user_id: &str, message: &str) {
    realtime.emit_user(
        user_id,
        ShowFeedbackPrompt {
            message: message.to_string(),
        },
    );
}

/// An administrator's background job moved on: every administrator's jobs list shows it.
pub(crate) fn admin_job_progress(realtime: &Realtime, job: Value) {
    realtime.emit_room(ADMIN_ROOM, AdminJobProgress(job));
}

/// A new post's notices and emails went further: its author's tabs show the figures.
pub(crate) fn post_delivery_updated(
    realtime: &Realtime,
    author: &str,
    figures: PostDeliveryUpdated,
) {
    realtime.emit_user(author, figures);
}

/// A reader's tip for one of `author`'s posts was paid: the writer's tabs show it.
pub(crate) fn tip_received(realtime: &Realtime, author: &str, tip: TipReceived) {
    realtime.emit_user(author, tip);
}

/// The number of public posts changed: everyone's feed tabs show it.
pub(crate) fn public_post_count(realtime: &Realtime, count: u64) {
    realtime.emit_all(PostCountsUpdated {
        all_posts_count: Some(count),
        ..PostCountsUpdated::default()
    });
}

/// Some of `user_id`'s own feed counts changed (those given; the others are kept by the client).
pub(crate) fn post_counts(realtime: &Realtime, user_id: &str, counts: PostCountsUpdated) {
    realtime.emit_user(user_id, counts);
}
