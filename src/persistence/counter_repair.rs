//! Counters a crash may have left behind their records. A like, bookmark or comment is written and
//! then its post's counter recounted; a process killed between the two leaves the record stored and
//! the counter one short. At start, the server recounts the posts that received such records
//! recently (in the background; the recount is idempotent).
//!
//! Not covered: a removal (an unlike) cut off the same way leaves its counter one too high until
//! the post's next change recounts it.
//!
//! [`verify`] compares every post's counters with their records (`scripts/cli counters verify`)
//! and, asked to, sets the counters that differ to their records' number (`--repair`), so an
//! operator who found abuse or damage can correct the books after removing the bad records.

use std::collections::HashSet;
use std::time::Duration;

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};

use super::posts::{self, Counter};
use super::{bookmarks, comments, likes, shares, views, Db, DbContext, DbResult};

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

/// A post counter that differs from its records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterDifference {
    pub post: ObjectId,
    /// The stored field (`likesCount`, `bookmarksCount`, `views`, `shareCount`, `commentsCount`).
    pub field: &'static str,
    pub stored: i64,
    /// What the records count.
    pub records: i64,
    /// Whether it was set to `records`.
    pub repaired: bool,
}

/// What [`verify`] found.
#[derive(Debug, Clone, Default)]
pub struct Verification {
    pub posts: usize,
    pub differences: Vec<CounterDifference>,
}

/// Every counter, its records' collection, the field naming the post, and the records' filter.
fn counted() -> [(Counter, &'static str, &'static str, Document); 5] {
    [
        (Counter::Likes, likes::LIKE.collection, "postId", doc! {}),
        (
            Counter::Bookmarks,
            bookmarks::BOOKMARK.collection,
            "postId",
            doc! {},
        ),
        (Counter::Views, views::COLLECTION, "postId", doc! {}),
        (Counter::Shares, shares::COLLECTION, "postId", doc! {}),
        (
            Counter::Comments,
            comments::COLLECTION,
            "post",
            doc! { "blocked": false },
        ),
    ]
}

/// Records per post in one collection.
async fn records_per_post(
    db: &Db,
    collection: &str,
    field: &str,
    filter: Document,
) -> DbResult<std::collections::HashMap<ObjectId, i64>> {
    let mut cursor = db
        .database()
        .collection::<Document>(collection)
        .aggregate([
            doc! { "$match": filter },
            doc! { "$group": { "_id": format!("${field}"), "n": { "$sum": 1 } } },
        ])
        .await
        .db_context("counting engagement records")?;
    let mut counts = std::collections::HashMap::new();
    while let Some(row) = cursor
        .try_next()
        .await
        .db_context("counting engagement records")?
    {
        if let Ok(post) = row.get_object_id("_id") {
            let n = row
                .get_i64("n")
                .or_else(|_| row.get_i32("n").map(i64::from))
                .unwrap_or(0);
            counts.insert(post, n);
        }
    }
    Ok(counts)
}

fn stored_counter(post: &Document, field: &str) -> i64 {
    match post.get(field) {
        Some(mongodb::bson::Bson::Int64(n)) => *n,
        Some(mongodb::bson::Bson::Int32(n)) => i64::from(*n),
        Some(mongodb::bson::Bson::Double(n)) => *n as i64,
        _ => 0,
    }
}

/// Compares every post's like, bookmark, view, share and comment counters with their records;
/// with `repair`, recounts those that differ (under the post's lock, telling the read index).
pub async fn verify(db: &Db, repair: bool) -> DbResult<Verification> {
    let mut found = Verification::default();
    let mut tallies = Vec::new();
    for (counter, collection, field, filter) in counted() {
        tallies.push((
            counter,
            collection,
            field,
            filter.clone(),
            records_per_post(db, collection, field, filter).await?,
        ));
    }
    let mut cursor = db
        .database()
        .collection::<Document>(posts::COLLECTION)
        .find(doc! {})
        .projection(doc! {
            "likesCount": 1, "bookmarksCount": 1, "views": 1, "shareCount": 1, "commentsCount": 1,
        })
        .await
        .db_context("listing posts")?;
    let mut differing = Vec::new();
    while let Some(post) = cursor.try_next().await.db_context("listing posts")? {
        let Ok(id) = post.get_object_id("_id") else {
            continue;
        };
        found.posts += 1;
        for (counter, collection, field, filter, counts) in &tallies {
            let stored = stored_counter(&post, counter.field());
            let records = counts.get(&id).copied().unwrap_or(0);
            if stored != records {
                let mut filter = filter.clone();
                filter.insert(*field, id);
                differing.push((*counter, *collection, filter, id, stored, records));
            }
        }
    }
    for (counter, collection, filter, post, stored, records) in differing {
        let repaired = repair
            && posts::sync_counter(db, post, counter, collection, filter)
                .await?
                .is_some();
        found.differences.push(CounterDifference {
            post,
            field: counter.field(),
            stored,
            records,
            repaired,
        });
    }
    Ok(found)
}
