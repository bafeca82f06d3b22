//! `GET /api/post/trending-post/trending?limit=12&after` → {posts, total}: public posts by their
//! stored trending score (refreshed by a background job). `after` (with optional `afterId`) is the
//! createdAt of the last post received; the page continues after that post in score order.

use actix_web::{web, HttpResponse};

use super::ListAnswer;
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::services::feed::{self, Feed};
use crate::services::posts::SortKind;
use crate::services::posts::{ListQuery, DEFAULT_LIMIT};
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn trending(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let (page, _) = query.page_request(DEFAULT_LIMIT)?;
    let feed = Feed::Public {
        tag: None,
        category: None,
    };
    let (posts, total) =
        feed::serve(&state, viewer.0.as_ref(), &feed, SortKind::Trending, page).await?;
    Ok(ListAnswer::respond(&posts, total, None))
}
