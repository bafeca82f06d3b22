//! `DELETE /api/comment/delete/{commentId}` → {message, postId, deletedCount, commentsCount}:
//! the comment's author, the post's author or an administrator deletes a comment and every
//! reply below it; the post's `commentsCount` drops by the unblocked ones removed. Others 403.

use actix_web::{web, HttpResponse};

use super::load_with_post;
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::comments;
use crate::persistence::posts::{self, Counter};
use crate::state::AppState;

pub const MSG_COMMENT_DELETED: &str = "Comment deleted successfully";
pub const MSG_NOT_ALLOWED_TO_DELETE: &str =
    "Only the author of the comment, the author of the post or an administrator can delete it";

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
    let (comment, post) = load_with_post(&state.db, &comment_id, Some(&me)).await?;
    if comment.user != me.user.id && post.author != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_ALLOWED_TO_DELETE));
    }
    let removed = comments::delete_with_replies(&state.db, &comment).await?;
    let count = posts::counter(&state.db, post.id, Counter::Comments)
        .await?
        .unwrap_or(0);
    Ok(HttpResponse::Ok().json(CommentDeletedAnswer {
        message: MSG_COMMENT_DELETED,
        post_id: post.id.to_hex(),
        comment_id: comment.id.to_hex(),
        deleted_count: removed,
        comments_count: count.max(0),
    }))
}
