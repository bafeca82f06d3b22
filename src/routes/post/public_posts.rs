//! `GET /api/post/public/posts?limit=12&tag&category&after&page` → {posts, total, page}: the public
//! feed, newest first; `tag` serves the /tag/{tag} page and `category` (id or slug) the category
//! page.

use actix_web::{web, HttpResponse};
use mongodb::bson::Document;
use serde_json::json;

use super::{list_filter, page_of, ListQuery, DEFAULT_LIMIT};
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::persistence::posts::SortKind;
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn public_posts(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let (page, number) = query.page_request(DEFAULT_LIMIT)?;
    let mut extra = Document::new();
    if let Some(tag) = query.tag() {
        extra.insert("tags", tag);
    }
    if let Some(category) = query.category_filter(&state.db).await? {
        extra.insert("category", category);
    }
    let filter = list_filter(&state.db, viewer.0.as_ref(), false, extra).await?;
    let (posts, total) =
        page_of(&state.db, viewer.0.as_ref(), filter, SortKind::Newest, page).await?;
    Ok(HttpResponse::Ok().json(json!({ "posts": posts, "total": total, "page": number })))
}
