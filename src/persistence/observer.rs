//! Who hears of writes. Everything derived from the records — the read index in Redis (ordered
//! lists, counts, post cards, cached author and category cards) and the search index — is kept
//! by these reports: each write of `posts`, `users`, `categories`, `follows`, `blocks` and
//! `bookmarks` goes through its persistence module, which reports what it changed here once the
//! write is done. So a new code path that writes posts through `persistence::posts` cannot leave
//! the indexes behind.
//!
//! The observer is installed on the `Db` handle at startup (`Db::with_observer`); it lives outside
//! persistence and reads back through it, so persistence knows only this trait. A `Db` without an
//! observer (tests, one-off commands) writes the records alone.

use futures_util::future::BoxFuture;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;

/// The bookmarks' collection (`persistence::bookmarks` stores under this name), which the observer
/// follows record by record.
pub const BOOKMARKS: &str = "bookmarks";

/// What a write changed.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// These posts were inserted, changed or deleted.
    Posts(Vec<ObjectId>),
    /// The stored trending scores of these posts were set (the periodic refresh).
    TrendingScores(Vec<(ObjectId, f64)>),
    /// These users were created, changed (name, avatar, block state, role, post count) or
    /// deleted.
    Users(Vec<ObjectId>),
    /// These categories were changed or deleted.
    Categories(Vec<ObjectId>),
    /// `follower` follows (`on`) or stopped following `followee`.
    Follow {
        follower: ObjectId,
        followee: ObjectId,
        on: bool,
    },
    /// `blocker` blocked (`on`) or unblocked `blocked`.
    Block {
        blocker: ObjectId,
        blocked: ObjectId,
        on: bool,
    },
    /// `user` bookmarked (`on`) or took back a bookmark of `post`; `mark` is the bookmark
    /// record's id and `at` its time.
    Bookmark {
        user: ObjectId,
        post: ObjectId,
        mark: ObjectId,
        at: DateTime,
        on: bool,
    },
}

/// Hears every change after it is written. It must not fail the write: whatever it cannot apply
/// it records so that its derived data is rebuilt.
pub trait WriteObserver: Send + Sync {
    fn changed(&self, change: Change) -> BoxFuture<'_, ()>;
}

/// The change that removing this record of `collection` is, for the collections the observer
/// follows record by record (follows, blocks, bookmarks); `None` for others.
pub fn removal_of(collection: &str, record: &mongodb::bson::Document) -> Option<Change> {
    let id = |field: &str| record.get_object_id(field).ok();
    match collection {
        super::graph::FOLLOWS => Some(Change::Follow {
            follower: id("followerId")?,
            followee: id("followeeId")?,
            on: false,
        }),
        super::graph::BLOCKS => Some(Change::Block {
            blocker: id("blockerId")?,
            blocked: id("blockedId")?,
            on: false,
        }),
        BOOKMARKS => Some(Change::Bookmark {
            user: id("userId")?,
            post: id("postId")?,
            mark: id("_id")?,
            at: record
                .get_datetime("createdAt")
                .copied()
                .unwrap_or_else(|_| DateTime::now()),
            on: false,
        }),
        _ => None,
    }
}

/// Whether the observer follows the records of `collection` one by one.
pub fn follows_records_of(collection: &str) -> bool {
    [super::graph::FOLLOWS, super::graph::BLOCKS, BOOKMARKS].contains(&collection)
}
