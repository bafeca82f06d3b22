//! `POST /api/comment/add-comment/{postId}` {content, parentId} → 201 {message, comment}: a
//! comment on a post the caller may read, or a reply to one of its comments (`parentId`).
//! Refused (403) across a block with the post's author or the parent comment's author. The
//! post's author hears of a comment, the parent's author of a reply (never oneself).
//!
//! An `Idempotency-Key` header (what an app sends with a comment it queued offline) makes the
//! request safe to send again: the first request with a key stores the comment, every later
//! one from the same person answers that comment and stores, tells and records nothing.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::CommentAnswer;
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::services::comments::{self, parse_content, parse_idempotency_key, NewComment};
use crate::state::AppState;

pub const MSG_COMMENT_ADDED: &str = "Comment added successfully";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddCommentBody {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    parent_id: Option<String>,
}

#[tracing::instrument(skip(state, me, req, body))]
pub async fn add_comment(
    state: web::Data<AppState>,
    me: AuthUser,
    req: HttpRequest,
    post_id: web::Path<String>,
    body: ApiJson<AddCommentBody>,
) -> ApiResult<HttpResponse> {
    crate::counting::limit_user(
        &state.counting(),
        &req,
        &me,
        crate::ratelimit::Action::Comment,
    )
    .await?;
    let key = req
        .headers()
        .get("idempotency-key")
        .map(|raw| parse_idempotency_key(raw.to_str().ok()))
        .transpose()?;
    let body = body.into_inner();
    let content = parse_content(body.content.as_deref())?;
    let parent_id = body
        .parent_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "null" && *s != "undefined")
        .map(|raw| object_id(raw, "parentId"))
        .transpose()?;
    let view = comments::add_shown(
        &state,
        &me,
        &post_id,
        NewComment {
            content,
            parent_id,
            key,
        },
    )
    .await?;
    Ok(HttpResponse::Created().json(CommentAnswer {
        message: MSG_COMMENT_ADDED,
        comment: view,
    }))
}
