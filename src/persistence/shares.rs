//! The `shares` collection: one event per share of a post; the post's `shareCount` is their
//! number.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;

use super::posts::{self, Counter};
use super::{index, now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "shares";

fn collection(db: &Db) -> Collection<Document> {
    db.database().collection(COLLECTION)
}

/// Shares by post and time.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    collection(db)
        .create_index(index(doc! { "postId": 1, "createdAt": -1 }, "post_created"))
        .await
        .db_context("creating share indexes")?;
    Ok(())
}

/// Records a share and recounts the post's `shareCount`; returns the new count (`None`: no such
/// post).
pub async fn record(db: &Db, post: ObjectId, user: Option<ObjectId>) -> DbResult<Option<i64>> {
    collection(db)
        .insert_one(doc! { "postId": post, "userId": user, "createdAt": now() })
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
