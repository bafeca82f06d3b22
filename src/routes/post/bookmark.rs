//! `POST /api/post/bookmark/{postId}` → {bookmarked, bookmarksCount}: toggles the caller's
//! bookmark, safe under simultaneous toggles. A new bookmark tells the author.

use actix_web::{web, HttpRequest, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::engagement::{toggle_mark, BOOKMARK_TOGGLE};
use crate::state::AppState;

/// `{bookmarked, bookmarksCount, postId}`: the caller's bookmark after the toggle.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BookmarkAnswer {
    bookmarked: bool,
    bookmarks_count: i64,
    post_id: String,
}

#[tracing::instrument(skip(state, me, req))]
pub async fn bookmark(
    state: web::Data<AppState>,
    me: AuthUser,
    req: HttpRequest,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    crate::counting::limit_user(
        &state.counting(),
        &req,
        &me,
        crate::ratelimit::Action::Bookmark,
    )
    .await?;
    let toggled = toggle_mark(&state, &me, &post_id, &BOOKMARK_TOGGLE).await?;
    Ok(HttpResponse::Ok().json(BookmarkAnswer {
        bookmarked: toggled.on,
        bookmarks_count: toggled.count,
        post_id: toggled.post_id,
    }))
}
