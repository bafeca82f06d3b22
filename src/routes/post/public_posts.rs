//! `GET /api/post/public/posts?limit=12&tag&category&after&page` → {posts, total, page}: the public
//! feed, newest first; `tag` serves the /tag/{tag} page and `category` (id or slug) the category
//! page.

use actix_web::{web, HttpResponse};

use super::ListAnswer;
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::services::feed::{self, Feed};
use crate::services::posts::SortKind;
use crate::services::posts::{ListQuery, DEFAULT_LIMIT};
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn public_posts(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let (page, number) = query.page_request(DEFAULT_LIMIT)?;
    let feed = Feed::Public {
        tag: query.tag(),
        category: query.category_filter(&state).await?,
    };
    let (posts, total) =
        feed::serve(&state, viewer.0.as_ref(), &feed, SortKind::Newest, page).await?;
    Ok(ListAnswer::respond(&posts, total, Some(number)))
}
