//! `POST /api/block/unblock` {blockedUserId} → {message}. Unblocking someone not blocked answers
//! the same; follows removed by the block stay removed.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{BlockAnswer, MSG_UNBLOCKED};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::blocking;
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnblockBody {
    #[serde(default)]
    blocked_user_id: Option<String>,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn unblock(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<UnblockBody>,
) -> ApiResult<HttpResponse> {
    let raw = body
        .into_inner()
        .blocked_user_id
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| ApiError::bad_request("blockedUserId is required"))?;
    let other = object_id(&raw, "blockedUserId")?;
    blocking::unblock(&state, &me, other).await?;
    Ok(HttpResponse::Ok().json(BlockAnswer {
        message: MSG_UNBLOCKED,
        blocked_user_id: other.to_hex(),
    }))
}
