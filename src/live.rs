//! The one place HTTP handlers announce what happened to the live actors. Each function maps a
//! domain event to its typed Socket.IO event and audience.

use pressroom_actors::events::{NewAppeal, PostBlockToggled, PostCountsUpdated};
use serde_json::json;

use crate::state::AppState;

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
