//! `POST /api/follow/{userId}` → {message, isFollowing, followersCount}: the caller follows a
//! user. Again answers the same. Oneself is a 400, an unknown user 404, a block between the two
//! (either way) 403.

use actix_web::{web, HttpRequest, HttpResponse};

use super::MSG_CANNOT_FOLLOW_SELF;
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::services::follows;
use crate::state::AppState;

pub const MSG_FOLLOWED: &str = "Followed successfully";

#[tracing::instrument(skip(state, me, req))]
pub async fn follow(
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
        return Err(ApiError::bad_request(MSG_CANNOT_FOLLOW_SELF));
    }
    Ok(HttpResponse::Ok().json(follows::follow(&state, &me, other, MSG_FOLLOWED).await?))
}
