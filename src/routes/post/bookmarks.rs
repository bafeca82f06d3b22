//! `GET /api/post/get-post/bookmarks` → {posts}: the caller's bookmarked posts, most recently
//! bookmarked first (at most `bookmarks::MAX_LISTED`). Posts they can no longer find in lists
//! (deleted, private, blocked, or by a user on either side of a block) are left out.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::feed;
use crate::state::AppState;

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn bookmarked_posts(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let posts = feed::bookmarked(&state, &me).await?;
    Ok(super::PostsAnswer::respond(&posts))
}
