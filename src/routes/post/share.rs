//! `POST /api/post/{postId}/share` → {shareCount}: counts a share of a post the caller may read
//! (guests too). Each share is recorded for the per-day analytics.

use actix_web::{web, HttpResponse};

use super::like::readable_post;
use super::MSG_POST_NOT_FOUND;
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::shares;
use crate::routes::user::activity::record_activity;
use crate::state::AppState;

/// `{shareCount, postId}`: the post's count of shares after this one.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareAnswer {
    share_count: i64,
    post_id: String,
}

#[tracing::instrument(skip(state, viewer))]
pub async fn share(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let me = viewer.0.as_ref();
    let post = readable_post(&state, &post_id, me).await?;
    let count = shares::record(&state.db, post.id, me.map(|m| m.user.id))
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
    Ok(HttpResponse::Ok().json(ShareAnswer {
        share_count: count,
        post_id: post.id.to_hex(),
    }))
}
