//! `/api/follow/*`: following authors, and the map of followers' locations. Following is
//! idempotent; following oneself is a 400; a block between the two users refuses it (403).

pub mod alerts;
pub mod follow_user;
pub mod follower_locations;
pub mod list;
pub mod status;
pub mod unfollow;

use actix_web::HttpResponse;
use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::ApiResult;
use crate::persistence::follows;
use crate::state::AppState;

/// Default and largest page of a followers or following list.
pub const FOLLOW_PAGE_SIZE: i64 = 12;
pub const MAX_FOLLOW_PAGE_SIZE: i64 = 50;
pub const MSG_CANNOT_FOLLOW_SELF: &str = "You cannot follow yourself";
pub const MSG_CANNOT_UNFOLLOW_SELF: &str = "You cannot unfollow yourself";

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
pub async fn follow_answer(
    state: &AppState,
    other: ObjectId,
    message: &str,
    is_following: bool,
) -> ApiResult<HttpResponse> {
    let followers = follows::follower_count(&state.db, other).await?;
    Ok(HttpResponse::Ok().json(FollowAnswer {
        message: message.to_string(),
        is_following,
        user_id: other.to_hex(),
        followers_count: followers,
    }))
}
