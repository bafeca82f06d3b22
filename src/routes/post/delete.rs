//! `DELETE /api/post/delete/{postId}` → {message, postId}: the author or an administrator (others
//! 403; a post the caller cannot read 404). [`delete_post`] is the one way a post is deleted: the
//! author's delete, the administrators' (`DELETE /api/admin/posts/{id}`) and the removal of an
//! account all go through it.

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::audit;
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::posts::{self};
use crate::services::posts::{managed_post, MSG_POST_NOT_FOUND};
use crate::state::AppState;

use crate::services::deletion::{delete_post, PostDeletedAnswer};

#[tracing::instrument(skip(state, me))]
pub async fn delete(
    state: web::Data<AppState>,
    me: AuthUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&post_id, "post id")?;
    let post = managed_post(posts::find_by_id(&state.db, id).await?, &me)?;
    delete_post(&state, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if post.author != me.user.id {
        audit::record(
            &state,
            &me,
            audit::Action::PostDelete,
            audit::Target::post(&post),
            json!({ "route": "post/delete" }),
        )
        .await;
    }
    Ok(HttpResponse::Ok().json(PostDeletedAnswer::of(id)))
}
