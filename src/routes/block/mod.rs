//! `/api/block/*`: users blocking users. A block removes the follows between the two both ways;
//! the blocked user cannot follow the blocker or comment on or react to their content, and
//! neither sees the other's posts in feeds or comments (in either direction).

pub mod block_user;
pub mod list;
pub mod unblock;

use mongodb::bson::oid::ObjectId;

use crate::error::{ApiError, ApiResult};
use crate::persistence::{blocks, Db};

pub const MSG_BLOCKED: &str = "User blocked successfully";
pub const MSG_UNBLOCKED: &str = "User unblocked successfully";
pub const MSG_CANNOT_BLOCK_SELF: &str = "You cannot block yourself";
/// What a user hears when a block stands between them and someone's content.
pub use crate::services::engagement::MSG_BLOCKED_INTERACTION;

/// Refuses (403) when either user blocked the other.
pub async fn ensure_not_blocked(db: &Db, me: ObjectId, other: ObjectId) -> ApiResult<()> {
    if me != other && blocks::between(db, me, other).await? {
        return Err(ApiError::forbidden(MSG_BLOCKED_INTERACTION));
    }
    Ok(())
}

/// `{message, blockedUserId}`: the answer of a block or an unblock.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlockAnswer {
    pub message: &'static str,
    pub blocked_user_id: String,
}
