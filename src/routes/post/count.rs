//! `GET /api/post/count/all`, `/count/my`, `/count/following` → {count}: public posts, the
//! caller's own posts (every status), and the following feed's posts.

use actix_web::{web, HttpResponse};
use mongodb::bson::{doc, Document};
use serde_json::json;

use super::following::following_filter;
use super::{list_filter, MSG_SIGN_IN_REQUIRED};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::posts;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn count_all(state: web::Data<AppState>, viewer: MaybeUser) -> ApiResult<HttpResponse> {
    let filter = list_filter(&state.db, viewer.0.as_ref(), false, Document::new()).await?;
    let count = posts::count(&state.db, filter).await?;
    Ok(HttpResponse::Ok().json(json!({ "count": count })))
}

#[tracing::instrument(skip_all)]
pub async fn count_my(state: web::Data<AppState>, viewer: MaybeUser) -> ApiResult<HttpResponse> {
    let me = viewer
        .0
        .ok_or_else(|| ApiError::unauthorized(MSG_SIGN_IN_REQUIRED))?;
    let count = posts::count(&state.db, doc! { "author": me.user.id }).await?;
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
    let filter = following_filter(&state.db, &me).await?;
    let count = posts::count(&state.db, filter).await?;
    Ok(HttpResponse::Ok().json(json!({ "count": count })))
}
