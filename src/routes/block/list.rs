//! `GET /api/block/list` → {users}: the people the caller blocked, most recent block first, each
//! `{_id, name, avatar, blockedAt}` (a deleted account reads as "Deleted user"), so settings can
//! offer Unblock.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::blocking::{self, BlockedUser};
use crate::state::AppState;

/// `{users}`: everyone the caller blocked.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct BlockedAnswer {
    users: Vec<BlockedUser>,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let users = blocking::blocked_by(&state, &me).await?;
    Ok(HttpResponse::Ok().json(BlockedAnswer { users }))
}
