//! `GET /api/post/search-post/search?query&authorId&limit=12&after` → {posts, total}: posts
//! matching the text in their title, tags or text (case-insensitive; its words in order, the last
//! one possibly cut short; every other character literally), best first (relevance, then the
//! newest); at least 3 characters. Others' private, unlisted, draft and blocked posts never
//! appear; a signed-in author also finds their own. Served by the search index, or, while it is
//! not ready, by a literal match in the database (newest first).

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde_json::value::RawValue;

use super::ListAnswer;
use crate::auth::{AuthUser, MaybeUser};
use crate::domain::search::SearchQuery;
use crate::error::ApiResult;
use crate::feeds::cards::ReadError;
use crate::search::PostScope;
use crate::services::feed::search_from_db;
use crate::services::posts::PageRequest;
use crate::services::posts::{ListQuery, DEFAULT_LIMIT};
use crate::state::AppState;

/// One page of a search and the number of matches, for a viewer (`None`: as a guest sees it).
pub async fn search_page(
    state: &AppState,
    viewer: Option<&AuthUser>,
    query: &ListQuery,
    page: PageRequest,
) -> ApiResult<(Vec<Box<RawValue>>, u64)> {
    let text = SearchQuery::parse(query.query_text())?;
    let author = query.author_id()?;
    match from_index(state, viewer, &text, author, page).await {
        Ok(Some(found)) => return Ok(found),
        Ok(None) | Err(ReadError::Index(_)) => {}
        Err(ReadError::Db(e)) => return Err(e.into()),
    }
    search_from_db(&state.db, viewer, &text, author, page).await
}

/// The search index's answer (`None`: it is not ready).
async fn from_index(
    state: &AppState,
    viewer: Option<&AuthUser>,
    text: &SearchQuery,
    author: Option<ObjectId>,
    page: PageRequest,
) -> Result<Option<(Vec<Box<RawValue>>, u64)>, ReadError> {
    let Some(gen) = state.feeds.current() else {
        return Ok(None);
    };
    if !state.search.posts_ready() {
        return Ok(None);
    }
    let me = viewer.map(|v| v.user.id);
    let hidden = match me {
        Some(me) => state
            .feeds
            .viewer_graph(&gen, me, false)
            .await?
            .hidden
            .into_iter()
            .collect(),
        None => Vec::new(),
    };
    let scope = PostScope {
        viewer: me,
        hidden,
        author,
    };
    let Ok(hits) = state.search.posts(text.as_str(), scope, page).await else {
        return Ok(None);
    };
    let posts = state.feeds.render(&gen, &hits.ids).await?;
    let posts = super::unlock_raw(state, &gen, viewer, posts).await?;
    Ok(Some((posts, hits.total)))
}

#[tracing::instrument(skip(state, viewer))]
pub async fn search(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let (page, _) = query.page_request(DEFAULT_LIMIT)?;
    let (posts, total) = search_page(&state, viewer.0.as_ref(), &query, page).await?;
    Ok(ListAnswer::respond(&posts, total, None))
}
