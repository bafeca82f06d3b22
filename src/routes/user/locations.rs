//! `GET /api/user/locations?page&limit` (administrators; limit 12) → {locations, list, total,
//! totalPages, page}: every user's latest location, newest first, with who they are and whether
//! they are online (`isOnline`).

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::routes::paging::PageQuery;
use crate::services::locations::{self, LocationView, PlacedUser, DEFAULT_LIMIT, MAX_LIMIT};
use crate::state::AppState;

/// `{location}`: the caller's location as stored.
#[derive(Serialize, utoipa::ToSchema)]
pub struct LocationAnswer {
    pub location: LocationView,
}

/// `{locations, list, total, totalPages, page}`: one page of locations (`list` repeats
/// `locations` for older clients).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LocationsAnswer {
    pub locations: Vec<PlacedUser>,
    pub list: Vec<PlacedUser>,
    pub total: u64,
    pub total_pages: u64,
    pub page: u64,
}

#[tracing::instrument(skip_all)]
pub async fn locations(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<PageQuery>,
) -> ApiResult<HttpResponse> {
    let (page, limit, skip) = query.resolve(DEFAULT_LIMIT, MAX_LIMIT);
    let (items, total) = locations::page(&state, skip, limit).await?;
    Ok(HttpResponse::Ok().json(LocationsAnswer {
        list: items.clone(),
        locations: items,
        total,
        total_pages: total.div_ceil(limit as u64),
        page,
    }))
}
