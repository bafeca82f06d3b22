//! `PATCH /api/user/toggle-role/{id}` and `PATCH /api/admin/users/role/{id}` (administrators)
//! → {message, data}: switches a user between `user` and `admin`. `data` is the user as the
//! admin list shows it, with `role`. The message contains "admin" exactly when the user is now
//! an administrator. A former administrator's sockets are closed, so they leave `adminRoom`.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{admin_view, demote, target_of, user_id, MSG_CHANGED_MEANWHILE, MSG_LAST_ADMIN_DEMOTE};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::users::{self, Role};
use crate::state::AppState;

pub const MSG_PROMOTED: &str = "User promoted to admin";
pub const MSG_DEMOTED: &str = "User is now a regular user";
pub const MSG_NOT_YOURSELF: &str = "You cannot change your own role";

#[tracing::instrument(skip(state, admin), fields(admin = %admin.0.id_hex()))]
pub async fn toggle_role(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let AdminUser(admin) = admin;
    crate::services::reauth::require_recent(&state, &admin).await?;
    let target = target_of(&state, &admin, user_id(&id)?, MSG_NOT_YOURSELF).await?;
    let (updated, message, action) = match target.role {
        Role::Admin => (
            demote(&state, &target, MSG_LAST_ADMIN_DEMOTE).await?,
            MSG_DEMOTED,
            Action::UserDemote,
        ),
        Role::User => (
            users::change_role(&state.db, target.id, Role::User, Role::Admin)
                .await?
                .ok_or_else(|| ApiError::conflict(MSG_CHANGED_MEANWHILE))?,
            MSG_PROMOTED,
            Action::UserPromote,
        ),
    };
    audit::record(&state, &admin, action, Target::user(&updated), json!({})).await;
    Ok(HttpResponse::Ok().json(super::AdminUserAnswer {
        message: message.to_string(),
        data: admin_view(&updated),
    }))
}
