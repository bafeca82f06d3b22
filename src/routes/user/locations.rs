//! `GET /api/user/locations?page&limit` (administrators; limit 12) → {locations, list, total,
//! totalPages, page}: every user's latest location, newest first, with who they are and whether
//! they are online (`isOnline`).

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use serde::Serialize;

use super::{iso, UserRef};
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::locations::{self, Source, UserLocation};
use crate::persistence::users;
use crate::routes::paging::PageQuery;
use crate::state::AppState;

/// Default page size of location lists (seed 000 §9).
pub const DEFAULT_LIMIT: i64 = 12;
/// Largest page.
pub const MAX_LIMIT: i64 = 500;

/// Latitude and longitude in degrees.
#[derive(Clone, Serialize, utoipa::ToSchema)]
pub struct CoordinatesView {
    pub lat: f64,
    pub lon: f64,
}

/// A location as clients see it (seed 000 §3 "User location").
#[derive(Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LocationView {
    pub user_id: String,
    pub coordinates: CoordinatesView,
    pub city: String,
    pub country: String,
    pub country_code: Option<String>,
    pub state: String,
    pub pincode: String,
    pub source: Source,
    pub timestamp: String,
}

pub fn location_view(l: &UserLocation) -> LocationView {
    LocationView {
        user_id: l.user_id.to_hex(),
        coordinates: CoordinatesView {
            lat: l.coordinates.lat,
            lon: l.coordinates.lon,
        },
        city: l.city.clone(),
        country: l.country.clone(),
        country_code: l.country_code.clone(),
        state: l.state.clone(),
        pincode: l.pincode.clone(),
        source: l.source,
        timestamp: iso(l.timestamp),
    }
}

/// `{location}`: the caller's location as stored.
#[derive(Serialize, utoipa::ToSchema)]
pub struct LocationAnswer {
    pub location: LocationView,
}

/// A location with who is there and whether they are connected now.
#[derive(Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlacedUser {
    #[serde(flatten)]
    pub location: LocationView,
    pub user: Option<UserRef>,
    pub is_online: bool,
}

/// Each location with its user (`null` when the account is gone), not yet marked online.
pub async fn with_users(state: &AppState, list: &[UserLocation]) -> ApiResult<Vec<PlacedUser>> {
    let ids: Vec<_> = list.iter().map(|l| l.user_id).collect();
    let found: HashMap<_, _> = users::find_many(&state.db, &ids)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    Ok(list
        .iter()
        .map(|l| PlacedUser {
            location: location_view(l),
            user: found.get(&l.user_id).map(UserRef::from),
            is_online: false,
        })
        .collect())
}

/// Sets `isOnline` on each location from presence.
pub async fn mark_online(state: &AppState, items: &mut [PlacedUser]) {
    let online = state.realtime.online().await.user_ids;
    for item in items {
        item.is_online = online.contains(&item.location.user_id);
    }
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
    let (list, total) = locations::list(&state.db, skip, limit).await?;
    let mut items = with_users(&state, &list).await?;
    mark_online(&state, &mut items).await;
    Ok(HttpResponse::Ok().json(LocationsAnswer {
        list: items.clone(),
        locations: items,
        total,
        total_pages: total.div_ceil(limit as u64),
        page,
    }))
}
