//! Comments as a workflow: what adding one checks, stores and tells (`POST
//! /api/comment/add-comment/{postId}` shows the result), and how comment text is checked.
//!
//! An idempotency key (the `Idempotency-Key` header, what an app sends with a comment it queued
//! offline) makes adding safe to repeat: the first request with a key stores the comment, every
//! later one from the same person gets that comment back and stores, tells and records nothing.

use mongodb::bson::oid::ObjectId;

use crate::auth::AuthUser;
use crate::domain::sanitize::{plain_text, sanitize_inline};
use crate::error::{ApiError, ApiResult};
use crate::persistence::comments::{self, Comment};
use crate::persistence::notifications::Kind;
use crate::persistence::now;
use crate::persistence::posts::Post;
use crate::services::activity::record_activity;
use crate::services::engagement::{
    ensure_may_engage, ensure_not_blocked, readable_post, tell_user,
};
use crate::state::AppState;

pub const MAX_COMMENT_LEN: usize = 5000;
/// How deep replies may nest (a top-level comment is depth 1).
pub const MAX_DEPTH: usize = 10;
pub const MSG_COMMENT_NOT_FOUND: &str = "Comment not found";
pub const MSG_COMMENT_EMPTY: &str = "Comment cannot be empty";
pub const MSG_COMMENT_TOO_LONG: &str = "Comment must be at most 5000 characters";
pub const MSG_PARENT_NOT_ON_POST: &str = "The comment you are replying to is not on this post";
pub const MSG_KEY_USED_ELSEWHERE: &str =
    "This Idempotency-Key was already used for a comment on another post";
pub const MSG_BAD_IDEMPOTENCY_KEY: &str =
    "Idempotency-Key must be 1 to 128 letters, digits or the characters - _ . :";
/// Characters of a comment copied into its notification.
pub const NOTIFICATION_EXCERPT: usize = 100;

/// Checks and cleans comment text: trimmed, at most 5000 characters, inline HTML sanitised,
/// some readable text left.
pub fn parse_content(raw: Option<&str>) -> ApiResult<String> {
    let text = raw.unwrap_or_default().trim();
    if text.chars().count() > MAX_COMMENT_LEN {
        return Err(ApiError::bad_request(MSG_COMMENT_TOO_LONG));
    }
    let clean = sanitize_inline(text).trim().to_string();
    if plain_text(&clean).trim().is_empty() {
        return Err(ApiError::bad_request(MSG_COMMENT_EMPTY));
    }
    Ok(clean)
}

/// Checks an idempotency key: 1 to 128 letters, digits, `-`, `_`, `.` or `:`.
pub fn parse_idempotency_key(raw: Option<&str>) -> ApiResult<String> {
    raw.map(str::trim)
        .filter(|k| {
            (1..=128).contains(&k.len())
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
        })
        .map(str::to_string)
        .ok_or_else(|| ApiError::bad_request(MSG_BAD_IDEMPOTENCY_KEY))
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

/// A comment to add: its checked text, the comment it replies to, the request's idempotency key.
pub struct NewComment {
    pub content: String,
    pub parent_id: Option<ObjectId>,
    pub key: Option<String>,
}

/// Adds `me`'s comment to the post `post_id` (any string; checked here): refused across a block
/// with the post's or the parent's author; the post's author hears of a comment, the parent's
/// author of a reply (never oneself). Returns the comment (the one stored before under the same
/// key, when there is one) and its post.
pub async fn add(
    state: &AppState,
    me: &AuthUser,
    post_id: &str,
    new: NewComment,
) -> ApiResult<(Comment, Post)> {
    let NewComment {
        content,
        parent_id,
        key,
    } = new;
    let post = readable_post(state, post_id, Some(me)).await?;
    ensure_may_engage(state, me, &post).await?;
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
            if earlier.post != post.id {
                return Err(ApiError::conflict(MSG_KEY_USED_ELSEWHERE));
            }
            return Ok((earlier, post));
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
        return Ok((earlier, post));
    }
    crate::services::webhooks::emit(
        state,
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
                state,
                me.user.id,
                "reply",
                &format!("Replied to a comment on \"{}\"", post.title),
                Some(post.id),
                Some(parent.user),
            )
            .await;
            tell_user(state, me, parent.user, Kind::Reply, &post, &text).await;
            if post.author != parent.user {
                tell_user(state, me, post.author, Kind::Comment, &post, &text).await;
            }
        }
        None => {
            record_activity(
                state,
                me.user.id,
                "comment",
                &format!("Commented on \"{}\"", post.title),
                Some(post.id),
                None,
            )
            .await;
            tell_user(state, me, post.author, Kind::Comment, &post, &text).await;
        }
    }
    Ok((comment, post))
}
