//! `POST /api/post/view/{slug}` → {views}: counts a view of a post the caller may read, once per
//! reader per 30 minutes (`views::VIEW_WINDOW_MS`). A reader is the signed-in user, else a guest
//! by a server-issued guest id, else the client address (`crate::counting`). Crawlers and the
//! author's own views are not counted; views are rate-limited per reader and per address.
//! Shared with `POST /api/public/post/{slug}/view`.

use actix_web::{web, HttpRequest, HttpResponse};

use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::extract::{optional_body, GuestBody};
use crate::services::engagement::track_view;
use crate::state::AppState;

/// `{views}`: the post's count of views after this one.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ViewsAnswer {
    pub views: i64,
}

/// Counts a view of the post with this slug if the reader's window allows; returns the post's
/// view count and who the reader was.
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
    let mut res = HttpResponse::Ok().json(ViewsAnswer { views });
    who.apply(&state.settings, &mut res);
    Ok(res)
}
