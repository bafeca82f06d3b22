//! `GET /api/public/search-posts?query&page=1&limit=12` → {posts, total, page}: search as a guest
//! sees it (public posts only), at least 3 characters; the rules of `post::search`.

use actix_web::{web, HttpResponse};

use crate::error::ApiResult;
use crate::routes::post::search::search_page;
use crate::routes::post::ListAnswer;
use crate::services::posts::{ListQuery, DEFAULT_LIMIT};
use crate::state::AppState;

#[tracing::instrument(skip(state))]
pub async fn search_posts(
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let (page, number) = query.page_request(DEFAULT_LIMIT)?;
    let (posts, total) = search_page(&state, None, &query, page).await?;
    Ok(ListAnswer::respond(&posts, total, Some(number)))
}
