//! `POST /api/public/post/{slug}/view` → {message, views}: the guest form of
//! `POST /api/post/view/{slug}`, sharing its 30-minute window per viewer.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;

use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::extract::{optional_body, GuestBody};
use crate::services::engagement::track_view;
use crate::state::AppState;

pub const MSG_VIEW_TRACKED: &str = "View tracked";

/// `{message, views}`: the post's count of views after this one.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ViewTrackedAnswer {
    message: &'static str,
    views: i64,
}

#[tracing::instrument(skip(state, viewer, req, body))]
pub async fn view(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    req: HttpRequest,
    slug: web::Path<String>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let body: GuestBody = optional_body(&body)?;
    let guest = body.guest_id.as_deref();
    let (views, who) = track_view(&state, &req, viewer.0.as_ref(), &slug, guest).await?;
    let mut res = HttpResponse::Ok().json(ViewTrackedAnswer {
        message: MSG_VIEW_TRACKED,
        views,
    });
    who.apply(&state.settings, &mut res);
    Ok(res)
}
