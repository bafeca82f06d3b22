//! `POST /api/post/like/{postId}` → {liked, likesCount}: toggles the caller's like. Safe under any
//! number of simultaneous toggles (see `services::engagement::toggle_mark`). A new like tells the author
//! (never oneself, never across a block). What the engagement handlers share is in
//! [`crate::services::engagement`].

use actix_web::{web, HttpRequest, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::engagement::*;
use crate::state::AppState;

/// `{liked, likesCount, postId}`: the caller's like after the toggle.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LikeAnswer {
    liked: bool,
    likes_count: i64,
    post_id: String,
}

#[tracing::instrument(skip(state, me, req))]
pub async fn like(
    state: web::Data<AppState>,
    me: AuthUser,
    req: HttpRequest,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    crate::counting::limit_user(&state.counting(), &req, &me, crate::ratelimit::Action::Like)
        .await?;
    let toggled = toggle_mark(&state, &me, &post_id, &LIKE_TOGGLE).await?;
    Ok(HttpResponse::Ok().json(LikeAnswer {
        liked: toggled.on,
        likes_count: toggled.count,
        post_id: toggled.post_id,
    }))
}
