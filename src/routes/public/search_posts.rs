//! `GET /api/public/search-posts?query&page=1&limit=12` → {posts, total, page}: search as a guest
//! sees it (public posts only), at least 3 characters.

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::error::ApiResult;
use crate::persistence::posts::SortKind;
use crate::routes::post::search::search_filter;
use crate::routes::post::{page_of, ListQuery, DEFAULT_LIMIT};
use crate::state::AppState;

#[tracing::instrument(skip(state))]
pub async fn search_posts(
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let filter = search_filter(&state.db, None, &query).await?;
    let (page, number) = query.page_request(DEFAULT_LIMIT)?;
    let (posts, total) = page_of(&state.db, None, filter, SortKind::Newest, page).await?;
    Ok(HttpResponse::Ok().json(json!({ "posts": posts, "total": total, "page": number })))
}
