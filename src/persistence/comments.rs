//! The `comments` collection: comments and nested replies on posts. Each comment keeps its
//! `ancestors` (root first), so a subtree is found and removed with one query. The post's
//! `commentsCount` is the number of its comments that are not blocked, replies included, set
//! from the records under the post's lock after every change. Reactions live in
//! `comment_reactions`, one document per (comment, user, type) under a unique index.

use std::collections::{BTreeMap, HashMap};

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::posts::{self, Counter};
use super::{index, now, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "comments";
pub const REACTIONS: &str = "comment_reactions";
/// `{_id: "<user id>:<key>", userId, commentId, createdAt}`: the comment a request's
/// `Idempotency-Key` stands for, so a comment sent again (an app replaying what it queued
/// offline) is stored once.
pub const KEYS: &str = "comment_keys";

/// A stored comment.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Comment {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub post: ObjectId,
    pub content: String,
    #[serde(default)]
    pub parent: Option<ObjectId>,
    /// Every comment above this one, the top-level comment first.
    #[serde(default)]
    pub ancestors: Vec<ObjectId>,
    pub user: ObjectId,
    #[serde(default)]
    pub is_flagged: bool,
    #[serde(default)]
    pub blocked: bool,
    #[serde(default)]
    pub edited: bool,
    pub created_at: DateTime,
    pub updated_at: DateTime,
    /// The name of whoever wrote an imported comment elsewhere (the comment is kept under the
    /// importing writer's account, shown under this name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guest_name: Option<String>,
}

fn collection(db: &Db) -> Collection<Comment> {
    db.database().collection(COLLECTION)
}

fn reactions(db: &Db) -> Collection<Document> {
    db.database().collection(REACTIONS)
}

/// Sets the post's `commentsCount` from its unblocked comments.
pub async fn sync_count(db: &Db, post: ObjectId) -> DbResult<Option<i64>> {
    posts::sync_counter(
        db,
        post,
        Counter::Comments,
        COLLECTION,
        doc! { "post": post, "blocked": false },
    )
    .await
}

/// A post's comments by time, subtrees by ancestor, a user's comments by time.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            index(doc! { "post": 1, "createdAt": 1 }, "post_created"),
            index(doc! { "ancestors": 1 }, "ancestors"),
            index(doc! { "user": 1, "createdAt": -1 }, "user_created"),
        ],
        "creating comment indexes",
    )
    .await?;
    super::create_indexes(
        &reactions(db),
        [
            unique_index(
                doc! { "commentId": 1, "userId": 1, "type": 1 },
                "comment_user_type_unique",
            ),
            index(doc! { "postId": 1 }, "post"),
        ],
        "creating reaction indexes",
    )
    .await?;
    super::create_indexes(
        &keys(db),
        [index(doc! { "userId": 1 }, "user")],
        "creating comment key indexes",
    )
    .await?;
    Ok(())
}

fn keys(db: &Db) -> Collection<Document> {
    db.database().collection(KEYS)
}

/// The comment `user`'s idempotency `key` stands for: `candidate` when this is the key's first
/// use (it is bound to it), else the comment an earlier request bound it to.
pub async fn bind_key(
    db: &Db,
    user: ObjectId,
    key: &str,
    candidate: ObjectId,
) -> DbResult<ObjectId> {
    let id = format!("{}:{key}", user.to_hex());
    let bound = keys(db)
        .insert_one(doc! { "_id": &id, "userId": user, "commentId": candidate, "createdAt": now() })
        .await;
    match bound {
        Ok(_) => Ok(candidate),
        Err(e) if super::is_duplicate_key(&e) => keys(db)
            .find_one(doc! { "_id": &id })
            .await
            .db_context("reading a comment key")?
            .and_then(|d| d.get_object_id("commentId").ok())
            .ok_or(super::DbError::Duplicate("comment key")),
        Err(e) => Err(e).db_context("binding a comment key"),
    }
}

/// Stores a new comment under its id unless one is stored under it already (`false` then), and
/// counts it on the post.
pub async fn insert_once(db: &Db, comment: &Comment) -> DbResult<bool> {
    match collection(db).insert_one(comment).await {
        Ok(_) => {}
        Err(e) if super::is_duplicate_key(&e) => return Ok(false),
        Err(e) => return Err(e).db_context("adding a comment"),
    }
    sync_count(db, comment.post).await?;
    Ok(true)
}

/// Finds a comment.
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Comment>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a comment")
}

/// Every comment of a post, oldest first.
pub async fn list_for_post(db: &Db, post: ObjectId) -> DbResult<Vec<Comment>> {
    collection(db)
        .find(doc! { "post": post })
        .sort(doc! { "createdAt": 1, "_id": 1 })
        .await
        .db_context("listing comments")?
        .try_collect()
        .await
        .db_context("reading comments")
}

/// Every comment a user wrote, oldest first (an account's removal).
pub async fn by_user(db: &Db, user: ObjectId) -> DbResult<Vec<Comment>> {
    collection(db)
        .find(doc! { "user": user })
        .sort(doc! { "createdAt": 1, "_id": 1 })
        .await
        .db_context("listing a user's comments")?
        .try_collect()
        .await
        .db_context("reading a user's comments")
}

/// Replaces the text and marks the comment edited; returns it (`None`: gone).
pub async fn edit(db: &Db, id: ObjectId, content: &str) -> DbResult<Option<Comment>> {
    collection(db)
        .find_one_and_update(
            doc! { "_id": id },
            doc! { "$set": { "content": content, "edited": true, "updatedAt": now() } },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("editing a comment")
}

/// Adds the user's reaction of this type if absent, removes it if present. Returns whether the
/// reaction is there now.
pub async fn toggle_reaction(
    db: &Db,
    comment: &Comment,
    user: ObjectId,
    kind: &str,
) -> DbResult<bool> {
    let key = doc! { "commentId": comment.id, "userId": user, "type": kind };
    let removed = reactions(db)
        .delete_one(key.clone())
        .await
        .db_context("removing a reaction")?;
    if removed.deleted_count > 0 {
        return Ok(false);
    }
    let mut record = key;
    record.insert("postId", comment.post);
    record.insert("createdAt", now());
    match reactions(db).insert_one(record).await {
        Ok(_) => Ok(true),
        // A simultaneous toggle added it: already done.
        Err(e) if super::is_duplicate_key(&e) => Ok(true),
        Err(e) => Err(e).db_context("adding a reaction"),
    }
}

/// The reactions on these comments: comment → type → users, oldest first.
pub async fn reactions_of(
    db: &Db,
    ids: &[ObjectId],
) -> DbResult<HashMap<ObjectId, BTreeMap<String, Vec<ObjectId>>>> {
    let mut out: HashMap<ObjectId, BTreeMap<String, Vec<ObjectId>>> = HashMap::new();
    if ids.is_empty() {
        return Ok(out);
    }
    let docs: Vec<Document> = reactions(db)
        .find(doc! { "commentId": { "$in": ids } })
        .sort(doc! { "createdAt": 1, "_id": 1 })
        .await
        .db_context("listing reactions")?
        .try_collect()
        .await
        .db_context("reading reactions")?;
    for d in docs {
        if let (Ok(comment), Ok(user), Ok(kind)) = (
            d.get_object_id("commentId"),
            d.get_object_id("userId"),
            d.get_str("type"),
        ) {
            out.entry(comment)
                .or_default()
                .entry(kind.to_string())
                .or_default()
                .push(user);
        }
    }
    Ok(out)
}

/// Blocks or unblocks a comment (blocking also flags it) and recounts the post's comments.
/// Returns the comment after the change (`None`: gone).
pub async fn set_blocked(db: &Db, id: ObjectId, blocked: bool) -> DbResult<Option<Comment>> {
    let mut set = doc! { "blocked": blocked, "updatedAt": now() };
    if blocked {
        set.insert("isFlagged", true);
    }
    let changed = collection(db)
        .update_one(doc! { "_id": id }, doc! { "$set": set })
        .await
        .db_context("blocking a comment")?;
    let found = find_by_id(db, id).await?;
    if let (1.., Some(c)) = (changed.matched_count, &found) {
        sync_count(db, c.post).await?;
    }
    Ok(found)
}

/// Deletes a comment, every reply below it and their reactions, and recounts the post's
/// comments. Returns how many comments were removed.
///
/// The subtree is picked from the post's comments (read by `post`, with their `ancestors`):
/// an equality on `ancestors`, an array in every comment, narrows nothing on a store that
/// cannot index array elements (the embedded one), and a post's comments are few. A reply
/// written to one of them meanwhile goes too.
pub async fn delete_with_replies(db: &Db, comment: &Comment) -> DbResult<u64> {
    let of_post: Vec<Document> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(doc! { "post": comment.post })
        .projection(doc! { "_id": 1, "ancestors": 1 })
        .await
        .db_context("finding replies")?
        .try_collect()
        .await
        .db_context("reading replies")?;
    let ids: Vec<ObjectId> = of_post
        .iter()
        .filter(|d| {
            d.get_object_id("_id").ok() == Some(comment.id)
                || d.get_array("ancestors")
                    .is_ok_and(|a| a.iter().any(|x| x.as_object_id() == Some(comment.id)))
        })
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect();
    let mut removed = collection(db)
        .delete_many(doc! { "_id": { "$in": &ids } })
        .await
        .db_context("deleting comments")?
        .deleted_count;
    removed += collection(db)
        .delete_many(doc! { "post": comment.post, "parent": { "$in": &ids } })
        .await
        .db_context("deleting comments")?
        .deleted_count;
    reactions(db)
        .delete_many(doc! { "commentId": { "$in": &ids } })
        .await
        .db_context("deleting reactions")?;
    sync_count(db, comment.post).await?;
    Ok(removed)
}

/// Removes one comment if it is still there (undoing an insert); returns whether it was.
pub async fn retract(db: &Db, comment: &Comment) -> DbResult<bool> {
    let gone = collection(db)
        .delete_one(doc! { "_id": comment.id })
        .await
        .db_context("retracting a comment")?;
    sync_count(db, comment.post).await?;
    Ok(gone.deleted_count > 0)
}

/// How many comments a user wrote.
pub async fn count_by_user(db: &Db, user: ObjectId) -> DbResult<u64> {
    collection(db)
        .count_documents(doc! { "user": user })
        .await
        .db_context("counting comments")
}

/// When each comment on these posts (blocked ones included) was written since `since`.
pub async fn times_for_posts(
    db: &Db,
    posts: &[ObjectId],
    since: DateTime,
) -> DbResult<Vec<DateTime>> {
    super::creation_times(
        &db.database().collection(COLLECTION),
        "post",
        posts,
        since,
        "listing comments",
    )
    .await
}
