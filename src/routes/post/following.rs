//! `GET /api/post/following?page=1&limit=50` → {posts, total}: public posts of the authors the
//! caller follows, and the caller's own, newest first. Signed-in users only.

use actix_web::{web, HttpResponse};

use super::ListAnswer;
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::services::feed::{self, Feed};
use crate::services::posts::{ListQuery, SortKind, FOLLOWING_LIMIT, MSG_SIGN_IN_REQUIRED};
use crate::state::AppState;

#[tracing::instrument(skip(state, viewer))]
pub async fn following(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let me = viewer
        .0
        .ok_or_else(|| ApiError::unauthorized(MSG_SIGN_IN_REQUIRED))?;
    let (page, _) = query.page_request(FOLLOWING_LIMIT)?;
    let (posts, total) =
        feed::serve(&state, Some(&me), &Feed::Following, SortKind::Newest, page).await?;
    Ok(ListAnswer::respond(&posts, total, None))
}
