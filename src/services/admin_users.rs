//! What administrators do to accounts: list them, block and unblock, promote and demote (never
//! leaving the site without an active administrator), and delete them.

use mongodb::bson::oid::ObjectId;
use serde::Serialize;
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::domain::params::SortBy;
use crate::error::{ApiError, ApiResult};
use crate::live;
use crate::persistence::users::{self, MilestoneOverride, Role, User};
use crate::post_view::iso;
use crate::services::accounts::{remove_account, Removal};
use crate::services::people::{MSG_CHANGED_MEANWHILE, MSG_USER_NOT_FOUND};
use crate::state::AppState;

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

fn admin_view(u: &User) -> AdminUserView {
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

/// The user an administrator acts on: not themself (400 `self_message`), and existing (404).
async fn target_of(
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
async fn demote(state: &AppState, user: &User, last_message: &str) -> ApiResult<User> {
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

/// One page of users whose name or email matches `pattern` (all when `None`), in `sort` order,
/// and how many match.
pub async fn page(
    state: &AppState,
    pattern: Option<&str>,
    sort: SortBy,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<AdminUserView>, u64)> {
    let (found, total) =
        users::page_by_name_or_email(&state.db, pattern, sort, skip, limit).await?;
    Ok((found.iter().map(admin_view).collect(), total))
}

/// `admin` blocks user `id` (signing them out everywhere) or makes them active again; not
/// themself (400 `self_message`). Answers the user and whether they are now blocked.
pub async fn toggle_block(
    state: &AppState,
    admin: &AuthUser,
    id: ObjectId,
    self_message: &str,
) -> ApiResult<AdminUserView> {
    let target = target_of(state, admin, id, self_message).await?;
    let updated = users::toggle_blocked(&state.db, target.id, target.blocked)
        .await?
        .ok_or_else(|| ApiError::conflict(MSG_CHANGED_MEANWHILE))?;
    let action = if updated.blocked {
        live::sessions_ended(&state.realtime, &updated.id.to_hex());
        Action::UserBlock
    } else {
        Action::UserUnblock
    };
    audit::record(state, admin, action, Target::user(&updated), json!({})).await;
    Ok(admin_view(&updated))
}

/// `admin` (signed in recently) makes user `id` an administrator, or an administrator an
/// ordinary user; not themself (400 `self_message`).
pub async fn toggle_role(
    state: &AppState,
    admin: &AuthUser,
    id: ObjectId,
    self_message: &str,
) -> ApiResult<AdminUserView> {
    crate::services::reauth::require_recent(state, admin).await?;
    let target = target_of(state, admin, id, self_message).await?;
    let (updated, action) = match target.role {
        Role::Admin => (
            demote(state, &target, MSG_LAST_ADMIN_DEMOTE).await?,
            Action::UserDemote,
        ),
        Role::User => (
            users::change_role(&state.db, target.id, Role::User, Role::Admin)
                .await?
                .ok_or_else(|| ApiError::conflict(MSG_CHANGED_MEANWHILE))?,
            Action::UserPromote,
        ),
    };
    audit::record(state, admin, action, Target::user(&updated), json!({})).await;
    Ok(admin_view(&updated))
}

/// `admin` deletes user `id` with what their account holds (an administrator is demoted first,
/// unless they are the last); not themself (400 `self_message`). Answers what went with it.
pub async fn delete(
    state: &actix_web::web::Data<AppState>,
    admin: &AuthUser,
    id: ObjectId,
    self_message: &str,
) -> ApiResult<Removal> {
    let target = target_of(state, admin, id, self_message).await?;
    if target.role == Role::Admin {
        demote(state, &target, MSG_LAST_ADMIN_DELETE).await?;
    }
    let removed = remove_account(state, &target, admin.user.id).await?;
    let data = json!({ "id": id.to_hex() });
    crate::services::webhooks::emit(state, "member.deleted", None, data);
    audit::record(
        state,
        admin,
        Action::UserDelete,
        Target::user(&target),
        serde_json::to_value(&removed).unwrap_or_default(),
    )
    .await;
    Ok(removed)
}
