//! `GET /api/user/ip-location` → {location: {latitude, longitude, city, country, countryCode,
//! state, pincode, userId?, timestamp}}: where the caller's address is, from the local IP
//! database. Guests may ask too (the shell shows their country). Unknown or private addresses
//! give coordinates 0 and `Unknown`.

use actix_web::{web, HttpRequest, HttpResponse};
use serde_json::json;

use super::iso;
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::net::client_ip;
use crate::persistence::now;
use crate::state::AppState;

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
    Ok(HttpResponse::Ok().json(json!({
        "location": {
            "latitude": place.latitude,
            "longitude": place.longitude,
            "city": place.city,
            "country": place.country,
            "countryCode": place.country_code,
            "state": place.state,
            "pincode": place.pincode,
            "userId": user.0.map(|u| u.id_hex()),
            "timestamp": iso(now()),
        }
    })))
}
