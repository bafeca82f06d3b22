//! `POST /api/post/{postId}/share` → {shareCount}: counts a share of a post the caller may read
//! (guests too), once per reader (`crate::counting`) per post per day; crawlers' and the author's
//! own shares are not counted, and shares are rate-limited per reader and per address. Each
//! counted share is recorded for the per-day analytics.

use actix_web::{web, HttpRequest, HttpResponse};

use crate::auth::MaybeUser;
use crate::counting;
use crate::error::ApiResult;
use crate::extract::{optional_body, GuestBody};
use crate::ratelimit::Action;
use crate::services::engagement::{self, readable_post};
use crate::state::AppState;

/// `{shareCount, postId}`: the post's count of shares after this one.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareAnswer {
    share_count: i64,
    post_id: String,
}

#[tracing::instrument(skip(state, viewer, req, body))]
pub async fn share(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    req: HttpRequest,
    post_id: web::Path<String>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let me = viewer.0.as_ref();
    let body: GuestBody = optional_body(&body)?;
    let who = counting::identify(&state.counting(), &req, me, body.guest_id.as_deref()).await?;
    state.limiter.engagement(Action::Share, &who).await?;
    let post = readable_post(&state, &post_id, me).await?;
    let reader = who.reader.key();
    let count = engagement::share(&state, &req, me, &reader, &post).await?;
    let mut res = HttpResponse::Ok().json(ShareAnswer {
        share_count: count,
        post_id: post.id.to_hex(),
    });
    who.apply(&state.settings, &mut res);
    Ok(res)
}
