//! People as others see them: the public form of a user and a profile with its counts and the
//! viewer's relation to it (`GET /api/user/get-single-user/{id}`, the author page the server
//! renders).

use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::users::User;
use crate::persistence::{blocks, follows, users};
use crate::post_view::iso;
use crate::state::AppState;

pub const MSG_USER_NOT_FOUND: &str = "User not found";

/// A post's author (named "Deleted user" when the account is gone).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AuthorName {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
}

/// A user as anyone may see them.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicUser {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub avatar: Option<String>,
    pub bio: Option<String>,
    pub region: Option<String>,
    pub website: Option<String>,
    pub location: Option<String>,
    pub role: &'static str,
    pub total_posts: i64,
    pub is_account_verified: bool,
    pub created_at: String,
}

impl From<&User> for PublicUser {
    fn from(u: &User) -> Self {
        PublicUser {
            id: u.id.to_hex(),
            name: u.name.clone(),
            avatar: u.avatar.clone(),
            bio: u.bio.clone(),
            region: u.region.clone(),
            website: u.website.clone(),
            location: u.location.clone(),
            role: u.role.as_str(),
            total_posts: u.total_posts,
            is_account_verified: u.is_account_verified,
            created_at: iso(u.created_at),
        }
    }
}

/// A public profile with its counts and, for another signed-in user, their relation to it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    #[serde(flatten)]
    pub public: PublicUser,
    pub followers_count: u64,
    pub following_count: u64,
    pub is_online: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_following: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_by_you: Option<bool>,
}

/// A user's profile as `viewer` (`None`: a guest) sees it; `None` when there is no such user.
pub async fn profile_of(
    state: &AppState,
    id: mongodb::bson::oid::ObjectId,
    viewer: Option<&AuthUser>,
) -> ApiResult<Option<Profile>> {
    let Some(user) = users::find_by_id(&state.db, id).await? else {
        return Ok(None);
    };
    let online = state.realtime.online().await.user_ids;
    let mut profile = Profile {
        public: PublicUser::from(&user),
        followers_count: follows::follower_count(&state.db, id).await?,
        following_count: follows::following_count(&state.db, id).await?,
        is_online: online.contains(&id.to_hex()),
        is_following: None,
        blocked_by_you: None,
    };
    if let Some(me) = viewer.filter(|me| me.user.id != id) {
        profile.is_following = Some(follows::is_following(&state.db, me.user.id, id).await?);
        profile.blocked_by_you = Some(blocks::has_blocked(&state.db, me.user.id, id).await?);
    }
    Ok(Some(profile))
}
