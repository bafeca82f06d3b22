//! `PATCH /api/bannerNotification/dismiss/{id}` → {message, id}: the caller (any signed-in user)
//! stops seeing a banner; their other tabs hide it too (`broadcastNotificationDismissed(id)`).

use actix_web::{web, HttpResponse};

use super::{banner_id, MSG_NOT_FOUND};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::live::{self, banners::Dismissed};
use crate::persistence::banners;
use crate::state::AppState;

pub const MSG_DISMISSED: &str = "Notification dismissed";

#[tracing::instrument(skip(state, me))]
pub async fn dismiss(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = banner_id(&id)?;
    banners::dismiss(&state.db, id, me.user.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    state.live.banners.do_send(Dismissed {
        id,
        user: me.user.id,
    });
    live::banner_dismissed(&state.realtime, &me.id_hex(), &id.to_hex());
    Ok(HttpResponse::Ok().json(super::BannerIdAnswer {
        message: MSG_DISMISSED,
        id: id.to_hex(),
    }))
}
