//! `GET /api/post/get-post/bookmarks` → {posts}: the caller's bookmarked posts, most recently
//! bookmarked first (at most `bookmarks::MAX_LISTED`). Posts they can no longer find in lists
//! (deleted, private, blocked, or by a user on either side of a block) are left out.

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use mongodb::bson::doc;
use serde_json::json;

use super::{list_filter, render};
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::bookmarks;
use crate::persistence::posts::{self, PageRequest, SortKind};
use crate::state::AppState;

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn bookmarked_posts(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let ids = bookmarks::post_ids_of(&state.db, me.user.id).await?;
    if ids.is_empty() {
        return Ok(HttpResponse::Ok().json(json!({ "posts": [] })));
    }
    let filter = list_filter(&state.db, Some(&me), true, doc! { "_id": { "$in": &ids } }).await?;
    let page = PageRequest {
        limit: i64::try_from(ids.len()).unwrap_or(bookmarks::MAX_LISTED),
        ..PageRequest::default()
    };
    let mut found = posts::list(&state.db, filter, SortKind::Newest, page).await?;
    let order: HashMap<_, _> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    found.sort_by_key(|p| order.get(&p.id).copied().unwrap_or(usize::MAX));
    let mut posts = render(&state.db, found).await?;
    super::unlock_for(&state.db, Some(&me), &mut posts).await?;
    Ok(HttpResponse::Ok().json(json!({ "posts": posts })))
}
