//! `DELETE /api/admin/posts/{id}` (administrators) → {message, postId}: deletes any post the way
//! its author's delete does (`routes::post::delete::delete_post`).

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::object_id;
use crate::routes::post::delete::{delete_post, MSG_POST_DELETED};
use crate::routes::post::MSG_POST_NOT_FOUND;
use crate::state::AppState;

/// `{message, postId}`: the post is gone.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostDeleted {
    pub message: String,
    pub post_id: String,
}

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
    Ok(HttpResponse::Ok().json(PostDeleted {
        message: MSG_POST_DELETED.to_string(),
        post_id: id.to_hex(),
    }))
}
