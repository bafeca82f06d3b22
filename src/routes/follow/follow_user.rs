//! `POST /api/follow/{userId}` → {message, isFollowing, followersCount}: the caller follows a
//! user. Again answers the same. Oneself is a 400, an unknown user 404, a block between the two
//! (either way) 403.

use actix_web::{web, HttpRequest, HttpResponse};

use super::{follow_answer, MSG_CANNOT_FOLLOW_SELF};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{blocks, follows, users};
use crate::services::activity::record_activity;
use crate::services::engagement::{ensure_not_blocked, MSG_BLOCKED_INTERACTION};
use crate::services::people::MSG_USER_NOT_FOUND;
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
    let target = users::find_by_id(&state.db, other)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    ensure_not_blocked(&state.db, me.user.id, other).await?;
    let created = follows::follow(&state.db, me.user.id, other).await?;
    // A block made meanwhile wins: it removes follows after it is stored, so check again.
    if created && blocks::between(&state.db, me.user.id, other).await? {
        follows::unfollow(&state.db, me.user.id, other).await?;
        return Err(ApiError::forbidden(MSG_BLOCKED_INTERACTION));
    }
    if created {
        let data = serde_json::json!({
            "followerId": me.user.id.to_hex(),
            "followerName": me.user.name,
            "followeeId": other.to_hex(),
        });
        crate::services::webhooks::emit(&state, "follower.created", Some(other), data);
        record_activity(
            &state,
            me.user.id,
            "follow",
            &format!("Followed {}", target.name),
            None,
            Some(other),
        )
        .await;
    }
    follow_answer(&state, other, MSG_FOLLOWED, true).await
}
