//! `POST /api/comment/add-comment/{postId}` {content, parentId} → 201 {message, comment}: a
//! comment on a post the caller may read, or a reply to one of its comments (`parentId`).
//! Refused (403) across a block with the post's author or the parent comment's author. The
//! post's author hears of a comment, the parent's author of a reply (never oneself).
//!
//! An `Idempotency-Key` header (what an app sends with a comment it queued offline) makes the
//! request safe to send again: the first request with a key stores the comment, every later
//! one from the same person answers that comment and stores, tells and records nothing.

use actix_web::{web, HttpRequest, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;

use super::{parse_content, view_one, CommentAnswer, MAX_DEPTH, MSG_COMMENT_NOT_FOUND};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::domain::sanitize::plain_text;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::persistence::comments::{self, Comment};
use crate::persistence::notifications::Kind;
use crate::persistence::now;
use crate::services::activity::record_activity;
use crate::services::engagement::ensure_not_blocked;
use crate::services::engagement::{ensure_may_engage, readable_post, tell_user};
use crate::state::AppState;

pub const MSG_COMMENT_ADDED: &str = "Comment added successfully";
pub const MSG_PARENT_NOT_ON_POST: &str = "The comment you are replying to is not on this post";
pub const MSG_BAD_IDEMPOTENCY_KEY: &str =
    "Idempotency-Key must be 1 to 128 letters, digits or the characters - _ . :";
/// Characters of a comment copied into its notification.
pub const NOTIFICATION_EXCERPT: usize = 100;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddCommentBody {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    parent_id: Option<String>,
}

fn excerpt(html: &str) -> String {
    let text = plain_text(html);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= NOTIFICATION_EXCERPT {
        return text;
    }
    let mut cut: String = text.chars().take(NOTIFICATION_EXCERPT).collect();
    cut.push('…');
    cut
}

/// The request's `Idempotency-Key`, checked; `None` without one.
fn idempotency_key(req: &HttpRequest) -> ApiResult<Option<String>> {
    let Some(raw) = req.headers().get("idempotency-key") else {
        return Ok(None);
    };
    let key = raw
        .to_str()
        .ok()
        .map(str::trim)
        .filter(|k| {
            (1..=128).contains(&k.len())
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
        })
        .ok_or_else(|| ApiError::bad_request(MSG_BAD_IDEMPOTENCY_KEY))?;
    Ok(Some(key.to_string()))
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
    let key = idempotency_key(&req)?;
    let body = body.into_inner();
    let content = parse_content(body.content.as_deref())?;
    let parent_id = body
        .parent_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "null" && *s != "undefined")
        .map(|raw| object_id(raw, "parentId"))
        .transpose()?;
    let post = readable_post(&state, &post_id, Some(&me)).await?;
    ensure_may_engage(&state, &me, &post).await?;
    let parent = match parent_id {
        None => None,
        Some(id) => {
            let parent = comments::find_by_id(&state.db, id)
                .await?
                .ok_or_else(|| ApiError::not_found(MSG_COMMENT_NOT_FOUND))?;
            if parent.post != post.id {
                return Err(ApiError::bad_request(MSG_PARENT_NOT_ON_POST));
            }
            if parent.ancestors.len() + 1 >= MAX_DEPTH {
                return Err(ApiError::bad_request(format!(
                    "Replies can nest at most {MAX_DEPTH} levels deep"
                )));
            }
            ensure_not_blocked(&state.db, me.user.id, parent.user).await?;
            Some(parent)
        }
    };
    let at = now();
    let ancestors: Vec<ObjectId> = match &parent {
        Some(p) => {
            let mut a = p.ancestors.clone();
            a.push(p.id);
            a
        }
        None => Vec::new(),
    };
    let mut id = ObjectId::new();
    if let Some(key) = &key {
        id = comments::bind_key(&state.db, me.user.id, key, id).await?;
        if let Some(earlier) = comments::find_by_id(&state.db, id).await? {
            return answer(&state, earlier, post.author, &me).await;
        }
    }
    let comment = Comment {
        id,
        post: post.id,
        content,
        parent: parent.as_ref().map(|p| p.id),
        ancestors,
        user: me.user.id,
        is_flagged: false,
        blocked: false,
        edited: false,
        created_at: at,
        updated_at: at,
    };
    if !comments::insert_once(&state.db, &comment).await? {
        // The same key sent twice at once: the other request stored it.
        let earlier = comments::find_by_id(&state.db, id)
            .await?
            .ok_or_else(|| ApiError::not_found(MSG_COMMENT_NOT_FOUND))?;
        return answer(&state, earlier, post.author, &me).await;
    }
    crate::services::webhooks::emit(
        &state,
        "comment.created",
        Some(post.author),
        serde_json::json!({
            "id": comment.id.to_hex(),
            "postId": post.id.to_hex(),
            "postTitle": post.title,
            "authorId": me.user.id.to_hex(),
            "authorName": me.user.name,
            "text": comment.content,
        }),
    );
    if let Some(parent) = &parent {
        // The parent may have been deleted meanwhile: then this reply goes too.
        if comments::find_by_id(&state.db, parent.id).await?.is_none() {
            comments::retract(&state.db, &comment).await?;
            return Err(ApiError::not_found(MSG_COMMENT_NOT_FOUND));
        }
    }
    let text = excerpt(&comment.content);
    match &parent {
        Some(parent) => {
            record_activity(
                &state,
                me.user.id,
                "reply",
                &format!("Replied to a comment on \"{}\"", post.title),
                Some(post.id),
                Some(parent.user),
            )
            .await;
            tell_user(&state, &me, parent.user, Kind::Reply, &post, &text).await;
            if post.author != parent.user {
                tell_user(&state, &me, post.author, Kind::Comment, &post, &text).await;
            }
        }
        None => {
            record_activity(
                &state,
                me.user.id,
                "comment",
                &format!("Commented on \"{}\"", post.title),
                Some(post.id),
                None,
            )
            .await;
            tell_user(&state, &me, post.author, Kind::Comment, &post, &text).await;
        }
    }
    answer(&state, comment, post.author, &me).await
}

/// 201 `{message, comment}` for a stored comment.
async fn answer(
    state: &AppState,
    comment: Comment,
    post_author: ObjectId,
    me: &AuthUser,
) -> ApiResult<HttpResponse> {
    let view = view_one(&state.db, comment, post_author, Some(me)).await?;
    Ok(HttpResponse::Created().json(CommentAnswer {
        message: MSG_COMMENT_ADDED,
        comment: view,
    }))
}
