//! The one place HTTP handlers announce what happened to the live actors. Each function maps a
//! domain event to its typed Socket.IO event and audience.

use pressroom_actors::events::{
    AdminNoticeBroadcast, BroadcastNotificationDeactivated, BroadcastNotificationDeletedAll,
    BroadcastNotificationDismissed, GuestVisitUpdate, NewBroadcastNotification, NewNotification,
    ShowFeedbackPrompt, UpdateUnreadCount, UserLocationUpdate,
};
use pressroom_actors::events::{
    ContactMessageReplied, NewContactMessage, NewReport, OperationsSnapshot, ReportAcknowledged,
    ReportReviewed,
};
use pressroom_actors::events::{NewAppeal, PostBlockToggled, PostCountsUpdated};
use std::collections::HashSet;

use actix_web::web;
use mongodb::bson::oid::ObjectId;
use pressroom_actors::Realtime;
use serde_json::Value;

use crate::persistence::graph;

use crate::state::AppState;

pub mod actors;
pub mod banners;
pub mod cluster;
pub mod guests;
pub mod locations;
pub mod socket_auth;

/// Room of the administrators (the actors crate's).
pub use pressroom_actors::ADMIN_ROOM;

/// A post of `author` was created, published, unpublished, blocked, unblocked or deleted: send
/// each receiver the counts it needs (`postCountsUpdated`, see its definition). Every client gets
/// the public `allPostsCount`; the author's tabs get their three counts; when `feeds_changed` (the
/// post entered or left the public lists, and so the author's followers' following feeds), each
/// follower online gets their `followingPostsCount`. Counting runs on its own task, after the
/// change is stored; a failure is logged (clients still fetch counts when they load a page).
pub fn post_counts_updated(state: &web::Data<AppState>, author: ObjectId, feeds_changed: bool) {
    let state = state.clone();
    tokio::spawn(async move {
        if let Err(e) = send_post_counts(&state, author, feeds_changed).await {
            tracing::warn!(error = %e, "could not send post counts");
        }
    });
}

/// An account was removed with its posts: everyone gets the public count, and its former
/// `followers` online their following count.
pub fn account_posts_removed(state: &web::Data<AppState>, followers: Vec<ObjectId>) {
    let state = state.clone();
    tokio::spawn(async move {
        let sent = async {
            send_public_post_count(&state).await?;
            send_following_counts(&state, followers).await
        };
        if let Err(e) = sent.await {
            tracing::warn!(error = %e, "could not send post counts");
        }
    });
}

async fn send_public_post_count(state: &AppState) -> crate::error::ApiResult<()> {
    let public = crate::services::counts::all_posts_count(state, None).await?;
    state.realtime.emit_all(PostCountsUpdated {
        all_posts_count: Some(public),
        ..PostCountsUpdated::default()
    });
    Ok(())
}

async fn send_post_counts(
    state: &AppState,
    author: ObjectId,
    feeds_changed: bool,
) -> crate::error::ApiResult<()> {
    use crate::services::counts::{all_posts_count, following_posts_count, my_posts_count};
    let db = &state.db;
    send_public_post_count(state).await?;
    state.realtime.emit_user(
        &author.to_hex(),
        PostCountsUpdated {
            all_posts_count: Some(all_posts_count(state, Some(author)).await?),
            my_posts_count: Some(my_posts_count(state, author).await?),
            following_posts_count: Some(following_posts_count(state, author).await?),
        },
    );
    if feeds_changed {
        send_following_counts(state, graph::followers(db, author).await?).await?;
    }
    Ok(())
}

/// Sends each of `users` who is online their following feed's count.
async fn send_following_counts(
    state: &AppState,
    users: Vec<ObjectId>,
) -> crate::error::ApiResult<()> {
    use crate::services::counts::following_posts_count;
    let online: HashSet<String> = state.realtime.online().await.user_ids.into_iter().collect();
    for follower in users {
        let id = follower.to_hex();
        if !online.contains(&id) {
            continue;
        }
        state.realtime.emit_user(
            &id,
            PostCountsUpdated {
                following_posts_count: Some(following_posts_count(state, follower).await?),
                ..PostCountsUpdated::default()
            },
        );
    }
    Ok(())
}

/// Someone wrote through the contact form: administrators add it to their list.
pub fn new_contact_message(state: &AppState, message: Value) {
    state
        .realtime
        .emit_room(ADMIN_ROOM, NewContactMessage(message));
}

/// An administrator answered a contact message: every administrator's list marks it.
pub fn contact_message_replied(state: &AppState, id: &str, at: &str, by: &str) {
    state.realtime.emit_room(
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
pub fn operations_snapshot(state: &AppState, snapshot: Value) {
    state
        .realtime
        .emit_room(ADMIN_ROOM, OperationsSnapshot(snapshot));
}

/// A user reported a post: administrators add it to their list.
pub fn new_report(state: &AppState, report: Value) {
    state.realtime.emit_room(ADMIN_ROOM, NewReport(report));
}

/// An administrator reviewed a report: every administrator's list marks it.
pub fn report_reviewed(state: &AppState, id: &str, forwarded: bool) {
    state.realtime.emit_room(
        ADMIN_ROOM,
        ReportReviewed {
            report_id: id.to_string(),
            is_reviewed: true,
            forwarded_to_author: forwarded,
        },
    );
}

/// The reported post's author acknowledged a report: administrators' lists mark it.
pub fn report_acknowledged(state: &AppState, id: &str, at: &str) {
    state.realtime.emit_room(
        ADMIN_ROOM,
        ReportAcknowledged {
            report_id: id.to_string(),
            is_acknowledged: true,
            acknowledged_at: at.to_string(),
        },
    );
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

/// One sign-in session of `user_id` ended: its sockets (on every node) are closed, the user's
/// other sessions stay connected.
pub fn session_ended(state: &AppState, user_id: &str, session: &str) {
    state.realtime.disconnect_session(user_id, session);
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

/// An administrator broadcast a notice to every user: besides `newNotification`, each
/// signed-in addressee's tabs hear `adminNoticeBroadcast` with their own stored item (its
/// `_id` and fields, `type: "admin"`, `broadcast: true`). Guests hear nothing of it.
/// `newBroadcastNotification` carries banners only.
pub fn notice_broadcast(state: &AppState, user_id: &str, notice: Value) {
    state
        .realtime
        .emit_user(user_id, AdminNoticeBroadcast(notice));
}

/// An administrator created a banner: everyone, guests included, may show it (each client checks
/// the region).
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

/// A user's location changed (already debounced): administrators and the users whose follower
/// maps show this user (those they follow) see it move.
pub fn user_location_updated(realtime: &Realtime, audience: &[String], update: UserLocationUpdate) {
    realtime.emit_room(ADMIN_ROOM, update.clone());
    for user in audience {
        realtime.emit_user(user, update.clone());
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
