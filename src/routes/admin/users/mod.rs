//! User management, one implementation for both API families: seed 000's `/api/user/get-all-user`,
//! `toggle-block/{id}`, `toggle-role/{id}` and `delete-user`, and seed 001's `/api/admin/users`,
//! `users/block/{id}`, `users/role/{id}` and `users/{id}`.
//!
//! The client derives the outcome from the answer's message (seed 001 §4): a block answer
//! contains "blocked" exactly when the user is now blocked, a role answer contains "admin"
//! exactly when the user is now an administrator. An administrator cannot block, demote or
//! delete themself (400), and the last administrator can never be demoted or deleted (409).

pub mod block;
pub mod delete;
pub mod list;
pub mod role;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::users::{self, MilestoneOverride, Role, User};
use crate::post_view::iso;
use crate::state::AppState;

pub const MSG_USER_NOT_FOUND: &str = "User not found";
pub const MSG_INVALID_USER_ID: &str = "Invalid user id";
pub const MSG_CHANGED_MEANWHILE: &str =
    "This user was changed by someone else just now. Please reload and try again.";
pub const MSG_LAST_ADMIN_DEMOTE: &str =
    "The last administrator cannot be demoted. Make someone else an administrator first.";
pub const MSG_LAST_ADMIN_DELETE: &str =
    "The last administrator cannot be deleted. Make someone else an administrator first.";

/// A user as the administrators' lists show them (seed 001 §3 "Admin state lists": users with
/// blocked, role, isEligibleForSubscription, bypassSubscriptionCriteria).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminUserView {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: String,
    pub avatar: Option<String>,
    /// `user` or `admin`.
    pub role: String,
    pub blocked: bool,
    pub is_account_verified: bool,
    pub region: Option<String>,
    pub total_posts: i64,
    pub is_eligible_for_subscription: bool,
    pub bypass_subscription_criteria: bool,
    pub milestone_override: MilestoneOverride,
    pub created_at: String,
    pub updated_at: String,
}

pub fn admin_view(u: &User) -> AdminUserView {
    AdminUserView {
        id: u.id.to_hex(),
        name: u.name.clone(),
        email: u.email.clone(),
        avatar: u.avatar.clone(),
        role: u.role.as_str().to_string(),
        blocked: u.blocked,
        is_account_verified: u.is_account_verified,
        region: u.region.clone(),
        total_posts: u.total_posts,
        is_eligible_for_subscription: u.is_eligible_for_subscription,
        bypass_subscription_criteria: u.bypass_subscription_criteria,
        milestone_override: u.milestone_override.clone(),
        created_at: iso(u.created_at),
        updated_at: iso(u.updated_at),
    }
}

/// `{message, data}`: a user after an administrator's change; the message says what it was.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AdminUserAnswer {
    pub message: String,
    pub data: AdminUserView,
}

/// A user id from a path or body.
pub fn user_id(raw: &str) -> ApiResult<ObjectId> {
    ObjectId::parse_str(raw.trim())
        .map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_USER_ID))
}

/// The user an administrator acts on: not themself (400 `self_message`), and existing (404).
pub async fn target_of(
    state: &AppState,
    admin: &AuthUser,
    id: ObjectId,
    self_message: &str,
) -> ApiResult<User> {
    if id == admin.user.id {
        return Err(ApiError::bad_request(self_message));
    }
    users::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))
}

/// Makes an administrator an ordinary user, unless that would leave no active administrator
/// (409 `last_message`). The check is made again after the change, and the change undone if two
/// demotions crossed, so the site always keeps an administrator.
pub async fn demote(state: &AppState, user: &User, last_message: &str) -> ApiResult<User> {
    if users::count_active_admins(&state.db, Some(user.id)).await? == 0 {
        return Err(ApiError::conflict(last_message));
    }
    let demoted = users::change_role(&state.db, user.id, Role::Admin, Role::User)
        .await?
        .ok_or_else(|| ApiError::conflict(MSG_CHANGED_MEANWHILE))?;
    if users::count_active_admins(&state.db, None).await? == 0 {
        users::change_role(&state.db, user.id, Role::User, Role::Admin).await?;
        return Err(ApiError::conflict(last_message));
    }
    // Sockets keep the role they connected with: close them, so the former administrator is
    // out of `adminRoom` at once (their next connection is an ordinary user's).
    crate::live::sessions_ended(&state.realtime, &user.id.to_hex());
    Ok(demoted)
}
