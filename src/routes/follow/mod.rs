//! `/api/follow/*`: following authors, and the map of followers' locations. Following is
//! idempotent; following oneself is a 400; a block between the two users refuses it (403).

pub mod follow_user;
pub mod follower_locations;
pub mod list;
pub mod status;
pub mod unfollow;

use actix_web::HttpResponse;
use mongodb::bson::oid::ObjectId;
use serde_json::json;

use crate::error::ApiResult;
use crate::persistence::follows;
use crate::state::AppState;

/// Default and largest page of a followers or following list.
pub const FOLLOW_PAGE_SIZE: i64 = 12;
pub const MAX_FOLLOW_PAGE_SIZE: i64 = 50;
pub const MSG_CANNOT_FOLLOW_SELF: &str = "You cannot follow yourself";
pub const MSG_CANNOT_UNFOLLOW_SELF: &str = "You cannot unfollow yourself";

/// The answer of a follow or unfollow: whether the caller now follows `other`, and the
/// follower count after the change.
pub async fn follow_answer(
    state: &AppState,
    other: ObjectId,
    message: &str,
    is_following: bool,
) -> ApiResult<HttpResponse> {
    let followers = follows::follower_count(&state.db, other).await?;
    Ok(HttpResponse::Ok().json(json!({
        "message": message,
        "isFollowing": is_following,
        "userId": other.to_hex(),
        "followersCount": followers,
    })))
}
