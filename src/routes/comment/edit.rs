//! `PUT /api/comment/edit/{commentId}` {content} → {message, comment}: the comment's author
//! replaces its text (same rules as a new comment); the comment becomes `edited: true`. Others
//! get 403, and a blocked comment cannot be edited.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::CommentAnswer;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::services::comments::{self, parse_content};
use crate::state::AppState;

pub const MSG_COMMENT_UPDATED: &str = "Comment updated successfully";

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
    let view = comments::edit(&state, &me, &comment_id, &content).await?;
    Ok(HttpResponse::Ok().json(CommentAnswer {
        message: MSG_COMMENT_UPDATED,
        comment: view,
    }))
}
