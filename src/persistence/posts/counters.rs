//! The posts' counters (likes, comments, shares, …): the per-post lock that serialises a
//! counter's recount, and the repair of a counter from the records it counts.

use super::*;
use crate::persistence::leases;

/// Stores the vote counts of a poll block (`set`: `blocks.<n>.data.options.<m>.votes` → count),
/// if block `index` still has `block_id`; the caller holds the post's lock.
pub async fn store_poll_counts(
    db: &Db,
    id: ObjectId,
    index: usize,
    block_id: &str,
    set: Document,
) -> DbResult<()> {
    let res = collection(db)
        .update_one(
            doc! { "_id": id, format!("blocks.{index}.id"): block_id },
            doc! { "$set": set },
        )
        .await
        .db_context("storing poll counts")?;
    if res.matched_count == 1 {
        db.changed(Change::Posts(vec![id])).await;
    }
    Ok(())
}

/// A post counter the engagement API keeps, each the number of its records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    Likes,
    Bookmarks,
    Views,
    Shares,
    Comments,
}

impl Counter {
    /// The stored field.
    pub fn field(self) -> &'static str {
        match self {
            Counter::Likes => "likesCount",
            Counter::Bookmarks => "bookmarksCount",
            Counter::Views => "views",
            Counter::Shares => "shareCount",
            Counter::Comments => "commentsCount",
        }
    }

    fn value_of(self, post: &Post) -> i64 {
        match self {
            Counter::Likes => post.likes_count,
            Counter::Bookmarks => post.bookmarks_count,
            Counter::Views => post.views,
            Counter::Shares => post.share_count,
            Counter::Comments => post.comments_count,
        }
    }
}

/// Where per-post locks live: `{_id: postId, owner, until}` (a lease of [`super::super::leases`]).
pub const LOCKS: &str = "post_locks";
/// A lock older than this is taken to be abandoned (its holder crashed) and may be taken over.
pub const LOCK_STALE_MS: i64 = 10_000;
/// How long a writer waits for a post's lock before writing without it.
pub const LOCK_WAIT_MS: u64 = 10_000;

/// Runs `work` while holding the post's lock, so engagement writes to one post happen one at a
/// time on every node. FerretDB v1 applies each update as read-modify-write of the whole
/// document, so two simultaneous `$inc`s (or `$set`s of different fields) can lose one another;
/// serialising the writers through a lease taken by a unique `_id` insert (which is atomic)
/// prevents that. The work runs on its own task, so a request that goes away mid-way still
/// releases the lock.
pub async fn with_post_lock<T, F>(db: &Db, post: ObjectId, work: F) -> DbResult<T>
where
    T: Send + 'static,
    F: std::future::Future<Output = DbResult<T>> + Send + 'static,
{
    let db = db.clone();
    let task = tokio::spawn(async move {
        let owner = ObjectId::new().to_hex();
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(LOCK_WAIT_MS);
        let mut held = false;
        while std::time::Instant::now() < deadline {
            if leases::take(&db, LOCKS, post, &owner, LOCK_STALE_MS).await? {
                held = true;
                break;
            }
            let pause = rand::random::<u64>() % 8 + 2;
            tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
        }
        if !held {
            tracing::warn!(%post, "post lock not acquired in time; writing without it");
        }
        let result = work.await;
        if held {
            leases::release(&db, LOCKS, post, &owner).await?;
        }
        result
    });
    task.await
        .map_err(|e| DbError::Other(anyhow::anyhow!("post lock task failed: {e}")))?
}

/// Sets a post counter to the number of `collection` documents matching `filter`, under the
/// post's lock. Returns the new value (`None`: no such post). Counting the records, rather than
/// adding to the stored number, keeps the counter equal to the records whatever happened before
/// (and so never below zero).
///
/// When the recount fails (the database went away between the record's write and this), the
/// record is stored but the counter is not: the recount is then retried in the background until
/// the database answers again, so the counter comes back to its records without waiting for the
/// post's next change.
pub async fn sync_counter(
    db: &Db,
    id: ObjectId,
    counter: Counter,
    collection_name: &'static str,
    filter: Document,
) -> DbResult<Option<i64>> {
    let result = sync_counter_once(db, id, counter, collection_name, filter.clone()).await;
    if result.is_err() {
        spawn_counter_repair(db.clone(), id, counter, collection_name, filter);
    }
    result
}

/// Recount attempts after a failed one (with doubling waits up to 5 s: about ten minutes).
const COUNTER_REPAIR_ATTEMPTS: u32 = 125;

fn spawn_counter_repair(
    db: Db,
    id: ObjectId,
    counter: Counter,
    collection_name: &'static str,
    filter: Document,
) {
    tokio::spawn(async move {
        let mut wait = std::time::Duration::from_millis(250);
        for _ in 0..COUNTER_REPAIR_ATTEMPTS {
            tokio::time::sleep(wait).await;
            match sync_counter_once(&db, id, counter, collection_name, filter.clone()).await {
                Ok(_) => {
                    tracing::info!(post = %id, counter = counter.field(), "post counter repaired");
                    return;
                }
                Err(e) => tracing::debug!(post = %id, error = %e, "post counter not repaired yet"),
            }
            wait = (wait * 2).min(std::time::Duration::from_secs(5));
        }
        tracing::warn!(post = %id, "a post counter could not be repaired; the post's next change recounts it");
    });
}

async fn sync_counter_once(
    db: &Db,
    id: ObjectId,
    counter: Counter,
    collection_name: &'static str,
    filter: Document,
) -> DbResult<Option<i64>> {
    let inner = db.clone();
    with_post_lock(db, id, async move {
        let count = inner
            .database()
            .collection::<Document>(collection_name)
            .count_documents(filter)
            .await
            .db_context("counting engagement records")?;
        let count = i64::try_from(count).unwrap_or(i64::MAX);
        let updated = collection(&inner)
            .update_one(
                doc! { "_id": id },
                doc! { "$set": { counter.field(): count } },
            )
            .await
            .db_context("updating a post counter")?;
        if updated.matched_count == 1 {
            inner.changed(Change::Posts(vec![id])).await;
        }
        Ok((updated.matched_count == 1).then_some(count))
    })
    .await
}

/// Reads one counter of a post (`None`: no such post).
pub async fn counter(db: &Db, id: ObjectId, counter: Counter) -> DbResult<Option<i64>> {
    let found = collection(db)
        .find_one(doc! { "_id": id })
        .projection(doc! { "blocks": 0, "searchText": 0 })
        .await
        .db_context("reading a post counter")?;
    Ok(found.map(|p| counter.value_of(&p)))
}
