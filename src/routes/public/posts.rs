//! `GET /api/public/posts?page=1&limit=12` → {posts, total, page}: the public feed, newest first
//! (`after` works here too).

use actix_web::{web, HttpResponse};
use mongodb::bson::Document;
use serde_json::json;

use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::persistence::posts::SortKind;
use crate::routes::post::{list_filter, page_of, ListQuery, DEFAULT_LIMIT};
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn posts(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let (page, number) = query.page_request(DEFAULT_LIMIT)?;
    let mut extra = Document::new();
    if let Some(tag) = query.tag() {
        extra.insert("tags", tag);
    }
    let filter = list_filter(&state.db, viewer.0.as_ref(), false, extra).await?;
    let (posts, total) =
        page_of(&state.db, viewer.0.as_ref(), filter, SortKind::Newest, page).await?;
    Ok(HttpResponse::Ok().json(json!({ "posts": posts, "total": total, "page": number })))
}
