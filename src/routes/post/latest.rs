//! `GET /api/post/latest-post/latest?limit=12&after` → {posts, total}: the newest public posts.

use actix_web::{web, HttpResponse};

use super::ListAnswer;
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::services::feed::{self, Feed};
use crate::services::posts::SortKind;
use crate::services::posts::{ListQuery, DEFAULT_LIMIT};
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn latest(
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
        feed::serve(&state, viewer.0.as_ref(), &feed, SortKind::Newest, page).await?;
    Ok(ListAnswer::respond(&posts, total, None))
}
