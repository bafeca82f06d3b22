//! `GET /api/public/posts?page=1&limit=12` → {posts, total, page}: the public feed, newest first
//! (`after` and `tag` work here too).

use actix_web::{web, HttpResponse};

use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::routes::post::ListAnswer;
use crate::services::feed::{self, Feed, SortKind};
use crate::services::posts::{ListQuery, DEFAULT_LIMIT};
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn posts(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let (page, number) = query.page_request(DEFAULT_LIMIT)?;
    let feed = Feed::Public {
        tag: query.tag(),
        category: None,
    };
    let (posts, total) =
        feed::serve(&state, viewer.0.as_ref(), &feed, SortKind::Newest, page).await?;
    Ok(ListAnswer::respond(&posts, total, Some(number)))
}
