//! `GET /api/post/bookmark-status/{postId}` → {liked, bookmarked, likesCount, bookmarksCount}
//! for the signed-in caller.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::like::readable_post;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::{bookmarks, likes};
use crate::state::AppState;

#[tracing::instrument(skip(state, me))]
pub async fn bookmark_status(
    state: web::Data<AppState>,
    me: AuthUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let post = readable_post(&state, &post_id, Some(&me)).await?;
    let liked = likes::exists(&state.db, me.user.id, post.id).await?;
    let bookmarked = bookmarks::exists(&state.db, me.user.id, post.id).await?;
    Ok(HttpResponse::Ok().json(json!({
        "postId": post.id.to_hex(),
        "liked": liked,
        "bookmarked": bookmarked,
        "likesCount": post.likes_count.max(0),
        "bookmarksCount": post.bookmarks_count.max(0),
    })))
}
