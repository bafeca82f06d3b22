//! `GET /api/follow/followers?page=1&limit=12&userId` and `GET /api/follow/following?...` →
//! {list, count, page, limit, totalPages}: who follows a user, and whom they follow, newest
//! first; the caller's own lists without `userId`. `count` is the whole list's size. Each item is
//! {_id, name, avatar, isFollowing (whether the caller follows them), followedAt}. Users on
//! either side of a block with the caller are left out; another user's lists across a block are
//! a 403.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::{Deserialize, Serialize};

use super::{FOLLOW_PAGE_SIZE, MAX_FOLLOW_PAGE_SIZE};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::domain::params::{paging, total_pages};
use crate::error::ApiResult;
use crate::persistence::follows::{self, Side};
use crate::persistence::{graph, user_directory};
use crate::post_view::iso;
use crate::post_view::DELETED_AUTHOR;
use crate::services::engagement::ensure_not_blocked;
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

/// One person of a followers or following list; `isFollowing` says whether the caller follows
/// them, and `alerts` how the caller hears of their new posts (`null` when not following).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowEntry {
    #[serde(rename = "_id")]
    id: String,
    name: String,
    avatar: Option<String>,
    is_following: bool,
    alerts: Option<String>,
    followed_at: String,
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
    ensure_not_blocked(&state.db, me.user.id, whose).await?;
    let hidden = graph::hidden_from(&state.db, me.user.id).await?;
    let skip = (page - 1) * u64::try_from(limit).unwrap_or(0);
    let (edges, total) = follows::page(&state.db, whose, side, &hidden, skip, limit).await?;
    let ids: Vec<ObjectId> = edges.iter().map(|e| e.user).collect();
    let cards = user_directory::authors(&state.db, &ids).await?;
    let mine = follows::alerts_among(&state.db, me.user.id, &ids).await?;
    let items: Vec<_> = edges
        .iter()
        .map(|e| {
            let card = cards.get(&e.user);
            FollowEntry {
                id: e.user.to_hex(),
                name: card.map_or(DELETED_AUTHOR, |c| c.name.as_str()).to_string(),
                avatar: card.and_then(|c| c.avatar.clone()),
                is_following: mine.contains_key(&e.user),
                alerts: mine.get(&e.user).map(|a| a.as_str().to_string()),
                followed_at: iso(e.since),
            }
        })
        .collect();
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
