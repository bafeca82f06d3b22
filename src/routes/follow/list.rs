//! `GET /api/follow/followers?page=1&limit=12&userId` and `GET /api/follow/following?...` →
//! {list, count, page, limit, totalPages}: who follows a user, and whom they follow, newest
//! first; the caller's own lists without `userId`. `count` is the whole list's size. Each item is
//! {_id, name, avatar, isFollowing (whether the caller follows them), followedAt}. Users on
//! either side of a block with the caller are left out; another user's lists across a block are
//! a 403.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use super::{FOLLOW_PAGE_SIZE, MAX_FOLLOW_PAGE_SIZE};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::domain::params::{paging, total_pages};
use crate::error::ApiResult;
use crate::services::follows::{self, FollowEntry, Side};
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct FollowQuery {
    #[serde(default)]
    page: Option<String>,
    #[serde(default)]
    limit: Option<String>,
    #[serde(default)]
    user_id: Option<String>,
}

/// `{list, count, page, limit, totalPages}`: one page of followers or of people followed.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowListAnswer {
    list: Vec<FollowEntry>,
    count: u64,
    page: u64,
    limit: i64,
    total_pages: u64,
}

async fn list(
    state: &AppState,
    me: &AuthUser,
    query: &FollowQuery,
    side: Side,
) -> ApiResult<HttpResponse> {
    let (page, limit) = paging(
        query.page.as_deref(),
        query.limit.as_deref(),
        FOLLOW_PAGE_SIZE,
        MAX_FOLLOW_PAGE_SIZE,
    )?;
    let whose = match query
        .user_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "null" && *s != "undefined")
    {
        Some(raw) => object_id(raw, "userId")?,
        None => me.user.id,
    };
    let (items, total) = follows::list(state, me, whose, side, page, limit).await?;
    Ok(HttpResponse::Ok().json(FollowListAnswer {
        list: items,
        count: total,
        page,
        limit,
        total_pages: total_pages(total, limit),
    }))
}

#[tracing::instrument(skip(state, me))]
pub async fn followers(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<FollowQuery>,
) -> ApiResult<HttpResponse> {
    list(&state, &me, &query, Side::Followers).await
}

#[tracing::instrument(skip(state, me))]
pub async fn following(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<FollowQuery>,
) -> ApiResult<HttpResponse> {
    list(&state, &me, &query, Side::Following).await
}
