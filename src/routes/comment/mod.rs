//! `/api/comment/*`: comments and nested replies on posts. Shared here: how a comment is shown,
//! how a tree is built, and how comment text is checked.
//!
//! Who may do what: anyone who can read a post reads its comments; signed-in users comment and
//! react (not across a block with the post's or comment's author); only a comment's author edits
//! it; the post's author or an administrator blocks comments; the comment's author, the post's
//! author or an administrator deletes one, with every reply below it.

pub mod add;
pub mod all;
pub mod block;
pub mod delete;
pub mod edit;
pub mod reaction;

use std::collections::{BTreeMap, HashMap, HashSet};

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::comments::{self, Comment};
use crate::persistence::posts::Post;
use crate::persistence::{user_directory, Db};
use crate::post_view::iso;
use crate::post_view::DELETED_AUTHOR;

use crate::services::comments::MSG_COMMENT_NOT_FOUND;
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

/// `{message, comment}`: a comment after a change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CommentAnswer {
    pub message: &'static str,
    pub comment: CommentView,
}

/// Loads a comment by id (404 'Comment not found').
pub async fn load_comment(db: &Db, raw_id: &str) -> ApiResult<Comment> {
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
pub fn reactions_view(reactions: BTreeMap<String, Vec<ObjectId>>) -> BTreeMap<String, Vec<String>> {
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
            let user_data = match authors.get(&c.user) {
                Some(a) => UserData {
                    id: a.id.to_hex(),
                    name: a.name.clone(),
                    avatar: a.avatar.clone(),
                },
                None => UserData {
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
pub async fn view_one(
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
pub async fn tree(
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
pub async fn load_with_post(
    db: &Db,
    raw_id: &str,
    viewer: Option<&AuthUser>,
) -> ApiResult<(Comment, Post)> {
    let comment = load_comment(db, raw_id).await?;
    let post = crate::persistence::posts::find_by_id(db, comment.post)
        .await?
        .filter(|p| crate::services::posts::visible_to(p, viewer))
        .ok_or_else(|| ApiError::not_found(MSG_COMMENT_NOT_FOUND))?;
    Ok((comment, post))
}
