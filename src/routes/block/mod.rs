//! `/api/block/*`: users blocking users. A block removes the follows between the two both ways;
//! the blocked user cannot follow the blocker or comment on or react to their content, and
//! neither sees the other's posts in feeds or comments (in either direction).

pub mod block_user;
pub mod list;
pub mod unblock;

pub const MSG_BLOCKED: &str = "User blocked successfully";
pub const MSG_UNBLOCKED: &str = "User unblocked successfully";
pub const MSG_CANNOT_BLOCK_SELF: &str = "You cannot block yourself";

/// `{message, blockedUserId}`: the answer of a block or an unblock.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlockAnswer {
    pub message: &'static str,
    pub blocked_user_id: String,
}
