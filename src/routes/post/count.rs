//! `GET /api/post/count/all`, `/count/my`, `/count/following` → {count}: public posts, the
//! caller's own posts (every status), and the following feed's posts. The same counts travel in
//! `postCountsUpdated` (see `services::counts::post_counts_updated`). They are the totals of those lists, from
//! the read index when it can answer.

use crate::routes::answers::CountAnswer;
use actix_web::{web, HttpResponse};

use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::services::counts::{all_posts_count, following_posts_count, my_posts_count};
use crate::services::posts::MSG_SIGN_IN_REQUIRED;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn count_all(state: web::Data<AppState>, viewer: MaybeUser) -> ApiResult<HttpResponse> {
    let count = all_posts_count(&state, viewer.0.map(|v| v.user.id)).await?;
    Ok(HttpResponse::Ok().json(CountAnswer { count }))
}

#[tracing::instrument(skip_all)]
pub async fn count_my(state: web::Data<AppState>, viewer: MaybeUser) -> ApiResult<HttpResponse> {
    let me = viewer
        .0
        .ok_or_else(|| ApiError::unauthorized(MSG_SIGN_IN_REQUIRED))?;
    let count = my_posts_count(&state, me.user.id).await?;
    Ok(HttpResponse::Ok().json(CountAnswer { count }))
}

#[tracing::instrument(skip_all)]
pub async fn count_following(
    state: web::Data<AppState>,
    viewer: MaybeUser,
) -> ApiResult<HttpResponse> {
    let me = viewer
        .0
        .ok_or_else(|| ApiError::unauthorized(MSG_SIGN_IN_REQUIRED))?;
    let count = following_posts_count(&state, me.user.id).await?;
    Ok(HttpResponse::Ok().json(CountAnswer { count }))
}
