//! `PATCH /api/bannerNotification/deactivate/{id}` (administrators) → {message, data}: switches a
//! banner off for everyone (`broadcastNotificationDeactivated(id)`).

use actix_web::{web, HttpResponse};

use super::banner_id;
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::services::banners::{self, BannerView};
use crate::state::AppState;

pub const MSG_DEACTIVATED: &str = "Notification deactivated";

/// `{message, data}`: the banner after it was turned off.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct BannerDeactivatedAnswer {
    message: &'static str,
    data: BannerView,
}

#[tracing::instrument(skip(state, admin))]
pub async fn deactivate(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = banner_id(&id)?;
    let banner = banners::deactivate(&state, &admin.0, id).await?;
    Ok(HttpResponse::Ok().json(BannerDeactivatedAnswer {
        message: MSG_DEACTIVATED,
        data: banner,
    }))
}
