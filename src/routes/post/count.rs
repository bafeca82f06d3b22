//! `GET /api/post/count/all`, `/count/my`, `/count/following` → {count}: public posts, the
//! caller's own posts (every status), and the following feed's posts. The same counts travel in
//! `postCountsUpdated` (see `live::post_counts_updated`). They are the totals of those lists, from
//! the read index when it can answer.

use crate::routes::answers::CountAnswer;
use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;

use super::feed::{self, Feed};
use super::MSG_SIGN_IN_REQUIRED;
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// Posts of the public feed as `viewer` sees it (`None`: a guest).
pub async fn all_posts_count(state: &AppState, viewer: Option<ObjectId>) -> ApiResult<u64> {
    let feed = Feed::Public {
        tag: None,
        category: None,
    };
    feed::total(state, viewer, &feed).await
}

/// Every post of `user`, whatever its status (the author's own list).
pub async fn my_posts_count(state: &AppState, user: ObjectId) -> ApiResult<u64> {
    let feed = Feed::Author {
        author: user,
        text: None,
    };
    feed::total(state, Some(user), &feed).await
}

/// Posts of `user`'s following feed.
pub async fn following_posts_count(state: &AppState, user: ObjectId) -> ApiResult<u64> {
    feed::total(state, Some(user), &Feed::Following).await
}

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
