//! `GET /api/user/get-single-user/{id}` → {data}: a public profile, with `followersCount`,
//! `followingCount` and `isOnline` (from presence). For a signed-in caller looking at someone
//! else it also says `isFollowing` (the caller follows them) and `blockedByYou` (the caller
//! blocked them).

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::MaybeUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::services::people::{profile_of, Profile, MSG_USER_NOT_FOUND};
use crate::state::AppState;

/// `{data}`: the answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ProfileAnswer {
    pub data: Profile,
}

#[tracing::instrument(skip(state, viewer))]
pub async fn get_single_user(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "user id")?;
    let profile = profile_of(&state, id, viewer.0.as_ref())
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    Ok(HttpResponse::Ok().json(ProfileAnswer { data: profile }))
}
