//! `PATCH /api/bannerNotification/dismiss/{id}` → {message, id}: the caller (any signed-in user)
//! stops seeing a banner; their other tabs hide it too (`broadcastNotificationDismissed(id)`).

use actix_web::{web, HttpResponse};

use super::banner_id;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::banners::{self, BannerIdAnswer};
use crate::state::AppState;

pub const MSG_DISMISSED: &str = "Notification dismissed";

#[tracing::instrument(skip(state, me))]
pub async fn dismiss(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = banner_id(&id)?;
    banners::dismiss(&state, &me, id).await?;
    Ok(HttpResponse::Ok().json(BannerIdAnswer {
        message: MSG_DISMISSED,
        id: id.to_hex(),
    }))
}
