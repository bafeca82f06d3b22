//! `GET /api/follow/status/{userId}` → {isFollowing}: whether the caller follows the user.

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::object_id;
use crate::persistence::follows;
use crate::state::AppState;

#[tracing::instrument(skip(state, me))]
pub async fn status(
    state: web::Data<AppState>,
    me: AuthUser,
    user_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let other = object_id(&user_id, "user id")?;
    let following = follows::is_following(&state.db, me.user.id, other).await?;
    Ok(HttpResponse::Ok().json(json!({ "isFollowing": following, "userId": other.to_hex() })))
}
