//! Where people are: a user's shared location (from their device or their address), the
//! administrators' list of everyone's, and the followers' map; each place shown with its user
//! and whether they are online. The live map is told through the locations actor.

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::ApiResult;
use crate::geoip::IpPlace;
use crate::live::locations::{place_name, Update};
use crate::persistence::locations::{self, Coordinates, Source, UserLocation};
use crate::persistence::{now, users};
use crate::post_view::iso;
use crate::services::people::UserRef;
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

fn location_view(l: &UserLocation) -> LocationView {
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

/// A location with who is there and whether they are connected now.
#[derive(Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlacedUser {
    #[serde(flatten)]
    pub location: LocationView,
    pub user: Option<UserRef>,
    pub is_online: bool,
}

/// The locations with their users and whether each is online now.
async fn placed(state: &AppState, list: &[UserLocation]) -> ApiResult<Vec<PlacedUser>> {
    let ids: Vec<_> = list.iter().map(|l| l.user_id).collect();
    let found: HashMap<_, _> = users::find_many(&state.db, &ids)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let online = state.realtime.online().await.user_ids;
    Ok(list
        .iter()
        .map(|l| {
            let location = location_view(l);
            PlacedUser {
                is_online: online.contains(&location.user_id),
                location,
                user: found.get(&l.user_id).map(UserRef::from),
            }
        })
        .collect())
}

/// One page of everyone's latest location (the administrators' list) and how many there are.
pub async fn page(state: &AppState, skip: u64, limit: i64) -> ApiResult<(Vec<PlacedUser>, u64)> {
    let (list, total) = locations::list(&state.db, skip, limit).await?;
    Ok((placed(state, &list).await?, total))
}

/// One page of `me`'s followers' latest locations (only those online unless
/// `include_offline`) and how many there are.
pub async fn of_followers(
    state: &AppState,
    me: &crate::auth::AuthUser,
    include_offline: bool,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<PlacedUser>, u64)> {
    let (list, total) =
        crate::services::follows::follower_locations(state, me, include_offline, skip, limit)
            .await?;
    Ok((placed(state, &list).await?, total))
}

/// A place a user's device reported (checked coordinates; names as sent).
pub struct DevicePlace {
    pub lat: f64,
    pub lon: f64,
    pub city: Option<String>,
    pub country: Option<String>,
    pub state: Option<String>,
    pub pincode: Option<String>,
    pub country_code: Option<String>,
}

/// Stores `location` as its user's latest and puts it on the live map.
async fn keep(state: &AppState, location: &UserLocation) -> ApiResult<()> {
    locations::upsert(&state.db, location).await?;
    state.live.locations.do_send(Update {
        location: location.clone(),
        store: false,
    });
    Ok(())
}

/// Saves `user`'s location from their device (it replaces any other) and puts it on the live
/// map.
pub async fn save_from_device(
    state: &AppState,
    user: ObjectId,
    place: DevicePlace,
) -> ApiResult<LocationView> {
    let location = UserLocation {
        user_id: user,
        coordinates: Coordinates {
            lat: place.lat,
            lon: place.lon,
        },
        city: place_name(place.city.as_deref()),
        country: place_name(place.country.as_deref()),
        country_code: place
            .country_code
            .map(|c| c.trim().to_uppercase())
            .filter(|c| c.len() == 2 && c.chars().all(|ch| ch.is_ascii_alphabetic())),
        state: place_name(place.state.as_deref()),
        pincode: place_name(place.pincode.as_deref()),
        source: Source::Device,
        timestamp: now(),
    };
    keep(state, &location).await?;
    Ok(location_view(&location))
}

/// `user`'s location as their address places it: saved (and put on the live map) when the
/// address is known and the user has no location from their device.
pub async fn track_from_address(
    state: &AppState,
    user: ObjectId,
    place: IpPlace,
) -> ApiResult<LocationView> {
    let known = place.is_known();
    let location = UserLocation {
        user_id: user,
        coordinates: Coordinates {
            lat: place.latitude,
            lon: place.longitude,
        },
        city: place.city,
        country: place.country,
        country_code: place.country_code,
        state: place.state,
        pincode: place.pincode,
        source: Source::Ip,
        timestamp: now(),
    };
    if known {
        let existing = locations::find_for_user(&state.db, user).await?;
        if existing.is_none_or(|l| l.source == Source::Ip) {
            keep(state, &location).await?;
        }
    }
    Ok(location_view(&location))
}
