//! `POST /api/follow/unfollow/{userId}` → {message, isFollowing, followersCount}: the caller
//! stops following a user. Not following answers the same; oneself is a 400.

use actix_web::{web, HttpRequest, HttpResponse};

use super::MSG_CANNOT_UNFOLLOW_SELF;
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::services::follows;
use crate::state::AppState;

pub const MSG_UNFOLLOWED: &str = "Unfollowed successfully";

#[tracing::instrument(skip(state, me, req))]
pub async fn unfollow(
    state: web::Data<AppState>,
    me: AuthUser,
    req: HttpRequest,
    user_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    crate::counting::limit_user(
        &state.counting(),
        &req,
        &me,
        crate::ratelimit::Action::Follow,
    )
    .await?;
    let other = object_id(&user_id, "user id")?;
    if other == me.user.id {
        return Err(ApiError::bad_request(MSG_CANNOT_UNFOLLOW_SELF));
    }
    Ok(HttpResponse::Ok().json(follows::unfollow(&state, &me, other, MSG_UNFOLLOWED).await?))
}
