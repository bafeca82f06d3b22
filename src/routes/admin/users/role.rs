//! `PATCH /api/user/toggle-role/{id}` and `PATCH /api/admin/users/role/{id}` (administrators)
//! → {message, data}: switches a user between `user` and `admin`. `data` is the user as the
//! admin list shows it, with `role`. The message contains "admin" exactly when the user is now
//! an administrator. A former administrator's sockets are closed, so they leave `adminRoom`.

use actix_web::{web, HttpResponse};

use super::user_id;
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::services::admin_users;
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
    let data = admin_users::toggle_role(&state, &admin, user_id(&id)?, MSG_NOT_YOURSELF).await?;
    let message = if data.role == "admin" {
        MSG_PROMOTED
    } else {
        MSG_DEMOTED
    };
    Ok(HttpResponse::Ok().json(super::AdminUserAnswer {
        message: message.to_string(),
        data,
    }))
}
