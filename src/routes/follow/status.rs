//! `GET /api/follow/status/{userId}` → {isFollowing}: whether the caller follows the user.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::object_id;
use crate::persistence::follows;
use crate::state::AppState;

/// `{isFollowing, userId}`: whether the caller follows the user.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowStatusAnswer {
    is_following: bool,
    user_id: String,
}

#[tracing::instrument(skip(state, me))]
pub async fn status(
    state: web::Data<AppState>,
    me: AuthUser,
    user_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let other = object_id(&user_id, "user id")?;
    let following = follows::is_following(&state.db, me.user.id, other).await?;
    Ok(HttpResponse::Ok().json(FollowStatusAnswer {
        is_following: following,
        user_id: other.to_hex(),
    }))
}
