//! `GET /api/post/count/all`, `/count/my`, `/count/following` → {count}: public posts, the
//! caller's own posts (every status), and the following feed's posts. The same counts travel in
//! `postCountsUpdated` (see `live::post_counts_updated`).

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Document};
use serde_json::json;

use super::following::following_filter_for;
use super::{list_filter_for, MSG_SIGN_IN_REQUIRED};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{posts, Db};
use crate::state::AppState;

/// Posts of the public feed as `viewer` sees it (`None`: a guest).
pub async fn all_posts_count(db: &Db, viewer: Option<ObjectId>) -> ApiResult<u64> {
    let filter = list_filter_for(db, viewer, false, Document::new()).await?;
    Ok(posts::count(db, filter).await?)
}

/// Every post of `user`, whatever its status.
pub async fn my_posts_count(db: &Db, user: ObjectId) -> ApiResult<u64> {
    Ok(posts::count(db, doc! { "author": user }).await?)
}

/// Posts of `user`'s following feed.
pub async fn following_posts_count(db: &Db, user: ObjectId) -> ApiResult<u64> {
    let filter = following_filter_for(db, user).await?;
    Ok(posts::count(db, filter).await?)
}

#[tracing::instrument(skip_all)]
pub async fn count_all(state: web::Data<AppState>, viewer: MaybeUser) -> ApiResult<HttpResponse> {
    let count = all_posts_count(&state.db, viewer.0.map(|v| v.user.id)).await?;
    Ok(HttpResponse::Ok().json(json!({ "count": count })))
}

#[tracing::instrument(skip_all)]
pub async fn count_my(state: web::Data<AppState>, viewer: MaybeUser) -> ApiResult<HttpResponse> {
    let me = viewer
        .0
        .ok_or_else(|| ApiError::unauthorized(MSG_SIGN_IN_REQUIRED))?;
    let count = my_posts_count(&state.db, me.user.id).await?;
    Ok(HttpResponse::Ok().json(json!({ "count": count })))
}

#[tracing::instrument(skip_all)]
pub async fn count_following(
    state: web::Data<AppState>,
    viewer: MaybeUser,
) -> ApiResult<HttpResponse> {
    let me = viewer
        .0
        .ok_or_else(|| ApiError::unauthorized(MSG_SIGN_IN_REQUIRED))?;
    let count = following_posts_count(&state.db, me.user.id).await?;
    Ok(HttpResponse::Ok().json(json!({ "count": count })))
}
