//! `GET /api/bannerNotification/get-Notification` → {notifications}: the banners the caller sees
//! now: active, not expired (unless sticky), `global` or in the caller's region, not dismissed by
//! the caller. Guests are placed by their address. Answered by the banner actor.
//!
//! `?all=true` (administrators only; others 403) lists every stored banner instead, active or
//! not, of every region, newest first: the administrators' management list.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::{caller_regions, view, BannersAnswer, Viewer};
use crate::auth::{MaybeUser, MSG_ADMIN_ONLY};
use crate::error::{ApiError, ApiResult};
use crate::live::banners::{self as actor, Visible};
use crate::net::client_ip;
use crate::persistence::{banners, now};
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
        let all = banners::list_all(&state.db).await?;
        let notifications = all.iter().map(|b| view(b, Viewer::Admin)).collect();
        return Ok(HttpResponse::Ok().json(BannersAnswer { notifications }));
    }
    let place = state
        .live
        .geoip
        .locate(client_ip(&req, &state.trusted_proxies));
    let me = user.0.as_ref().map(|u| &u.user);
    let regions = caller_regions(me, &place);
    let viewer = match &user.0 {
        Some(u) if u.is_admin() => Viewer::Admin,
        Some(u) => Viewer::User(u.user.id),
        None => Viewer::Guest,
    };
    let asked = state
        .live
        .banners
        .send(Visible {
            user: me.map(|u| u.id),
            regions: regions.clone(),
        })
        .await
        .map_err(|e| ApiError::internal(anyhow::anyhow!("banner actor: {e}")))?;
    let seen = match asked {
        Some(seen) => seen,
        // Not loaded yet: read the database this once.
        None => {
            let all = banners::list_active(&state.db).await?;
            actor::visible(&all, me.map(|u| u.id), &regions, now())
        }
    };
    let notifications = seen.iter().map(|b| view(b, viewer)).collect();
    Ok(HttpResponse::Ok().json(BannersAnswer { notifications }))
}
