//! Reading the records behind the site analytics: counted views (`views`), guest visits
//! (`guest_visit_events`) and reading time (`reading_times`), each one document per act with its
//! `createdAt`. Records are streamed through a cursor, so a long range never sits in memory.

use futures_util::TryStreamExt;
use mongodb::bson::{doc, DateTime, Document};

use super::{Db, DbContext, DbResult};

/// Calls `each` with every record of `collection` created in `[from, to)`, reading only the
/// fields of `projection`.
pub async fn for_each_between(
    db: &Db,
    collection: &str,
    from: DateTime,
    to: DateTime,
    projection: Document,
    mut each: impl FnMut(&Document),
) -> DbResult<()> {
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
        each(&record);
    }
    Ok(())
}
