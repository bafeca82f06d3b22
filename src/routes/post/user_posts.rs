//! `GET /api/post/user/{userId}/posts?limit=12&after&search&sort` → {posts, total}: one author's
//! posts, `sort` newest (default), oldest or popular. The author sees all their posts (drafts,
//! private, blocked); everyone else their public ones.

use actix_web::{web, HttpResponse};

use super::ListAnswer;
use crate::auth::MaybeUser;
use crate::domain::params::object_id;
use crate::domain::search::SearchQuery;
use crate::error::{ApiError, ApiResult};
use crate::services::feed::{self, Feed};
use crate::services::posts::SortKind;
use crate::services::posts::{ListQuery, DEFAULT_LIMIT};
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn user_posts(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    user_id: web::Path<String>,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let author = object_id(&user_id, "user id")?;
    let (page, _) = query.page_request(DEFAULT_LIMIT)?;
    let sort = match query.sort_text() {
        None | Some("newest") => SortKind::Newest,
        Some("oldest") => SortKind::Oldest,
        Some("popular") => SortKind::Popular,
        Some(_) => {
            return Err(ApiError::bad_request(
                "sort must be newest, oldest or popular",
            ))
        }
    };
    let feed = Feed::Author {
        author,
        text: SearchQuery::filter(query.search_text())?,
    };
    let (posts, total) = feed::serve(&state, viewer.0.as_ref(), &feed, sort, page).await?;
    Ok(ListAnswer::respond(&posts, total, None))
}
