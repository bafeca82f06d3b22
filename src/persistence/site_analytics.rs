//! Reading the records behind the site analytics: counted views (`views`), guest visits
//! (`guest_visit_events`) and reading time (`reading_times`), each one document per act with its
//! `createdAt`. Records are streamed through a cursor, so a long range never sits in memory.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};

use super::{guest_visits, reading_time, views, Db, DbContext, DbResult};

/// The records read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Counted post views.
    Views,
    /// Reading time.
    ReadingTime,
    /// Guest visits of the site.
    GuestVisits,
}

/// One record, with what the analytics read of it (absent fields as `None`, seconds as 0).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record {
    pub post_id: Option<ObjectId>,
    pub user_id: Option<ObjectId>,
    /// Who viewed (a view's `viewer`).
    pub viewer: Option<String>,
    /// Who read (a reading time's `reader`).
    pub reader: Option<String>,
    pub seconds: i64,
    pub created_at: Option<DateTime>,
}

impl Record {
    fn of(d: &Document) -> Self {
        Record {
            post_id: d.get_object_id("postId").ok(),
            user_id: d.get_object_id("userId").ok(),
            viewer: d.get_str("viewer").ok().map(str::to_string),
            reader: d.get_str("reader").ok().map(str::to_string),
            seconds: d
                .get_i64("seconds")
                .or_else(|_| d.get_i32("seconds").map(i64::from))
                .unwrap_or(0),
            created_at: d.get_datetime("createdAt").ok().copied(),
        }
    }
}

/// Calls `each` with every record of `source` created in `[from, to)`.
pub async fn for_each_between(
    db: &Db,
    source: Source,
    from: DateTime,
    to: DateTime,
    mut each: impl FnMut(&Record),
) -> DbResult<()> {
    let fields =
        doc! { "postId": 1, "userId": 1, "viewer": 1, "reader": 1, "seconds": 1, "createdAt": 1 };
    let (collection, projection) = match source {
        Source::Views => (views::COLLECTION, fields),
        Source::ReadingTime => (reading_time::COLLECTION, fields),
        Source::GuestVisits => (guest_visits::EVENTS, doc! { "createdAt": 1 }),
    };
    let mut cursor = db
        .database()
        .collection::<Document>(collection)
        .find(doc! { "createdAt": { "$gte": from, "$lt": to } })
        .projection(projection)
        .batch_size(1000)
        .await
        .db_context("reading analytics records")?;
    while let Some(record) = cursor
        .try_next()
        .await
        .db_context("reading analytics records")?
    {
        each(&Record::of(&record));
    }
    Ok(())
}
