//! `GET /api/post/bookmark-status/{postId}` → {liked, bookmarked, likesCount, bookmarksCount}
//! for the signed-in caller.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::engagement::{marks_of, readable_post};
use crate::state::AppState;

/// `{postId, liked, bookmarked, likesCount, bookmarksCount}`: the caller's marks on a post.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarksAnswer {
    post_id: String,
    liked: bool,
    bookmarked: bool,
    likes_count: i64,
    bookmarks_count: i64,
}

#[tracing::instrument(skip(state, me))]
pub async fn bookmark_status(
    state: web::Data<AppState>,
    me: AuthUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let post = readable_post(&state, &post_id, Some(&me)).await?;
    let (liked, bookmarked) = marks_of(&state, &me, &post).await?;
    Ok(HttpResponse::Ok().json(MarksAnswer {
        post_id: post.id.to_hex(),
        liked,
        bookmarked,
        likes_count: post.likes_count.max(0),
        bookmarks_count: post.bookmarks_count.max(0),
    }))
}
