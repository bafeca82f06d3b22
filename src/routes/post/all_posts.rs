//! `GET /api/post/all-post?page&limit=12&after&authorId&authorIds&category` → {posts, total}:
//! signed-in users only ('You must be signed in to access this feature.'). With
//! `authorId`/`authorIds`, the posts of those authors; the caller's own posts of every status when
//! they ask for themselves.

use actix_web::{web, HttpResponse};

use super::ListAnswer;
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::services::feed::{self, Feed};
use crate::services::posts::SortKind;
use crate::services::posts::{ListQuery, DEFAULT_LIMIT, MSG_SIGN_IN_REQUIRED};
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn all_posts(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let me = viewer
        .0
        .ok_or_else(|| ApiError::unauthorized(MSG_SIGN_IN_REQUIRED))?;
    let (page, _) = query.page_request(DEFAULT_LIMIT)?;
    let mut authors = query.author_ids()?;
    if let Some(a) = query.author_id()? {
        authors.push(a);
    }
    let category = query.category_filter(&state).await?;
    let feed = if authors.is_empty() {
        Feed::Public {
            tag: None,
            category,
        }
    } else {
        Feed::Authors { authors, category }
    };
    let (posts, total) = feed::serve(&state, Some(&me), &feed, SortKind::Newest, page).await?;
    Ok(ListAnswer::respond(&posts, total, None))
}
