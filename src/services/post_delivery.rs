//! How a post's announcement went, for its author and administrators
//! (`GET /api/post/delivery/{id}`): whether it was announced, and its notices and emails.

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::post_mail::{self, Phase};
use crate::persistence::posts;
use crate::services::posts::{may_manage, MSG_NOT_POST_OWNER, MSG_POST_NOT_FOUND};
use crate::state::AppState;

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryAnswer {
    post_id: String,
    /// Whether the post was announced (it became visible to its audience).
    announced: bool,
    send_email: bool,
    notices: i64,
    emails_sent: i64,
    emails_failed: i64,
    /// Whether every follower and subscriber was gone through.
    done: bool,
}

/// The delivery figures of post `id`, which `me` may manage.
pub async fn of_post(state: &AppState, me: &AuthUser, id: ObjectId) -> ApiResult<DeliveryAnswer> {
    let post = posts::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if !may_manage(&post, me) {
        return Err(ApiError::forbidden(MSG_NOT_POST_OWNER));
    }
    let a = post_mail::find(&state.db, id).await?;
    Ok(DeliveryAnswer {
        post_id: id.to_hex(),
        announced: a.is_some(),
        send_email: a.as_ref().is_none_or(|a| a.send_email),
        notices: a.as_ref().map_or(0, |a| a.notices),
        emails_sent: a.as_ref().map_or(0, |a| a.emails_sent),
        emails_failed: a.as_ref().map_or(0, |a| a.emails_failed),
        done: a.as_ref().is_some_and(|a| a.phase == Phase::Done),
    })
}
