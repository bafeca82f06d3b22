//! `PATCH /api/user/toggle-block/{id}` and `PATCH /api/admin/users/block/{id}` (administrators)
//! → {message, data}: blocks or unblocks a user. `data` is the user as the admin list shows it,
//! with `blocked`. The message contains "blocked" exactly when the user is now blocked. Blocking
//! ends the user's sessions and closes their sockets at once.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{admin_view, target_of, user_id, MSG_CHANGED_MEANWHILE};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::live;
use crate::persistence::users;
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
    let target = target_of(&state, &admin, user_id(&id)?, MSG_NOT_YOURSELF).await?;
    let updated = users::toggle_blocked(&state.db, target.id, target.blocked)
        .await?
        .ok_or_else(|| ApiError::conflict(MSG_CHANGED_MEANWHILE))?;
    let (message, action) = if updated.blocked {
        live::sessions_ended(&state.realtime, &updated.id.to_hex());
        (MSG_BLOCKED, Action::UserBlock)
    } else {
        (MSG_UNBLOCKED, Action::UserUnblock)
    };
    audit::record(&state, &admin, action, Target::user(&updated), json!({})).await;
    Ok(HttpResponse::Ok().json(super::AdminUserAnswer {
        message: message.to_string(),
        data: admin_view(&updated),
    }))
}
