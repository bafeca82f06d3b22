//! `PATCH /api/bannerNotification/deactivate/{id}` (administrators) → {message, data}: switches a
//! banner off for everyone (`broadcastNotificationDeactivated(id)`).

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{banner_id, view, Viewer, MSG_NOT_FOUND};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::live::{self, banners::Deactivated};
use crate::persistence::banners;
use crate::state::AppState;

pub const MSG_DEACTIVATED: &str = "Notification deactivated";

/// `{message, data}`: the banner after it was turned off.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct BannerDeactivatedAnswer {
    message: &'static str,
    data: super::BannerView,
}

#[tracing::instrument(skip(state, admin))]
pub async fn deactivate(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = banner_id(&id)?;
    let banner = banners::deactivate(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    state.live.banners.do_send(Deactivated(id));
    live::banner_deactivated(&state.realtime, &id.to_hex());
    let target = Target::new("banner", id.to_hex(), banner.title.clone());
    audit::record(
        &state,
        &admin.0,
        Action::BannerDeactivate,
        target,
        json!({}),
    )
    .await;
    Ok(HttpResponse::Ok().json(BannerDeactivatedAnswer {
        message: MSG_DEACTIVATED,
        data: view(&banner, Viewer::Admin),
    }))
}
