//! `GET /api/post/get-post/bookmarks` → {posts}: the caller's bookmarked posts, most recently
//! bookmarked first (at most `bookmarks::MAX_LISTED`). Posts they can no longer find in lists
//! (deleted, private, blocked, or by a user on either side of a block) are left out.

use actix_web::{web, HttpResponse};
use serde_json::value::RawValue;

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::feeds::cards::ReadError;
use crate::feeds::read::Filter;
use crate::persistence::bookmarks;
use crate::services::feed::{bookmarked_from_db, to_raw};
use crate::state::AppState;

async fn from_index(state: &AppState, me: &AuthUser) -> Result<Vec<Box<RawValue>>, ReadError> {
    let Some(gen) = state.feeds.current() else {
        return Err(crate::redis_pool::RedisFailure::Down.into());
    };
    let limit = usize::try_from(bookmarks::MAX_LISTED).unwrap_or(500);
    let ids = state.feeds.bookmarked(&gen, me.user.id, limit).await?;
    let graph = state.feeds.viewer_graph(&gen, me.user.id, false).await?;
    let filter = Filter {
        hidden_authors: graph.hidden,
        listable_or_by: Some(me.user.id),
        ..Filter::default()
    };
    let visible = state.feeds.filter_posts(&gen, &ids, &filter).await?;
    let posts = state.feeds.render(&gen, &visible).await?;
    super::unlock_raw(state, &gen, Some(me), posts).await
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn bookmarked_posts(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    match from_index(&state, &me).await {
        Ok(posts) => return Ok(answer(&posts)),
        Err(ReadError::Db(e)) => return Err(e.into()),
        Err(ReadError::Index(_)) => {}
    }
    let posts = bookmarked_from_db(&state.db, &me).await?;
    Ok(answer(&to_raw(&posts)?))
}

fn answer(posts: &[Box<RawValue>]) -> HttpResponse {
    super::PostsAnswer::respond(posts)
}
