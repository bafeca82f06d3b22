//! `GET /api/follow/status/{userId}` → {isFollowing, userId, alerts}: whether the caller follows
//! the user, and how they hear of the user's new posts (`instant`, `digest`, `off`; `null` when
//! they do not follow them).

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::services::follows;
use crate::state::AppState;

/// `{isFollowing, userId}`: whether the caller follows the user.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowStatusAnswer {
    is_following: bool,
    user_id: String,
    alerts: Option<String>,
}

#[tracing::instrument(skip(state, me))]
pub async fn status(
    state: web::Data<AppState>,
    me: AuthUser,
    user_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let other = object_id(&user_id, "user id")?;
    let alerts = follows::alerts_of(&state, &me, other).await?;
    Ok(HttpResponse::Ok().json(FollowStatusAnswer {
        is_following: alerts.is_some(),
        user_id: other.to_hex(),
        alerts: alerts.map(|a| a.as_str().to_string()),
    }))
}
