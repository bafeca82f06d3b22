//! A user's activity record (likes, comments, follows ...), written beside the action, read a
//! page at a time and cleared by its owner.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Serialize;

use crate::error::ApiResult;
use crate::persistence::activity::{self, Activity};
use crate::persistence::now;
use crate::post_view::iso;
use crate::state::AppState;

/// How many days of activity `clear-old` keeps.
pub const ACTIVITY_RETENTION_DAYS: i64 = 30;

/// An entry as clients see it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActivityView {
    #[serde(rename = "_id")]
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub details: String,
    pub post_id: Option<String>,
    pub target_user_id: Option<String>,
    pub created_at: String,
}

impl From<Activity> for ActivityView {
    fn from(a: Activity) -> Self {
        ActivityView {
            id: a.id.to_hex(),
            kind: a.kind,
            details: a.details,
            post_id: a.post_id.map(|id| id.to_hex()),
            target_user_id: a.target_user_id.map(|id| id.to_hex()),
            created_at: iso(a.created_at),
        }
    }
}

/// One page of `user`'s activity, newest first, and how many entries there are.
pub async fn page(
    state: &AppState,
    user: ObjectId,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<ActivityView>, u64)> {
    let (entries, total) = activity::page(&state.db, user, skip, limit).await?;
    Ok((entries.into_iter().map(ActivityView::from).collect(), total))
}

/// Removes `user`'s activity (only what is older than [`ACTIVITY_RETENTION_DAYS`] when
/// `old_only`); answers how many entries went.
pub async fn clear(state: &AppState, user: ObjectId, old_only: bool) -> ApiResult<u64> {
    let cutoff = old_only.then(|| {
        DateTime::from_millis(
            now().timestamp_millis() - ACTIVITY_RETENTION_DAYS * 24 * 60 * 60 * 1000,
        )
    });
    Ok(activity::clear(&state.db, user, cutoff).await?)
}

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
