//! `POST /api/block/block-user/{id}` → {message}: blocks a user and removes the follows between
//! the two. Blocking again answers the same.

use actix_web::{web, HttpResponse};

use super::{BlockAnswer, MSG_BLOCKED, MSG_CANNOT_BLOCK_SELF};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::services::blocking;
use crate::state::AppState;

#[tracing::instrument(skip(state, me))]
pub async fn block_user(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let other = object_id(&id, "user id")?;
    if other == me.user.id {
        return Err(ApiError::bad_request(MSG_CANNOT_BLOCK_SELF));
    }
    blocking::block(&state, &me, other).await?;
    Ok(HttpResponse::Ok().json(BlockAnswer {
        message: MSG_BLOCKED,
        blocked_user_id: other.to_hex(),
    }))
}
