//! `GET /api/post/all-post?page&limit=12&after&authorId&authorIds` → {posts, total}: signed-in
//! users only ('You must be signed in to access this feature.'). With `authorId`/`authorIds`, the
//! posts of those authors; the caller's own posts of every status when they ask for themselves.

use actix_web::{web, HttpResponse};
use mongodb::bson::{doc, Document};
use serde_json::json;

use super::{list_filter, page_of, ListQuery, DEFAULT_LIMIT, MSG_SIGN_IN_REQUIRED};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::posts::SortKind;
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
    let mut extra = Document::new();
    if !authors.is_empty() {
        extra.insert("author", doc! { "$in": &authors });
    }
    if let Some(category) = query.category_filter(&state.db).await? {
        extra.insert("category", category);
    }
    let own = authors.contains(&me.user.id);
    let filter = list_filter(&state.db, Some(&me), own, extra).await?;
    let (posts, total) = page_of(&state.db, Some(&me), filter, SortKind::Newest, page).await?;
    Ok(HttpResponse::Ok().json(json!({ "posts": posts, "total": total })))
}
