//! `DELETE /api/post/delete/{postId}` → {message, postId}: the author or an administrator (others
//! 403; a post the caller cannot read 404). `services::deletion::delete_post` is the one way a post is deleted: the
//! author's delete, the administrators' (`DELETE /api/admin/posts/{id}`) and the removal of an
//! account all go through it.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::services::deletion::{delete_managed, PostDeletedAnswer};
use crate::state::AppState;

#[tracing::instrument(skip(state, me))]
pub async fn delete(
    state: web::Data<AppState>,
    me: AuthUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&post_id, "post id")?;
    delete_managed(&state, &me, id, "post/delete").await?;
    Ok(HttpResponse::Ok().json(PostDeletedAnswer::of(id)))
}
