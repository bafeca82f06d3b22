//! `POST /api/user/track-ip-location` → {location}: places the caller by their address and, when
//! the address is known and they have no device location yet, stores it as their location (a
//! coarse IP guess never replaces a device fix).

use actix_web::{web, HttpRequest, HttpResponse};

use super::locations::LocationAnswer;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::net::client_ip;
use crate::services::locations;
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
    let location = locations::track_from_address(&state, me.user.id, place).await?;
    Ok(HttpResponse::Ok().json(LocationAnswer { location }))
}
