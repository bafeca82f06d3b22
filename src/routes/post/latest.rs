//! `GET /api/post/latest-post/latest?limit=12&after` → {posts, total}: the newest public posts.

use actix_web::{web, HttpResponse};
use mongodb::bson::Document;
use serde_json::json;

use super::{list_filter, page_of, ListQuery, DEFAULT_LIMIT};
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::persistence::posts::SortKind;
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn latest(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let (page, _) = query.page_request(DEFAULT_LIMIT)?;
    let filter = list_filter(&state.db, viewer.0.as_ref(), false, Document::new()).await?;
    let (posts, total) =
        page_of(&state.db, viewer.0.as_ref(), filter, SortKind::Newest, page).await?;
    Ok(HttpResponse::Ok().json(json!({ "posts": posts, "total": total })))
}
