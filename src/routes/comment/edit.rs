//! `PUT /api/comment/edit/{commentId}` {content} → {message, comment}: the comment's author
//! replaces its text (same rules as a new comment); the comment becomes `edited: true`. Others
//! get 403, and a blocked comment cannot be edited.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{load_with_post, view_one, CommentAnswer};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::persistence::comments;
use crate::services::comments::{parse_content, MSG_COMMENT_NOT_FOUND};
use crate::state::AppState;

pub const MSG_COMMENT_UPDATED: &str = "Comment updated successfully";
pub const MSG_ONLY_AUTHOR_EDITS: &str = "Only the author of this comment can edit it";
pub const MSG_BLOCKED_NOT_EDITABLE: &str = "A blocked comment cannot be edited";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct EditBody {
    #[serde(default)]
    content: Option<String>,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    comment_id: web::Path<String>,
    body: ApiJson<EditBody>,
) -> ApiResult<HttpResponse> {
    let content = parse_content(body.into_inner().content.as_deref())?;
    let (comment, post) = load_with_post(&state.db, &comment_id, Some(&me)).await?;
    if comment.user != me.user.id {
        return Err(ApiError::forbidden(MSG_ONLY_AUTHOR_EDITS));
    }
    if comment.blocked {
        return Err(ApiError::forbidden(MSG_BLOCKED_NOT_EDITABLE));
    }
    let updated = comments::edit(&state.db, comment.id, &content)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_COMMENT_NOT_FOUND))?;
    let view = view_one(&state.db, updated, post.author, Some(&me)).await?;
    Ok(HttpResponse::Ok().json(CommentAnswer {
        message: MSG_COMMENT_UPDATED,
        comment: view,
    }))
}
