//! `DELETE /api/admin/posts/{id}` (administrators) → {message, postId}: deletes any post the way
//! its author's delete does (`services::deletion::delete_post`).

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::services::deletion::{delete_post, PostDeletedAnswer};
use crate::services::posts::MSG_POST_NOT_FOUND;
use crate::state::AppState;

#[tracing::instrument(skip(state, admin), fields(admin = %admin.0.id_hex()))]
pub async fn delete(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "post id")?;
    let deleted = delete_post(&state, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    audit::record(
        &state,
        &admin.0,
        Action::PostDelete,
        Target::post(&deleted),
        json!({}),
    )
    .await;
    Ok(HttpResponse::Ok().json(PostDeletedAnswer::of(id)))
}
