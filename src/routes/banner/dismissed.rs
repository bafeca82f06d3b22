//! `GET /api/bannerNotification/dismissed/{id}` → {dismissed}: whether the caller dismissed a
//! banner. Administrators get a 403, as the spec says (they manage banners, they do not dismiss
//! them in the admin view).

use actix_web::{web, HttpResponse};

use super::banner_id;
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::services::banners;
use crate::state::AppState;

pub const MSG_ADMIN_NO_STATUS: &str = "Administrators have no banner dismissal status";

/// `{dismissed}`: whether the caller dismissed the banner.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct DismissedAnswer {
    dismissed: bool,
}

#[tracing::instrument(skip(state, me))]
pub async fn dismissed(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    if me.is_admin() {
        return Err(ApiError::forbidden(MSG_ADMIN_NO_STATUS));
    }
    let id = banner_id(&id)?;
    Ok(HttpResponse::Ok().json(DismissedAnswer {
        dismissed: banners::dismissed_by(&state, &me, id).await?,
    }))
}
