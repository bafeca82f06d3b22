//! The `shares` collection: one event per counted share of a post; the post's `shareCount` is
//! their number. A reader's shares of a post count once a day (`share_windows`, like the views'
//! windows).

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;

use super::posts::{self, Counter};
use super::{index, now, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "shares";
pub const WINDOWS: &str = "share_windows";
/// A reader's shares of one post count once per this many milliseconds (a day).
pub const SHARE_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

fn collection(db: &Db) -> Collection<Document> {
    db.database().collection(COLLECTION)
}

/// Shares by post and time.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    collection(db)
        .create_index(index(doc! { "postId": 1, "createdAt": -1 }, "post_created"))
        .await
        .db_context("creating share indexes")?;
    db.database()
        .collection::<Document>(WINDOWS)
        .create_index(unique_index(
            doc! { "postId": 1, "viewer": 1 },
            "post_viewer_unique",
        ))
        .await
        .db_context("creating share window indexes")?;
    Ok(())
}

/// Claims a counted share for this reader (`crate::counting::Reader::key`) if their last counted
/// share of the post is older than a day; returns whether this share counts.
pub async fn claim(db: &Db, post: ObjectId, reader: &str) -> DbResult<bool> {
    super::views::claim_window(db, WINDOWS, post, reader, SHARE_WINDOW_MS).await
}

/// Records a share and recounts the post's `shareCount`; returns the new count (`None`: no such
/// post).
pub async fn record(
    db: &Db,
    post: ObjectId,
    reader: &str,
    user: Option<ObjectId>,
) -> DbResult<Option<i64>> {
    collection(db)
        .insert_one(doc! { "postId": post, "reader": reader, "userId": user, "createdAt": now() })
        .await
        .db_context("recording a share")?;
    let count = posts::sync_counter(
        db,
        post,
        Counter::Shares,
        COLLECTION,
        doc! { "postId": post },
    )
    .await?;
    if count.is_none() {
        collection(db)
            .delete_many(doc! { "postId": post })
            .await
            .db_context("removing orphaned shares")?;
    }
    Ok(count)
}

/// When each share of these posts happened since `since`.
pub async fn times_for_posts(
    db: &Db,
    posts: &[ObjectId],
    since: DateTime,
) -> DbResult<Vec<DateTime>> {
    super::creation_times(&collection(db), "postId", posts, since, "listing shares").await
}
