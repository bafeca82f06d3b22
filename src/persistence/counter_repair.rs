//! Counters a crash may have left behind their records. A like, bookmark or comment is written and
//! then its post's counter recounted; a process killed between the two leaves the record stored and
//! the counter one short. At start, the server recounts the posts that received such records
//! recently (in the background; the recount is idempotent).
//!
//! Not covered: a removal (an unlike) cut off the same way leaves its counter one too high until
//! the post's next change recounts it.

use std::collections::HashSet;
use std::time::Duration;

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};

use super::{bookmarks, comments, likes, Db, DbContext, DbResult};

/// How far back start-up looks for records whose counter may have been missed.
pub const RECENT: Duration = Duration::from_secs(3600);

/// Posts with a like, bookmark or comment written since `since`.
async fn recently_marked(db: &Db, since: DateTime) -> DbResult<HashSet<ObjectId>> {
    let mut found = HashSet::new();
    for (collection, field) in [
        (likes::LIKE.collection, "postId"),
        (bookmarks::BOOKMARK.collection, "postId"),
        (comments::COLLECTION, "post"),
    ] {
        let mut cursor = db
            .database()
            .collection::<Document>(collection)
            .find(doc! { "createdAt": { "$gte": since } })
            .projection(doc! { field: 1 })
            .await
            .db_context("finding recent engagement records")?;
        while let Some(record) = cursor
            .try_next()
            .await
            .db_context("finding recent engagement records")?
        {
            if let Ok(post) = record.get_object_id(field) {
                found.insert(post);
            }
        }
    }
    Ok(found)
}

/// Recounts the like, bookmark and comment counters of the posts written to in the last
/// [`RECENT`]; returns how many posts were recounted.
pub async fn recount_recent(db: &Db) -> DbResult<usize> {
    let since = DateTime::from_millis(
        DateTime::now().timestamp_millis() - i64::try_from(RECENT.as_millis()).unwrap_or(0),
    );
    let posts = recently_marked(db, since).await?;
    for &post in &posts {
        likes::recount(db, likes::LIKE, post).await?;
        likes::recount(db, bookmarks::BOOKMARK, post).await?;
        comments::sync_count(db, post).await?;
    }
    Ok(posts.len())
}

/// Runs [`recount_recent`] in the background, retrying while the database is away.
pub fn spawn_at_start(db: Db) {
    tokio::spawn(async move {
        for attempt in 0..60u32 {
            match recount_recent(&db).await {
                Ok(n) => {
                    tracing::info!(
                        posts = n,
                        "recounted the counters of recently written posts"
                    );
                    return;
                }
                Err(e) => tracing::debug!(attempt, error = %e, "start-up recount postponed"),
            }
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
    });
}
