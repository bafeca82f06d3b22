//! The `bookmarks` collection: one document per (user, post) under a unique index, paired with
//! the post's `bookmarksCount` (the toggle is the one of `likes`).

use mongodb::bson::oid::ObjectId;

use super::likes::{self, MarkKind};
use super::posts::Counter;
use super::{Db, DbResult};

pub const COLLECTION: &str = super::observer::BOOKMARKS;
/// How many bookmarked posts the list returns at most.
pub const MAX_LISTED: i64 = 500;

/// Bookmarks.
pub const BOOKMARK: MarkKind = MarkKind {
    collection: COLLECTION,
    counter: Counter::Bookmarks,
    listed: true,
};

/// The unique (userId, postId) index and the time indexes.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    likes::ensure_mark_indexes(db, BOOKMARK).await
}

/// Whether the user bookmarked the post.
pub async fn exists(db: &Db, user: ObjectId, post: ObjectId) -> DbResult<bool> {
    likes::has_mark(db, BOOKMARK, user, post).await
}

/// The posts the user bookmarked, newest bookmark first.
pub async fn post_ids_of(db: &Db, user: ObjectId) -> DbResult<Vec<ObjectId>> {
    likes::posts_marked_by(db, BOOKMARK, user, MAX_LISTED).await
}
