//! `POST /api/post/bookmark/{postId}` → {bookmarked, bookmarksCount}: toggles the caller's
//! bookmark, safe under simultaneous toggles. A new bookmark tells the author.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::like::{ensure_may_engage, readable_post, tell_user};
use super::MSG_POST_NOT_FOUND;
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::bookmarks;
use crate::persistence::notifications::Kind;
use crate::routes::user::activity::record_activity;
use crate::state::AppState;

#[tracing::instrument(skip(state, me))]
pub async fn bookmark(
    state: web::Data<AppState>,
    me: AuthUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let post = readable_post(&state, &post_id, Some(&me)).await?;
    if !bookmarks::exists(&state.db, me.user.id, post.id).await? {
        ensure_may_engage(&state, &me, &post).await?;
    }
    let toggled = bookmarks::toggle(&state.db, me.user.id, post.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if toggled.changed && toggled.on {
        record_activity(
            &state,
            me.user.id,
            "bookmark",
            &format!("Bookmarked \"{}\"", post.title),
            Some(post.id),
            None,
        )
        .await;
        tell_user(&state, &me, post.author, Kind::Bookmark, &post, "").await;
    }
    Ok(HttpResponse::Ok().json(json!({
        "bookmarked": toggled.on,
        "bookmarksCount": toggled.count.max(0),
        "postId": post.id.to_hex(),
    })))
}
