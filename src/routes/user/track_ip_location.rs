//! `POST /api/user/track-ip-location` → {location}: places the caller by their address and, when
//! the address is known and they have no device location yet, stores it as their location (a
//! coarse IP guess never replaces a device fix).

use actix_web::{web, HttpRequest, HttpResponse};

use super::locations::{location_view, LocationAnswer};
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::live::locations::Update;
use crate::net::client_ip;
use crate::persistence::locations::{self, Coordinates, Source, UserLocation};
use crate::persistence::now;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn track_ip_location(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
) -> ApiResult<HttpResponse> {
    let place = state
        .live
        .geoip
        .locate(client_ip(&req, &state.trusted_proxies));
    let location = UserLocation {
        user_id: me.user.id,
        coordinates: Coordinates {
            lat: place.latitude,
            lon: place.longitude,
        },
        city: place.city.clone(),
        country: place.country.clone(),
        country_code: place.country_code.clone(),
        state: place.state.clone(),
        pincode: place.pincode.clone(),
        source: Source::Ip,
        timestamp: now(),
    };
    if place.is_known() {
        let existing = locations::find_for_user(&state.db, me.user.id).await?;
        if existing.is_none_or(|l| l.source == Source::Ip) {
            locations::upsert(&state.db, &location).await?;
            state.live.locations.do_send(Update {
                location: location.clone(),
                store: false,
            });
        }
    }
    Ok(HttpResponse::Ok().json(LocationAnswer {
        location: location_view(&location),
    }))
}
