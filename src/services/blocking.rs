//! People blocking people (`/api/block/*`): a block removes the follows between the two both
//! ways; the list of the people one blocked. (The block checks of other actions are
//! `services::engagement`.)

use mongodb::bson::oid::ObjectId;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{blocks, follows, user_directory, users};
use crate::post_view::{iso, DELETED_AUTHOR};
use crate::services::activity::record_activity;
use crate::services::people::MSG_USER_NOT_FOUND;
use crate::state::AppState;

/// `me` blocks `other` (an unknown user is a 404) and the follows between the two go; a new block
/// is recorded as activity.
pub async fn block(state: &AppState, me: &AuthUser, other: ObjectId) -> ApiResult<()> {
    let target = users::find_by_id(&state.db, other)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    let created = blocks::block(&state.db, me.user.id, other).await?;
    follows::remove_between(&state.db, me.user.id, other).await?;
    if created {
        record_activity(
            state,
            me.user.id,
            "block",
            &format!("Blocked {}", target.name),
            None,
            Some(other),
        )
        .await;
    }
    Ok(())
}

/// `me` unblocks `other` (recorded as activity when there was a block).
pub async fn unblock(state: &AppState, me: &AuthUser, other: ObjectId) -> ApiResult<()> {
    if blocks::unblock(&state.db, me.user.id, other).await? {
        record_activity(
            state,
            me.user.id,
            "unblock",
            "Unblocked a user",
            None,
            Some(other),
        )
        .await;
    }
    Ok(())
}

/// Someone the caller blocked.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlockedUser {
    #[serde(rename = "_id")]
    id: String,
    name: String,
    avatar: Option<String>,
    blocked_at: String,
}

/// The people `me` blocked, most recent block first (a deleted account as "Deleted user").
pub async fn blocked_by(state: &AppState, me: &AuthUser) -> ApiResult<Vec<BlockedUser>> {
    let blocked = blocks::blocked_by(&state.db, me.user.id).await?;
    let ids: Vec<_> = blocked.iter().map(|(id, _)| *id).collect();
    let cards = user_directory::authors(&state.db, &ids).await?;
    Ok(blocked
        .iter()
        .map(|(id, at)| {
            let card = cards.get(id);
            BlockedUser {
                id: id.to_hex(),
                name: card.map_or(DELETED_AUTHOR, |c| c.name.as_str()).to_string(),
                avatar: card.and_then(|c| c.avatar.clone()),
                blocked_at: iso(*at),
            }
        })
        .collect())
}
