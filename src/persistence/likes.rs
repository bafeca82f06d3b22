//! The `likes` collection: one document per (user, post), guarded by a unique index, paired with
//! the post's `likesCount`. The toggle here is shared with `bookmarks`.
//!
//! A toggle removes the mark if it is there, else inserts it; both are single atomic writes, and
//! a duplicate-key refusal means a simultaneous request already added it ("already done"). The
//! post counter is then set to the number of marks under the post's lock
//! (`posts::sync_counter`), so after any number of simultaneous toggles the counter equals the
//! records and is never negative.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;

use super::observer::Change;
use super::posts::{self, Counter};
use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "likes";

/// A per-(user, post) mark and the post counter it feeds.
#[derive(Debug, Clone, Copy)]
pub struct MarkKind {
    pub collection: &'static str,
    pub counter: Counter,
    /// Whether each user's marks form a list the read index keeps (bookmarks): every mark added
    /// or removed is then reported (`Change::Bookmark`).
    pub listed: bool,
}

/// Likes.
pub const LIKE: MarkKind = MarkKind {
    collection: COLLECTION,
    counter: Counter::Likes,
    listed: false,
};

/// Reports a listed mark added or removed.
async fn report(db: &Db, kind: MarkKind, mark: &Document, on: bool) {
    if !kind.listed {
        return;
    }
    let (Ok(id), Ok(user), Ok(post)) = (
        mark.get_object_id("_id"),
        mark.get_object_id("userId"),
        mark.get_object_id("postId"),
    ) else {
        return;
    };
    let at = mark
        .get_datetime("createdAt")
        .copied()
        .unwrap_or_else(|_| now());
    db.changed(Change::Bookmark {
        user,
        post,
        mark: id,
        at,
        on,
    })
    .await;
}

/// Removes every mark of a post (it is being deleted), reporting listed ones.
pub async fn remove_marks_of_post(db: &Db, kind: MarkKind, post: ObjectId) -> DbResult<()> {
    if kind.listed {
        let found: Vec<Document> = marks(db, kind)
            .find(doc! { "postId": post })
            .await
            .db_context("reading the marks of a post")?
            .try_collect()
            .await
            .db_context("reading the marks of a post")?;
        marks(db, kind)
            .delete_many(doc! { "postId": post })
            .await
            .db_context("removing the marks of a post")?;
        for mark in &found {
            report(db, kind, mark, false).await;
        }
    } else {
        marks(db, kind)
            .delete_many(doc! { "postId": post })
            .await
            .db_context("removing the marks of a post")?;
    }
    Ok(())
}

/// A mark as the read index keeps it: `(user, post, mark id, time)`.
pub type MarkRecord = (ObjectId, ObjectId, ObjectId, DateTime);

/// Every mark of a kind (`user`: only that user's), for rebuilding the read index.
pub async fn all_marks(
    db: &Db,
    kind: MarkKind,
    user: Option<ObjectId>,
) -> DbResult<Vec<MarkRecord>> {
    let filter = match user {
        Some(u) => doc! { "userId": u },
        None => doc! {},
    };
    let found: Vec<Document> = marks(db, kind)
        .find(filter)
        .await
        .db_context("reading every mark")?
        .try_collect()
        .await
        .db_context("reading every mark")?;
    Ok(found
        .iter()
        .filter_map(|m| {
            Some((
                m.get_object_id("userId").ok()?,
                m.get_object_id("postId").ok()?,
                m.get_object_id("_id").ok()?,
                m.get_datetime("createdAt").ok().copied()?,
            ))
        })
        .collect())
}

/// What a toggle did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Toggled {
    /// Whether the mark is there now.
    pub on: bool,
    /// Whether this request changed anything (false: a simultaneous request got there first).
    pub changed: bool,
    /// The post counter after the toggle.
    pub count: i64,
}

fn marks(db: &Db, kind: MarkKind) -> Collection<Document> {
    db.database().collection(kind.collection)
}

/// The unique (userId, postId) index and the per-post, per-user time indexes of a mark kind.
pub async fn ensure_mark_indexes(db: &Db, kind: MarkKind) -> DbResult<()> {
    let unique = unique_index(doc! { "userId": 1, "postId": 1 }, "user_post_unique");
    let by_post = index(doc! { "postId": 1, "createdAt": -1 }, "post_created");
    let by_user = index(doc! { "userId": 1, "createdAt": -1 }, "user_created");
    super::create_indexes(
        &marks(db, kind),
        [unique, by_post, by_user],
        "creating engagement mark indexes",
    )
    .await?;
    Ok(())
}

/// Indexes of `likes`.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    ensure_mark_indexes(db, LIKE).await
}

/// Sets the post's counter of this kind to the number of its marks (`None`: no such post).
pub async fn recount(db: &Db, kind: MarkKind, post: ObjectId) -> DbResult<Option<i64>> {
    posts::sync_counter(
        db,
        post,
        kind.counter,
        kind.collection,
        doc! { "postId": post },
    )
    .await
}

/// Adds the mark if it is absent, removes it if present, and recounts the post's counter.
/// `None`: the post no longer exists.
pub async fn toggle_mark(
    db: &Db,
    kind: MarkKind,
    user: ObjectId,
    post: ObjectId,
) -> DbResult<Option<Toggled>> {
    let removed = marks(db, kind)
        .find_one_and_delete(doc! { "userId": user, "postId": post })
        .await
        .db_context("removing an engagement mark")?;
    let (on, changed) = if let Some(mark) = removed {
        report(db, kind, &mark, false).await;
        (false, true)
    } else if has_mark(db, kind, user, post).await? {
        // Added by a simultaneous toggle since the delete looked.
        (true, false)
    } else {
        let mark =
            doc! { "_id": ObjectId::new(), "userId": user, "postId": post, "createdAt": now() };
        match marks(db, kind).insert_one(&mark).await {
            Ok(_) => {
                report(db, kind, &mark, true).await;
                (true, true)
            }
            // A simultaneous toggle added it: already done.
            Err(e) if is_duplicate_key(&e) => (true, false),
            Err(e) => return Err(e).db_context("adding an engagement mark"),
        }
    };
    let count = recount(db, kind, post).await?;
    let Some(count) = count else {
        // The post went away meanwhile: leave nothing behind.
        remove_marks_of_post(db, kind, post).await?;
        return Ok(None);
    };
    Ok(Some(Toggled { on, changed, count }))
}

/// Whether the user has the mark on the post.
pub async fn has_mark(db: &Db, kind: MarkKind, user: ObjectId, post: ObjectId) -> DbResult<bool> {
    Ok(marks(db, kind)
        .find_one(doc! { "userId": user, "postId": post })
        .projection(doc! { "_id": 1 })
        .await
        .db_context("reading an engagement mark")?
        .is_some())
}

/// The posts a user marked, newest mark first.
pub async fn posts_marked_by(
    db: &Db,
    kind: MarkKind,
    user: ObjectId,
    limit: i64,
) -> DbResult<Vec<ObjectId>> {
    let docs: Vec<Document> = marks(db, kind)
        .find(doc! { "userId": user })
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .limit(limit)
        .projection(doc! { "postId": 1 })
        .await
        .db_context("listing engagement marks")?
        .try_collect()
        .await
        .db_context("reading engagement marks")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("postId").ok())
        .collect())
}

/// When each mark on these posts was made (for per-day series).
pub async fn times_for_posts(
    db: &Db,
    kind: MarkKind,
    posts: &[ObjectId],
    since: DateTime,
) -> DbResult<Vec<DateTime>> {
    super::creation_times(
        &marks(db, kind),
        "postId",
        posts,
        since,
        "listing engagement marks",
    )
    .await
}

/// How many marks these posts hold.
pub async fn count_for_posts(db: &Db, kind: MarkKind, posts: &[ObjectId]) -> DbResult<u64> {
    marks(db, kind)
        .count_documents(doc! { "postId": { "$in": posts } })
        .await
        .db_context("counting engagement marks")
}

/// Whether the user likes the post.
pub async fn exists(db: &Db, user: ObjectId, post: ObjectId) -> DbResult<bool> {
    has_mark(db, LIKE, user, post).await
}
