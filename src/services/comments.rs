//! Comments (`/api/comment/*`) as a workflow: what adding one checks, stores and tells, how
//! comment text is checked, and how comments are shown (a post's comments as a tree, one
//! comment after a change); editing, blocking, deleting and reacting to one.
//!
//! Who may do what: anyone who can read a post reads its comments; signed-in users comment and
//! react (not across a block with the post's or comment's author); only a comment's author edits
//! it; the post's author or an administrator blocks comments; the comment's author, the post's
//! author or an administrator deletes one, with every reply below it.
//!
//! An idempotency key (the `Idempotency-Key` header, what an app sends with a comment it queued
//! offline) makes adding safe to repeat: the first request with a key stores the comment, every
//! later one from the same person gets that comment back and stores, tells and records nothing.

use std::collections::{BTreeMap, HashMap, HashSet};

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::domain::sanitize::{plain_text, sanitize_inline};
use crate::error::{ApiError, ApiResult};
use crate::persistence::comments::{self, Comment};
use crate::persistence::notifications::Kind;
use crate::persistence::now;
use crate::persistence::posts::{self, Counter, Post};
use crate::persistence::{graph, user_directory, Db};
use crate::post_view::{iso, DELETED_AUTHOR};
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
pub const MSG_ONLY_POST_AUTHOR_BLOCKS: &str =
    "Only the author of the post or an administrator can block comments";
pub const MSG_NOT_ALLOWED_TO_DELETE: &str =
    "Only the author of the comment, the author of the post or an administrator can delete it";
pub const MSG_ONLY_AUTHOR_EDITS: &str = "Only the author of this comment can edit it";
pub const MSG_BLOCKED_NOT_EDITABLE: &str = "A blocked comment cannot be edited";
pub const MSG_COMMENT_BLOCKED: &str = "This comment has been blocked";

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
        guest_name: None,
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

/// What others see in place of a blocked comment's text.
pub const MSG_COMMENT_HIDDEN: &str = "This comment has been hidden by a moderator.";

/// A comment's author as shown with it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UserData {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub avatar: Option<String>,
}

/// A comment as clients see it, with its replies.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommentView {
    #[serde(rename = "_id")]
    pub id: String,
    pub post: String,
    pub content: String,
    pub parent: Option<String>,
    pub user: String,
    pub user_data: UserData,
    pub reactions: BTreeMap<String, Vec<String>>,
    #[schema(no_recursion)]
    pub replies: Vec<CommentView>,
    pub replies_count: usize,
    pub is_flagged: bool,
    pub blocked: bool,
    pub edited: bool,
    pub created_at: String,
    pub updated_at: String,
}

/// Loads a comment by id (404 'Comment not found').
async fn load_comment(db: &Db, raw_id: &str) -> ApiResult<Comment> {
    let id = object_id(raw_id, "comment id")?;
    comments::find_by_id(db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_COMMENT_NOT_FOUND))
}

/// Whether the viewer sees a blocked comment's text: its author, the post's author, admins.
fn sees_hidden(comment: &Comment, post_author: ObjectId, viewer: Option<&AuthUser>) -> bool {
    viewer.is_some_and(|v| v.is_admin() || v.user.id == comment.user || v.user.id == post_author)
}

/// Reactions as clients see them: type → user ids.
fn reactions_view(reactions: BTreeMap<String, Vec<ObjectId>>) -> BTreeMap<String, Vec<String>> {
    reactions
        .into_iter()
        .map(|(k, users)| (k, users.iter().map(|u| u.to_hex()).collect()))
        .collect()
}

/// Builds views of comments (flat, no replies filled in).
async fn views_of(
    db: &Db,
    list: Vec<Comment>,
    post_author: ObjectId,
    viewer: Option<&AuthUser>,
) -> ApiResult<Vec<CommentView>> {
    let mut ids: Vec<ObjectId> = list.iter().map(|c| c.user).collect();
    ids.sort();
    ids.dedup();
    let authors = user_directory::authors(db, &ids).await?;
    let comment_ids: Vec<ObjectId> = list.iter().map(|c| c.id).collect();
    let mut reactions = comments::reactions_of(db, &comment_ids).await?;
    Ok(list
        .into_iter()
        .map(|c| {
            let user_data = match (&c.guest_name, authors.get(&c.user)) {
                (Some(guest), _) => UserData {
                    id: c.user.to_hex(),
                    name: guest.clone(),
                    avatar: None,
                },
                (None, Some(a)) => UserData {
                    id: a.id.to_hex(),
                    name: a.name.clone(),
                    avatar: a.avatar.clone(),
                },
                (None, None) => UserData {
                    id: c.user.to_hex(),
                    name: DELETED_AUTHOR.to_string(),
                    avatar: None,
                },
            };
            let content = if c.blocked && !sees_hidden(&c, post_author, viewer) {
                MSG_COMMENT_HIDDEN.to_string()
            } else {
                c.content.clone()
            };
            CommentView {
                id: c.id.to_hex(),
                post: c.post.to_hex(),
                content,
                parent: c.parent.map(|p| p.to_hex()),
                user: c.user.to_hex(),
                user_data,
                reactions: reactions_view(reactions.remove(&c.id).unwrap_or_default()),
                replies: Vec::new(),
                replies_count: 0,
                is_flagged: c.is_flagged,
                blocked: c.blocked,
                edited: c.edited,
                created_at: iso(c.created_at),
                updated_at: iso(c.updated_at),
            }
        })
        .collect())
}

/// Shows one comment without replies.
async fn view_one(
    db: &Db,
    comment: Comment,
    post_author: ObjectId,
    viewer: Option<&AuthUser>,
) -> ApiResult<CommentView> {
    views_of(db, vec![comment], post_author, viewer)
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("rendering a comment gave nothing")))
}

/// Builds the tree of a post's comments: top-level comments newest first, replies oldest first
/// under their parent. Comments by `hidden` users are left out with everything below them.
/// `repliesCount` is the number of direct replies shown.
async fn tree(
    db: &Db,
    post: &Post,
    list: Vec<Comment>,
    hidden: &HashSet<ObjectId>,
    viewer: Option<&AuthUser>,
) -> ApiResult<(Vec<CommentView>, usize)> {
    let list: Vec<Comment> = list
        .into_iter()
        .filter(|c| !hidden.contains(&c.user))
        .collect();
    let present: HashSet<ObjectId> = list.iter().map(|c| c.id).collect();
    // A comment shows only when every comment above it shows.
    let list: Vec<Comment> = list
        .into_iter()
        .filter(|c| c.ancestors.iter().all(|a| present.contains(a)))
        .collect();
    let total = list.len();
    let mut views = views_of(db, list, post.author, viewer).await?;
    // Children lists by parent id, in time order (the list came oldest first).
    let mut children: HashMap<String, Vec<CommentView>> = HashMap::new();
    let mut roots = Vec::new();
    for v in views.drain(..) {
        match v.parent.clone() {
            Some(parent) => children.entry(parent).or_default().push(v),
            None => roots.push(v),
        }
    }
    fn attach(node: &mut CommentView, children: &mut HashMap<String, Vec<CommentView>>) {
        if let Some(mut kids) = children.remove(&node.id) {
            for kid in kids.iter_mut() {
                attach(kid, children);
            }
            node.replies_count = kids.len();
            node.replies = kids;
        }
    }
    for root in roots.iter_mut() {
        attach(root, &mut children);
    }
    roots.reverse();
    Ok((roots, total))
}

/// Loads a comment and its post; a comment on a post the viewer may not read is 404 like a
/// missing one.
async fn load_with_post(
    db: &Db,
    raw_id: &str,
    viewer: Option<&AuthUser>,
) -> ApiResult<(Comment, Post)> {
    let comment = load_comment(db, raw_id).await?;
    let post = posts::find_by_id(db, comment.post)
        .await?
        .filter(|p| crate::services::posts::visible_to(p, viewer))
        .ok_or_else(|| ApiError::not_found(MSG_COMMENT_NOT_FOUND))?;
    Ok((comment, post))
}

/// Adds `new` to post `post_id` as `me` (see [`add`]) and shows it to them.
pub async fn add_shown(
    state: &AppState,
    me: &AuthUser,
    post_id: &str,
    new: NewComment,
) -> ApiResult<CommentView> {
    let (comment, post) = add(state, me, post_id, new).await?;
    view_one(&state.db, comment, post.author, Some(me)).await
}

/// The comments of post `post_id` as `viewer` sees them (see [`tree`]), and how many there are.
pub async fn thread(
    state: &AppState,
    post_id: &str,
    viewer: Option<&AuthUser>,
) -> ApiResult<(Vec<CommentView>, usize)> {
    let post = readable_post(state, post_id, viewer).await?;
    let hidden: HashSet<_> = match viewer {
        Some(me) => graph::hidden_from(&state.db, me.user.id)
            .await?
            .into_iter()
            .collect(),
        None => HashSet::new(),
    };
    let list = comments::list_for_post(&state.db, post.id).await?;
    tree(&state.db, &post, list, &hidden, viewer).await
}

/// Blocks (or lifts the block of) comment `raw_id`, for the post's author or an administrator.
pub async fn set_blocked(
    state: &AppState,
    me: &AuthUser,
    raw_id: &str,
    blocked: bool,
) -> ApiResult<CommentView> {
    let (comment, post) = load_with_post(&state.db, raw_id, Some(me)).await?;
    if post.author != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_ONLY_POST_AUTHOR_BLOCKS));
    }
    let updated = comments::set_blocked(&state.db, comment.id, blocked)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_COMMENT_NOT_FOUND))?;
    view_one(&state.db, updated, post.author, Some(me)).await
}

/// A comment deleted with the replies below it: the post's and the comment's ids, how many
/// comments were removed, and the post's count of comments after.
pub struct Deleted {
    pub post_id: ObjectId,
    pub comment_id: ObjectId,
    pub removed: u64,
    pub comments_count: i64,
}

/// Deletes comment `raw_id` and every reply below it, for the comment's author, the post's
/// author or an administrator.
pub async fn delete(state: &AppState, me: &AuthUser, raw_id: &str) -> ApiResult<Deleted> {
    let (comment, post) = load_with_post(&state.db, raw_id, Some(me)).await?;
    if comment.user != me.user.id && post.author != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_ALLOWED_TO_DELETE));
    }
    let removed = comments::delete_with_replies(&state.db, &comment).await?;
    let count = posts::counter(&state.db, post.id, Counter::Comments)
        .await?
        .unwrap_or(0);
    Ok(Deleted {
        post_id: post.id,
        comment_id: comment.id,
        removed,
        comments_count: count.max(0),
    })
}

/// Replaces the text of comment `raw_id` (checked) for its author; a blocked comment cannot be
/// edited.
pub async fn edit(
    state: &AppState,
    me: &AuthUser,
    raw_id: &str,
    content: &str,
) -> ApiResult<CommentView> {
    let (comment, post) = load_with_post(&state.db, raw_id, Some(me)).await?;
    if comment.user != me.user.id {
        return Err(ApiError::forbidden(MSG_ONLY_AUTHOR_EDITS));
    }
    if comment.blocked {
        return Err(ApiError::forbidden(MSG_BLOCKED_NOT_EDITABLE));
    }
    let updated = comments::edit(&state.db, comment.id, content)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_COMMENT_NOT_FOUND))?;
    view_one(&state.db, updated, post.author, Some(me)).await
}

/// A comment's reactions after a toggle: its id, type → user ids, and whether the caller's
/// reaction is on.
pub struct Reactions {
    pub comment_id: ObjectId,
    pub reactions: BTreeMap<String, Vec<String>>,
    pub reacted: bool,
}

/// Toggles `me`'s reaction `kind` on comment `raw_id`. Adding one is refused on a blocked
/// comment and across a block with the comment's or the post's author; taking one back is
/// always allowed.
pub async fn toggle_reaction(
    state: &AppState,
    me: &AuthUser,
    raw_id: &str,
    kind: &str,
) -> ApiResult<Reactions> {
    let (comment, post) = load_with_post(&state.db, raw_id, Some(me)).await?;
    let already = comments::reactions_of(&state.db, &[comment.id])
        .await?
        .remove(&comment.id)
        .and_then(|r| r.get(kind).map(|users| users.contains(&me.user.id)))
        .unwrap_or(false);
    if !already {
        if comment.blocked {
            return Err(ApiError::forbidden(MSG_COMMENT_BLOCKED));
        }
        ensure_not_blocked(&state.db, me.user.id, comment.user).await?;
        ensure_not_blocked(&state.db, me.user.id, post.author).await?;
    }
    let reacted = comments::toggle_reaction(&state.db, &comment, me.user.id, kind).await?;
    if reacted && !already {
        record_activity(
            state,
            me.user.id,
            "reaction",
            &format!("Reacted with {kind} to a comment on \"{}\"", post.title),
            Some(post.id),
            Some(comment.user),
        )
        .await;
    }
    let reactions = comments::reactions_of(&state.db, &[comment.id])
        .await?
        .remove(&comment.id)
        .unwrap_or_default();
    Ok(Reactions {
        comment_id: comment.id,
        reactions: reactions_view(reactions),
        reacted,
    })
}
