//! `POST /api/follow/unfollow/{userId}` → {message, isFollowing, followersCount}: the caller
//! stops following a user. Not following answers the same; oneself is a 400.

use actix_web::{web, HttpRequest, HttpResponse};

use super::{follow_answer, MSG_CANNOT_UNFOLLOW_SELF};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::follows;
use crate::services::activity::record_activity;
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
    if follows::unfollow(&state.db, me.user.id, other).await? {
        record_activity(
            &state,
            me.user.id,
            "unfollow",
            "Unfollowed a user",
            None,
            Some(other),
        )
        .await;
    }
    follow_answer(&state, other, MSG_UNFOLLOWED, false).await
}
