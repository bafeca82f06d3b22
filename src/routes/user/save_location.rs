//! `POST /api/user/save-location` {coordinates {lat, lon}, city, country, state, pincode,
//! countryCode?} → {location}: stores the caller's device location and shares it (debounced)
//! with administrators and followers. Without coordinates: 'Invalid location data from IP'.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::locations::LocationAnswer;
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::live::locations::valid_coordinates;
use crate::services::locations::{self, DevicePlace};
use crate::state::AppState;

pub const MSG_INVALID_LOCATION: &str = "Invalid location data from IP";
pub const MSG_BAD_LATITUDE: &str = "Latitude must be a number between -90 and 90";
pub const MSG_BAD_LONGITUDE: &str = "Longitude must be a number between -180 and 180";

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CoordinatesBody {
    lat: Option<f64>,
    lon: Option<f64>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SaveLocationBody {
    coordinates: Option<CoordinatesBody>,
    city: Option<String>,
    country: Option<String>,
    state: Option<String>,
    pincode: Option<String>,
    country_code: Option<String>,
}

#[tracing::instrument(skip_all)]
pub async fn save_location(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<SaveLocationBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let (Some(lat), Some(lon)) = (
        body.coordinates.as_ref().and_then(|c| c.lat),
        body.coordinates.as_ref().and_then(|c| c.lon),
    ) else {
        return Err(ApiError::bad_request(MSG_INVALID_LOCATION));
    };
    if !valid_coordinates(lat, 0.0) {
        return Err(ApiError::bad_request(MSG_BAD_LATITUDE));
    }
    if !valid_coordinates(0.0, lon) {
        return Err(ApiError::bad_request(MSG_BAD_LONGITUDE));
    }
    let place = DevicePlace {
        lat,
        lon,
        city: body.city,
        country: body.country,
        state: body.state,
        pincode: body.pincode,
        country_code: body.country_code,
    };
    let location = locations::save_from_device(&state, me.user.id, place).await?;
    Ok(HttpResponse::Ok().json(LocationAnswer { location }))
}
