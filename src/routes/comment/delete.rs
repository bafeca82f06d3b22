//! `DELETE /api/comment/delete/{commentId}` → {message, postId, deletedCount, commentsCount}:
//! the comment's author, the post's author or an administrator deletes a comment and every
//! reply below it; the post's `commentsCount` drops by the unblocked ones removed. Others 403.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::comments;
use crate::state::AppState;

pub const MSG_COMMENT_DELETED: &str = "Comment deleted successfully";

/// `{message, postId, commentId, deletedCount, commentsCount}`: the comment and its replies
/// removed, and the post's count of comments after.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommentDeletedAnswer {
    message: &'static str,
    post_id: String,
    comment_id: String,
    deleted_count: u64,
    comments_count: i64,
}

#[tracing::instrument(skip(state, me))]
pub async fn delete(
    state: web::Data<AppState>,
    me: AuthUser,
    comment_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let deleted = comments::delete(&state, &me, &comment_id).await?;
    Ok(HttpResponse::Ok().json(CommentDeletedAnswer {
        message: MSG_COMMENT_DELETED,
        post_id: deleted.post_id.to_hex(),
        comment_id: deleted.comment_id.to_hex(),
        deleted_count: deleted.removed,
        comments_count: deleted.comments_count,
    }))
}
