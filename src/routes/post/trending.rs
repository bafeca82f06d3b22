//! `GET /api/post/trending-post/trending?limit=12&after` → {posts, total}: public posts by their
//! stored trending score (refreshed by a background job). `after` (with optional `afterId`) is the
//! createdAt of the last post received; the page continues after that post in score order.

use actix_web::{web, HttpResponse};
use mongodb::bson::Document;
use serde_json::json;

use super::{list_filter, page_of, ListQuery, DEFAULT_LIMIT};
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::persistence::posts::SortKind;
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn trending(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let (page, _) = query.page_request(DEFAULT_LIMIT)?;
    let filter = list_filter(&state.db, viewer.0.as_ref(), false, Document::new()).await?;
    let (posts, total) = page_of(
        &state.db,
        viewer.0.as_ref(),
        filter,
        SortKind::Trending,
        page,
    )
    .await?;
    Ok(HttpResponse::Ok().json(json!({ "posts": posts, "total": total })))
}
