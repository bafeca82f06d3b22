//! The `reading_times` collection: one record per report of seconds spent reading a post
//! (`{postId, reader, userId, seconds, createdAt}`), so totals, per-reader figures and per-day
//! series all come from the same records and simultaneous reports never overwrite each other. A
//! reader is `user:<id>`, `guest:<id>` or `ip:<address>`.

use std::collections::{HashMap, HashSet};

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;

use super::{index, now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "reading_times";

fn collection(db: &Db) -> Collection<Document> {
    db.database().collection(COLLECTION)
}

/// One reader's time on one post.
#[derive(Debug, Clone, PartialEq)]
pub struct ReaderTime {
    pub reader: String,
    pub user: Option<ObjectId>,
    pub seconds: i64,
    pub sessions: i64,
    pub last_read_at: DateTime,
}

/// Reading time on one day.
#[derive(Debug, Clone, PartialEq)]
pub struct DayTime {
    pub day: String,
    pub seconds: i64,
}

/// Records by post and reader, and by post and time.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let by_reader = index(doc! { "postId": 1, "reader": 1 }, "post_reader");
    let by_time = index(doc! { "postId": 1, "createdAt": -1 }, "post_created");
    super::create_indexes(
        &collection(db),
        [by_reader, by_time],
        "creating reading time indexes",
    )
    .await?;
    Ok(())
}

/// The UTC day of a time, `YYYY-MM-DD`.
pub fn day_of(at: DateTime) -> String {
    at.to_chrono().format("%Y-%m-%d").to_string()
}

fn seconds_of(d: &Document) -> i64 {
    d.get_i64("seconds")
        .or_else(|_| d.get_i32("seconds").map(i64::from))
        .unwrap_or(0)
}

async fn records(db: &Db, filter: Document) -> DbResult<Vec<Document>> {
    collection(db)
        .find(filter)
        .await
        .db_context("listing reading time")?
        .try_collect()
        .await
        .db_context("reading reading time")
}

/// Records seconds a reader spent on a post, at most `cap` seconds per reader and post within
/// any `window_ms` (reports past it add what is left, or nothing); returns the reader's total on
/// the post.
pub async fn add(
    db: &Db,
    post: ObjectId,
    reader: &str,
    user: Option<ObjectId>,
    seconds: i64,
    cap: i64,
    window_ms: i64,
) -> DbResult<i64> {
    let at = now();
    let since = DateTime::from_millis(at.timestamp_millis() - window_ms);
    let mine = records(db, doc! { "postId": post, "reader": reader }).await?;
    let recent: i64 = mine
        .iter()
        .filter(|d| d.get_datetime("createdAt").is_ok_and(|t| *t > since))
        .map(seconds_of)
        .sum();
    let total: i64 = mine.iter().map(seconds_of).sum();
    let counted = seconds.min(cap - recent);
    if counted <= 0 {
        return Ok(total);
    }
    collection(db)
        .insert_one(doc! {
            "postId": post,
            "reader": reader,
            "userId": user,
            "seconds": counted,
            "createdAt": at,
        })
        .await
        .db_context("adding reading time")?;
    Ok(total + counted)
}

/// Which of `posts` the reader (`user:<id>`, …) has spent time on.
pub async fn read_by(
    db: &Db,
    posts: &[ObjectId],
    reader: &str,
) -> DbResult<std::collections::HashSet<ObjectId>> {
    if posts.is_empty() {
        return Ok(Default::default());
    }
    let docs: Vec<Document> = collection(db)
        .find(doc! { "postId": { "$in": posts }, "reader": reader })
        .projection(doc! { "postId": 1 })
        .await
        .db_context("reading what a reader read")?
        .try_collect()
        .await
        .db_context("reading what a reader read")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("postId").ok())
        .collect())
}

/// Each reader's time on a post, longest first.
pub async fn readers_of(db: &Db, post: ObjectId) -> DbResult<Vec<ReaderTime>> {
    let mut by_reader: HashMap<String, ReaderTime> = HashMap::new();
    for d in records(db, doc! { "postId": post }).await? {
        let reader = d.get_str("reader").unwrap_or_default().to_string();
        let at = d.get_datetime("createdAt").ok().copied().unwrap_or(now());
        let entry = by_reader.entry(reader.clone()).or_insert(ReaderTime {
            reader,
            user: None,
            seconds: 0,
            sessions: 0,
            last_read_at: at,
        });
        entry.seconds += seconds_of(&d);
        entry.sessions += 1;
        if let Ok(user) = d.get_object_id("userId") {
            entry.user = Some(user);
        }
        if at > entry.last_read_at {
            entry.last_read_at = at;
        }
    }
    let mut readers: Vec<ReaderTime> = by_reader.into_values().collect();
    readers.sort_by(|a, b| b.seconds.cmp(&a.seconds).then(a.reader.cmp(&b.reader)));
    Ok(readers)
}

/// Total seconds, and distinct (post, reader) pairs, across these posts.
pub async fn totals_for_posts(db: &Db, posts: &[ObjectId]) -> DbResult<(i64, u64)> {
    let mut seconds = 0;
    let mut readers = HashSet::new();
    for d in records(db, doc! { "postId": { "$in": posts } }).await? {
        seconds += seconds_of(&d);
        if let (Ok(post), Ok(reader)) = (d.get_object_id("postId"), d.get_str("reader")) {
            readers.insert((post, reader.to_string()));
        }
    }
    Ok((seconds, readers.len() as u64))
}

/// Seconds per UTC day across these posts since `since`.
pub async fn days_for_posts(
    db: &Db,
    posts: &[ObjectId],
    since: DateTime,
) -> DbResult<Vec<DayTime>> {
    let mut by_day: HashMap<String, i64> = HashMap::new();
    let filter = doc! { "postId": { "$in": posts }, "createdAt": { "$gte": since } };
    for d in records(db, filter).await? {
        if let Ok(at) = d.get_datetime("createdAt") {
            *by_day.entry(day_of(*at)).or_default() += seconds_of(&d);
        }
    }
    Ok(by_day
        .into_iter()
        .map(|(day, seconds)| DayTime { day, seconds })
        .collect())
}
