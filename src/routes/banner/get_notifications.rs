//! `GET /api/bannerNotification/get-Notification` → {notifications}: the banners the caller sees
//! now: active, not expired (unless sticky), `global` or in the caller's region, not dismissed by
//! the caller. Guests are placed by their address. Answered by the banner actor.
//!
//! `?all=true` (administrators only; others 403) lists every stored banner instead, active or
//! not, of every region, newest first: the administrators' management list.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::auth::{MaybeUser, MSG_ADMIN_ONLY};
use crate::error::{ApiError, ApiResult};
use crate::net::client_ip;
use crate::services::banners;
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BannerQuery {
    #[serde(default)]
    all: Option<String>,
}

#[tracing::instrument(skip_all)]
pub async fn get_notifications(
    state: web::Data<AppState>,
    req: HttpRequest,
    user: MaybeUser,
    query: web::Query<BannerQuery>,
) -> ApiResult<HttpResponse> {
    if query.all.as_deref().map(str::trim) == Some("true") {
        if !user.0.as_ref().is_some_and(|u| u.is_admin()) {
            return Err(match user.0 {
                Some(_) => ApiError::forbidden(MSG_ADMIN_ONLY),
                None => ApiError::unauthorized(crate::auth::MSG_NOT_SIGNED_IN),
            });
        }
        return Ok(HttpResponse::Ok().json(banners::all(&state).await?));
    }
    let place = state
        .live
        .geoip
        .locate(client_ip(&req, &state.trusted_proxies));
    Ok(HttpResponse::Ok().json(banners::visible(&state, user.0.as_ref(), &place).await?))
}
