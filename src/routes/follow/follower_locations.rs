//! `GET /api/follow/follower-locations?page&limit&includeOffline` (limit 12, includeOffline true)
//! → {list, total, totalPages, page}: the latest locations of the caller's followers (only those
//! who shared one), newest first, each with `isOnline`. `includeOffline=false` keeps the online
//! ones only.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::routes::paging::PageQuery;
use crate::services::locations::{self, PlacedUser, DEFAULT_LIMIT, MAX_LIMIT};
use crate::state::AppState;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct FollowerLocationsQuery {
    page: Option<i64>,
    limit: Option<i64>,
    include_offline: Option<bool>,
}

/// `{list, total, totalPages, page}`: one page of the followers' locations.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowerLocationsAnswer {
    list: Vec<PlacedUser>,
    total: u64,
    total_pages: u64,
    page: u64,
}

#[tracing::instrument(skip_all)]
pub async fn follower_locations(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<FollowerLocationsQuery>,
) -> ApiResult<HttpResponse> {
    let query = query.into_inner();
    let (page, limit, skip) = PageQuery {
        page: query.page,
        limit: query.limit,
    }
    .resolve(DEFAULT_LIMIT, MAX_LIMIT);
    let include_offline = query.include_offline.unwrap_or(true);
    let (items, total) = locations::of_followers(&state, &me, include_offline, skip, limit).await?;
    Ok(HttpResponse::Ok().json(FollowerLocationsAnswer {
        list: items,
        total,
        total_pages: total.div_ceil(limit as u64),
        page,
    }))
}
