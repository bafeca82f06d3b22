//! `POST /api/post/{postId}/share` → {shareCount}: counts a share of a post the caller may read
//! (guests too), once per reader (`crate::counting`) per post per day; crawlers' and the author's
//! own shares are not counted, and shares are rate-limited per reader and per address. Each
//! counted share is recorded for the per-day analytics.

use actix_web::{web, HttpRequest, HttpResponse};

use crate::auth::MaybeUser;
use crate::counting;
use crate::error::{ApiError, ApiResult};
use crate::extract::{optional_body, GuestBody};
use crate::persistence::shares;
use crate::ratelimit::Action;
use crate::services::activity::record_activity;
use crate::services::engagement::readable_post;
use crate::services::posts::MSG_POST_NOT_FOUND;
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
    let own = me.is_some_and(|m| m.user.id == post.author);
    let counts =
        !own && !counting::is_crawler(&req) && shares::claim(&state.db, post.id, &reader).await?;
    if !counts {
        let mut res = HttpResponse::Ok().json(ShareAnswer {
            share_count: post.share_count.max(0),
            post_id: post.id.to_hex(),
        });
        who.apply(&state.settings, &mut res);
        return Ok(res);
    }
    let count = shares::record(&state.db, post.id, &reader, me.map(|m| m.user.id))
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if let Some(me) = me {
        record_activity(
            &state,
            me.user.id,
            "share",
            &format!("Shared \"{}\"", post.title),
            Some(post.id),
            None,
        )
        .await;
    }
    let mut res = HttpResponse::Ok().json(ShareAnswer {
        share_count: count,
        post_id: post.id.to_hex(),
    });
    who.apply(&state.settings, &mut res);
    Ok(res)
}
