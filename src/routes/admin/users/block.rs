//! `PATCH /api/user/toggle-block/{id}` and `PATCH /api/admin/users/block/{id}` (administrators)
//! → {message, data}: blocks or unblocks a user. `data` is the user as the admin list shows it,
//! with `blocked`. The message contains "blocked" exactly when the user is now blocked. Blocking
//! ends the user's sessions and closes their sockets at once.

use actix_web::{web, HttpResponse};

use super::user_id;
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::services::admin_users;
use crate::state::AppState;

pub const MSG_BLOCKED: &str = "User blocked";
pub const MSG_UNBLOCKED: &str = "User is active again";
pub const MSG_NOT_YOURSELF: &str = "You cannot block your own account";

#[tracing::instrument(skip(state, admin), fields(admin = %admin.0.id_hex()))]
pub async fn toggle_block(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let AdminUser(admin) = admin;
    let data = admin_users::toggle_block(&state, &admin, user_id(&id)?, MSG_NOT_YOURSELF).await?;
    let message = if data.blocked {
        MSG_BLOCKED
    } else {
        MSG_UNBLOCKED
    };
    Ok(HttpResponse::Ok().json(super::AdminUserAnswer {
        message: message.to_string(),
        data,
    }))
}
