//! `PUT /api/comment/block/{commentId}` {blocked?} → {message, comment}: the post's author or an
//! administrator blocks a comment (`isFlagged` and `blocked` set; its text hidden from others;
//! no longer counted in the post's `commentsCount`). `{"blocked": false}` lifts the block.
//! Others get 403. Repeating either answers the same.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::CommentAnswer;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::optional_body;
use crate::services::comments;
use crate::state::AppState;

pub const MSG_COMMENT_BLOCKED: &str = "Comment blocked successfully";
pub const MSG_COMMENT_UNBLOCKED: &str = "Comment unblocked successfully";

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
    let view = comments::set_blocked(&state, &me, &comment_id, blocked).await?;
    let message = if blocked {
        MSG_COMMENT_BLOCKED
    } else {
        MSG_COMMENT_UNBLOCKED
    };
    Ok(HttpResponse::Ok().json(CommentAnswer {
        message,
        comment: view,
    }))
}
