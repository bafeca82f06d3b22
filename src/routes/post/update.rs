//! `PATCH /api/post/update/{slug}` → {message, post}: the author or an administrator (others 403).
//! Only the fields sent change; the slug stays, so links keep working. A draft or scheduled post
//! that becomes published takes the current time as its `createdAt`, so it enters the feeds at
//! the top (`services::post_write::update`).

use actix_web::{web, HttpResponse};

use super::input::PostBody;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::post_view::PostView;
use crate::services::post_write;
use crate::services::posts::managed_post;
use crate::state::AppState;

pub const MSG_POST_UPDATED: &str = "Post updated successfully";

/// `{message, post}`: the post as changed.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct PostUpdatedAnswer {
    message: &'static str,
    post: PostView,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn update(
    state: web::Data<AppState>,
    me: AuthUser,
    slug: web::Path<String>,
    body: ApiJson<PostBody>,
) -> ApiResult<HttpResponse> {
    let current = managed_post(super::find_by_slug(&state, slug.trim()).await?, &me)?;
    let input = body.into_inner().input(false)?;
    let (view, _) = post_write::update(&state, &me, current, input, false).await?;
    Ok(HttpResponse::Ok().json(PostUpdatedAnswer {
        message: MSG_POST_UPDATED,
        post: view,
    }))
}
