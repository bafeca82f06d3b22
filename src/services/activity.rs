//! A user's activity record (likes, comments, follows ...), written beside the action.

use mongodb::bson::oid::ObjectId;

use crate::persistence::activity;
use crate::state::AppState;

/// Records what a user did. A failure is logged and never fails the action itself.
pub async fn record_activity(
    state: &AppState,
    user: ObjectId,
    kind: &str,
    details: &str,
    post: Option<ObjectId>,
    target_user: Option<ObjectId>,
) {
    if let Err(e) = activity::record(&state.db, user, kind, details, post, target_user).await {
        tracing::warn!(error = %e, kind, "could not record activity");
    }
}
