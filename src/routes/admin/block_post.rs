//! `PATCH /api/admin/posts/block/{id}` → {message, blocked, postId}: an administrator blocks or
//! restores a post. The message contains "blocked" only when the post is now blocked (the client
//! derives the outcome from it). Everyone hears `postBlockToggled(postId, blocked)` and
//! `postCountsUpdated`; restoring a post settles its pending appeal as accepted.

use actix_web::{web, HttpResponse};

use crate::auth::AdminUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::services::moderation::toggle_post_blocked;
use crate::state::AppState;

pub const MSG_POST_BLOCKED: &str = "Post blocked";
pub const MSG_POST_RESTORED: &str = "Post restored";

/// `{message, blocked, postId}`: whether the post is blocked now.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostBlockAnswer {
    pub message: String,
    pub blocked: bool,
    pub post_id: String,
    /// The revision saved as the post was blocked (kept while the block lasts); `null` when it
    /// was restored.
    pub revision_id: Option<String>,
}

#[tracing::instrument(skip(state, admin), fields(admin = %admin.0.id_hex()))]
pub async fn block_post(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "post id")?;
    let (blocked, revision_id) = toggle_post_blocked(&state, &admin.0, id).await?;
    let message = if blocked {
        MSG_POST_BLOCKED
    } else {
        MSG_POST_RESTORED
    };
    Ok(HttpResponse::Ok().json(PostBlockAnswer {
        message: message.to_string(),
        blocked,
        post_id: id.to_hex(),
        revision_id: revision_id.map(|r| r.to_hex()),
    }))
}
