//! `GET /api/user/get-single-user/{id}` → {data}: a public profile, with `followersCount`,
//! `followingCount` and `isOnline` (from presence). For a signed-in caller looking at someone
//! else it also says `isFollowing` (the caller follows them) and `blockedByYou` (the caller
//! blocked them).

use actix_web::{web, HttpResponse};
use serde::Serialize;

use super::PublicUser;
use crate::auth::MaybeUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{blocks, follows, users};
use crate::state::AppState;

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

/// `{data}`: the answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ProfileAnswer {
    pub data: Profile,
}

pub const MSG_USER_NOT_FOUND: &str = "User not found";

/// A user's profile as `viewer` (`None`: a guest) sees it; `None` when there is no such user.
pub async fn profile_of(
    state: &AppState,
    id: mongodb::bson::oid::ObjectId,
    viewer: Option<&crate::auth::AuthUser>,
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

#[tracing::instrument(skip(state, viewer))]
pub async fn get_single_user(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "user id")?;
    let profile = profile_of(&state, id, viewer.0.as_ref())
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    Ok(HttpResponse::Ok().json(ProfileAnswer { data: profile }))
}
