//! `GET /api/post/search-post/search?query&authorId&limit=12&after` → {posts, total}: a literal,
//! case-insensitive match over title, tags and text; at least 3 characters. Others' private,
//! unlisted, draft and blocked posts never appear; a signed-in author also finds their own.

use actix_web::{web, HttpResponse};
use mongodb::bson::{doc, Document};
use serde_json::json;

use super::{list_filter, page_of, ListQuery, DEFAULT_LIMIT};
use crate::auth::{AuthUser, MaybeUser};
use crate::domain::search::SearchQuery;
use crate::error::ApiResult;
use crate::persistence::posts::SortKind;
use crate::persistence::Db;
use crate::state::AppState;

/// The filter of a search: the text, an optional author, and what the viewer may see.
pub async fn search_filter(
    db: &Db,
    viewer: Option<&AuthUser>,
    query: &ListQuery,
) -> ApiResult<Document> {
    let text = SearchQuery::parse(query.query_text())?;
    let mut extra = doc! { "searchText": { "$regex": text.literal_pattern() } };
    if let Some(author) = query.author_id()? {
        extra.insert("author", author);
    }
    list_filter(db, viewer, true, extra).await
}

#[tracing::instrument(skip(state, viewer))]
pub async fn search(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let filter = search_filter(&state.db, viewer.0.as_ref(), &query).await?;
    let (page, _) = query.page_request(DEFAULT_LIMIT)?;
    let (posts, total) =
        page_of(&state.db, viewer.0.as_ref(), filter, SortKind::Newest, page).await?;
    Ok(HttpResponse::Ok().json(json!({ "posts": posts, "total": total })))
}
