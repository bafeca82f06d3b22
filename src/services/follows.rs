//! Following (`/api/follow/*`): following and unfollowing a user (with the block rules), the
//! follow answer with the follower count, the followers and following lists, the alerts chosen
//! for a followed author, and the followers' shared locations.

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::locations::{self, UserLocation};
use crate::persistence::{blocks, follows, graph, user_directory, users};
use crate::post_view::{iso, DELETED_AUTHOR};
use crate::services::activity::record_activity;
use crate::services::engagement::{ensure_not_blocked, MSG_BLOCKED_INTERACTION};
use crate::services::people::MSG_USER_NOT_FOUND;
use crate::state::AppState;

pub use crate::persistence::follows::{Alerts, Side};

/// `{message, isFollowing, userId, followersCount}`: the answer of a follow or unfollow.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowAnswer {
    message: String,
    is_following: bool,
    user_id: String,
    followers_count: u64,
}

/// The answer of a follow or unfollow: whether the caller now follows `other`, and the
/// follower count after the change.
async fn follow_answer(
    state: &AppState,
    other: ObjectId,
    message: &str,
    is_following: bool,
) -> ApiResult<FollowAnswer> {
    let followers = follows::follower_count(&state.db, other).await?;
    Ok(FollowAnswer {
        message: message.to_string(),
        is_following,
        user_id: other.to_hex(),
        followers_count: followers,
    })
}

/// `me` follows `other` (another user): an unknown user is a 404, a block between the two
/// (either way) a 403. A new follow is told to webhooks and recorded as activity.
pub async fn follow(
    state: &AppState,
    me: &AuthUser,
    other: ObjectId,
    message: &str,
) -> ApiResult<FollowAnswer> {
    let target = users::find_by_id(&state.db, other)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    ensure_not_blocked(&state.db, me.user.id, other).await?;
    let created = follows::follow(&state.db, me.user.id, other).await?;
    // A block made meanwhile wins: it removes follows after it is stored, so check again.
    if created && blocks::between(&state.db, me.user.id, other).await? {
        follows::unfollow(&state.db, me.user.id, other).await?;
        return Err(ApiError::forbidden(MSG_BLOCKED_INTERACTION));
    }
    if created {
        let data = serde_json::json!({
            "followerId": me.user.id.to_hex(),
            "followerName": me.user.name,
            "followeeId": other.to_hex(),
        });
        crate::services::webhooks::emit(state, "follower.created", Some(other), data);
        record_activity(
            state,
            me.user.id,
            "follow",
            &format!("Followed {}", target.name),
            None,
            Some(other),
        )
        .await;
    }
    follow_answer(state, other, message, true).await
}

/// `me` stops following `other` (recorded as activity when they did follow).
pub async fn unfollow(
    state: &AppState,
    me: &AuthUser,
    other: ObjectId,
    message: &str,
) -> ApiResult<FollowAnswer> {
    if follows::unfollow(&state.db, me.user.id, other).await? {
        record_activity(
            state,
            me.user.id,
            "unfollow",
            "Unfollowed a user",
            None,
            Some(other),
        )
        .await;
    }
    follow_answer(state, other, message, false).await
}

/// How `me` hears of `author`'s new posts; false when `me` does not follow them.
pub async fn set_alerts(
    state: &AppState,
    me: &AuthUser,
    author: ObjectId,
    mode: Alerts,
) -> ApiResult<bool> {
    Ok(follows::set_alerts(&state.db, me.user.id, author, mode).await?)
}

/// How `me` hears of `other`'s new posts (`None`: not following).
pub async fn alerts_of(
    state: &AppState,
    me: &AuthUser,
    other: ObjectId,
) -> ApiResult<Option<Alerts>> {
    Ok(follows::alerts(&state.db, me.user.id, other).await?)
}

/// One person of a followers or following list; `isFollowing` says whether the caller follows
/// them, and `alerts` how the caller hears of their new posts (`null` when not following).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowEntry {
    #[serde(rename = "_id")]
    id: String,
    name: String,
    avatar: Option<String>,
    is_following: bool,
    alerts: Option<String>,
    followed_at: String,
}

/// One page (page `page` of `limit`) of `whose` followers or people followed, as `me` sees it
/// (people on either side of a block with `me` left out; across a block, a 403), and the
/// list's size.
pub async fn list(
    state: &AppState,
    me: &AuthUser,
    whose: ObjectId,
    side: Side,
    page: u64,
    limit: i64,
) -> ApiResult<(Vec<FollowEntry>, u64)> {
    ensure_not_blocked(&state.db, me.user.id, whose).await?;
    let hidden = graph::hidden_from(&state.db, me.user.id).await?;
    let skip = (page - 1) * u64::try_from(limit).unwrap_or(0);
    let (edges, total) = follows::page(&state.db, whose, side, &hidden, skip, limit).await?;
    let ids: Vec<ObjectId> = edges.iter().map(|e| e.user).collect();
    let cards = user_directory::authors(&state.db, &ids).await?;
    let mine = follows::alerts_among(&state.db, me.user.id, &ids).await?;
    let items: Vec<_> = edges
        .iter()
        .map(|e| {
            let card = cards.get(&e.user);
            FollowEntry {
                id: e.user.to_hex(),
                name: card.map_or(DELETED_AUTHOR, |c| c.name.as_str()).to_string(),
                avatar: card.and_then(|c| c.avatar.clone()),
                is_following: mine.contains_key(&e.user),
                alerts: mine.get(&e.user).map(|a| a.as_str().to_string()),
                followed_at: iso(e.since),
            }
        })
        .collect();
    Ok((items, total))
}

/// The latest shared locations of `me`'s followers, newest first (only the online ones unless
/// `include_offline`): `limit` of them from `skip`, and how many there are.
pub async fn follower_locations(
    state: &AppState,
    me: &AuthUser,
    include_offline: bool,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<UserLocation>, u64)> {
    let followers = locations::followers_of(&state.db, me.user.id).await?;
    let online = state.realtime.online().await.user_ids;
    let mut found = locations::find_for_users(&state.db, &followers).await?;
    if !include_offline {
        found.retain(|l| online.contains(&l.user_id.to_hex()));
    }
    let total = found.len() as u64;
    let page: Vec<_> = found
        .into_iter()
        .skip(usize::try_from(skip).unwrap_or(usize::MAX))
        .take(usize::try_from(limit).unwrap_or(0))
        .collect();
    Ok((page, total))
}
