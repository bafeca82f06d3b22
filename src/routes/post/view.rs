//! `POST /api/post/view/{slug}` → {views}: counts a view of a post the caller may read, once per
//! reader per 30 minutes (`views::VIEW_WINDOW_MS`). A reader is the signed-in user, else a guest
//! by a server-issued guest id, else the client address (`crate::counting`). Crawlers and the
//! author's own views are not counted; views are rate-limited per reader and per address.
//! Shared with `POST /api/public/post/{slug}/view`.

use actix_web::{web, HttpRequest, HttpResponse};

use crate::auth::{AuthUser, MaybeUser};
use crate::counting::{self, Identified};
use crate::error::{ApiError, ApiResult};
use crate::extract::{optional_body, GuestBody};
use crate::persistence::views;
use crate::ratelimit::Action;
use crate::services::posts::{visible_to, MSG_INVALID_SLUG, MSG_POST_NOT_FOUND};
use crate::state::AppState;

/// `{views}`: the post's count of views after this one.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ViewsAnswer {
    pub views: i64,
}

/// Counts a view of the post with this slug if the reader's window allows; returns the post's
/// view count and who the reader was.
pub async fn track_view(
    state: &AppState,
    req: &HttpRequest,
    me: Option<&AuthUser>,
    slug: &str,
    body: &[u8],
) -> ApiResult<(i64, Identified)> {
    let slug = slug.trim();
    if slug.is_empty() || slug == "undefined" || slug == "null" {
        return Err(ApiError::bad_request(MSG_INVALID_SLUG));
    }
    let body: GuestBody = optional_body(body)?;
    let who = counting::identify(&state.counting(), req, me, body.guest_id.as_deref()).await?;
    state.limiter.engagement(Action::View, &who).await?;
    let post = super::find_by_slug(state, slug)
        .await?
        .filter(|p| visible_to(p, me))
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    let viewer = who.reader.key();
    let own = me.is_some_and(|m| m.user.id == post.author);
    if own || counting::is_crawler(req) || !views::claim(&state.db, post.id, &viewer).await? {
        return Ok((post.views.max(0), who));
    }
    let views = views::record(&state.db, post.id, &viewer, me.map(|m| m.user.id))
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    Ok((views, who))
}

#[tracing::instrument(skip(state, viewer, req, body))]
pub async fn view(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    req: HttpRequest,
    slug: web::Path<String>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let (views, who) = track_view(&state, &req, viewer.0.as_ref(), &slug, &body).await?;
    let mut res = HttpResponse::Ok().json(ViewsAnswer { views });
    who.apply(&state.settings, &mut res);
    Ok(res)
}
