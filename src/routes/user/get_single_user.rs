//! `GET /api/user/get-single-user/{id}` → {data}: a public profile, with `followersCount`,
//! `followingCount` and `isOnline` (from presence). For a signed-in caller looking at someone
//! else it also says `isFollowing` (the caller follows them) and `blockedByYou` (the caller
//! blocked them).

use actix_web::{web, HttpResponse};
use serde_json::{json, Value};

use super::PublicUser;
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::object_id;
use crate::persistence::{blocks, follows, users};
use crate::state::AppState;

pub const MSG_USER_NOT_FOUND: &str = "User not found";

#[tracing::instrument(skip(state, viewer))]
pub async fn get_single_user(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "user id")?;
    let user = users::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    let mut data = serde_json::to_value(PublicUser::from(&user)).map_err(ApiError::internal)?;
    let online = state.realtime.online().await.user_ids;
    data["followersCount"] = json!(follows::follower_count(&state.db, id).await?);
    data["followingCount"] = json!(follows::following_count(&state.db, id).await?);
    data["isOnline"] = Value::Bool(online.contains(&id.to_hex()));
    if let Some(me) = viewer.0.as_ref().filter(|me| me.user.id != id) {
        data["isFollowing"] = Value::Bool(follows::is_following(&state.db, me.user.id, id).await?);
        data["blockedByYou"] = Value::Bool(blocks::has_blocked(&state.db, me.user.id, id).await?);
    }
    Ok(HttpResponse::Ok().json(json!({ "data": data })))
}
