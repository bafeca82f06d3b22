//! `PUT /api/comment/block/{commentId}` {blocked?} → {message, comment}: the post's author or an
//! administrator blocks a comment (`isFlagged` and `blocked` set; its text hidden from others;
//! no longer counted in the post's `commentsCount`). `{"blocked": false}` lifts the block.
//! Others get 403. Repeating either answers the same.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{load_with_post, view_one, CommentAnswer};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::optional_body;
use crate::persistence::comments;
use crate::services::comments::MSG_COMMENT_NOT_FOUND;
use crate::state::AppState;

pub const MSG_COMMENT_BLOCKED: &str = "Comment blocked successfully";
pub const MSG_COMMENT_UNBLOCKED: &str = "Comment unblocked successfully";
pub const MSG_ONLY_POST_AUTHOR_BLOCKS: &str =
    "Only the author of the post or an administrator can block comments";

#[derive(Debug, Default, Deserialize)]
pub struct BlockBody {
    #[serde(default)]
    blocked: Option<bool>,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn block(
    state: web::Data<AppState>,
    me: AuthUser,
    comment_id: web::Path<String>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let body: BlockBody = optional_body(&body)?;
    let blocked = body.blocked.unwrap_or(true);
    let (comment, post) = load_with_post(&state.db, &comment_id, Some(&me)).await?;
    if post.author != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_ONLY_POST_AUTHOR_BLOCKS));
    }
    let updated = comments::set_blocked(&state.db, comment.id, blocked)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_COMMENT_NOT_FOUND))?;
    let message = if blocked {
        MSG_COMMENT_BLOCKED
    } else {
        MSG_COMMENT_UNBLOCKED
    };
    let view = view_one(&state.db, updated, post.author, Some(&me)).await?;
    Ok(HttpResponse::Ok().json(CommentAnswer {
        message,
        comment: view,
    }))
}
