//! `GET /api/user/ip-location` → {location: {latitude, longitude, city, country, countryCode,
//! state, pincode, userId?, timestamp}}: where the caller's address is, from the local IP
//! database. Guests may ask too (the shell shows their country). Unknown or private addresses
//! give coordinates 0 and `Unknown`.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;

use super::iso;
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::net::client_ip;
use crate::state::AppState;

/// Where the caller's address places them (`userId` is null for a guest).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IpLocation {
    latitude: f64,
    longitude: f64,
    city: String,
    country: String,
    country_code: Option<String>,
    state: String,
    pincode: String,
    user_id: Option<String>,
    timestamp: String,
}

/// `{location}`: the answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct IpLocationAnswer {
    location: IpLocation,
}

#[tracing::instrument(skip_all)]
pub async fn ip_location(
    state: web::Data<AppState>,
    req: HttpRequest,
    user: MaybeUser,
) -> ApiResult<HttpResponse> {
    let place = state
        .live
        .geoip
        .locate(client_ip(&req, &state.trusted_proxies));
    Ok(HttpResponse::Ok().json(IpLocationAnswer {
        location: IpLocation {
            latitude: place.latitude,
            longitude: place.longitude,
            city: place.city,
            country: place.country,
            country_code: place.country_code,
            state: place.state,
            pincode: place.pincode,
            user_id: user.0.map(|u| u.id_hex()),
            timestamp: iso(mongodb::bson::DateTime::now()),
        },
    }))
}
