//! `POST /api/post/post-create` → 201 {post}. Blocks must be a non-empty array ('Blocks are
//! required'); `blob:` addresses are refused; data-URL images are stored in the media store; the
//! slug comes from the title, with `-2`, `-3`... when it is taken (`services::post_write`).

use actix_web::{web, HttpResponse};

use super::input::PostBody;
use super::PostAnswer;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::services::post_write;
use crate::state::AppState;

#[tracing::instrument(skip_all, fields(author = %me.user.id))]
pub async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<PostBody>,
) -> ApiResult<HttpResponse> {
    let input = body.into_inner().input(true)?;
    let view = post_write::create(&state, &me, input).await?;
    Ok(HttpResponse::Created().json(PostAnswer::of(&view)?))
}
