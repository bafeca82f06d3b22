//! People as others see them: the public form of a user and a profile with its counts and the
//! viewer's relation to it (`GET /api/user/get-single-user/{id}`, the author page the server
//! renders).

use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::users::MilestoneOverride;
use crate::persistence::{blocks, follows, users};
use crate::post_view::iso;
use crate::state::AppState;

pub use crate::persistence::users::User;

pub const MSG_USER_NOT_FOUND: &str = "User not found";
/// A change that lost a race with another administrator's (the record moved on meanwhile).
pub const MSG_CHANGED_MEANWHILE: &str =
    "This user was changed by someone else just now. Please reload and try again.";

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

/// Who is connected now: the public profiles of the signed-in users (blocked ones left out,
/// by name), the number of guests and of people (each person once, however many tabs).
pub async fn online(state: &AppState) -> ApiResult<(Vec<PublicUser>, usize, usize)> {
    let snapshot = state.realtime.online().await;
    let ids: Vec<mongodb::bson::oid::ObjectId> = snapshot
        .user_ids
        .iter()
        .filter_map(|id| mongodb::bson::oid::ObjectId::parse_str(id).ok())
        .collect();
    let mut found = users::find_many(&state.db, &ids).await?;
    found.retain(|u| !u.blocked);
    found.sort_by_key(|u| u.name.to_lowercase());
    let people = found.iter().map(PublicUser::from).collect();
    Ok((people, snapshot.guests, snapshot.people))
}

/// Saves `me`'s answer to the cookie consent.
pub async fn set_consent(state: &AppState, me: &AuthUser, consent: bool) -> ApiResult<()> {
    users::set_consent(&state.db, me.user.id, consent)
        .await?
        .ok_or_else(|| crate::error::ApiError::not_found(MSG_USER_NOT_FOUND))?;
    Ok(())
}

/// A user as they see themselves: the public profile and what only they may see.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnUser {
    #[serde(flatten)]
    pub public: PublicUser,
    pub email: String,
    pub blocked: bool,
    pub is_eligible_for_subscription: bool,
    pub bypass_subscription_criteria: bool,
    pub milestone_override: MilestoneOverride,
    pub consent: Option<bool>,
    /// Whether the user receives the daily post email.
    pub daily_post_email: bool,
    pub has_password: bool,
    pub updated_at: String,
}

impl From<&User> for OwnUser {
    fn from(u: &User) -> Self {
        OwnUser {
            public: PublicUser::from(u),
            email: u.email.clone(),
            blocked: u.blocked,
            is_eligible_for_subscription: u.is_eligible_for_subscription,
            bypass_subscription_criteria: u.bypass_subscription_criteria,
            milestone_override: u.milestone_override.clone(),
            consent: u.consent,
            daily_post_email: !u.daily_post_opt_out,
            has_password: u.password_hash.is_some(),
            updated_at: iso(u.updated_at),
        }
    }
}

/// A short reference to a user inside another object: `{_id, name, avatar}`.
#[derive(Clone, Serialize, utoipa::ToSchema)]
pub struct UserRef {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub avatar: Option<String>,
}

impl From<&User> for UserRef {
    fn from(u: &User) -> Self {
        UserRef {
            id: u.id.to_hex(),
            name: u.name.clone(),
            avatar: u.avatar.clone(),
        }
    }
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserHit {
    #[serde(rename = "_id")]
    id: String,
    name: String,
    email: Option<String>,
    avatar: Option<String>,
    total_posts: i64,
}

/// The people whose name (or, for an administrator, email) matches `text`: from the search
/// index, or the directory while it is not ready. An email is shown to administrators, and to
/// whoever typed it exactly.
pub async fn search(
    state: &AppState,
    text: &crate::domain::search::SearchQuery,
    admin: bool,
) -> ApiResult<Vec<UserHit>> {
    let shown = |email: &str| admin || email == text.as_str();
    let found = match state.search.users(text.as_str(), admin).await {
        Ok(found) => found,
        Err(_) => {
            crate::persistence::user_directory::search(
                &state.db,
                &text.literal_pattern(),
                text.as_str(),
            )
            .await?
        }
    };
    Ok(found
        .into_iter()
        .map(|u| UserHit {
            id: u.id.to_hex(),
            email: shown(&u.email).then(|| u.email.clone()),
            name: u.name,
            avatar: u.avatar,
            total_posts: u.total_posts,
        })
        .collect())
}
