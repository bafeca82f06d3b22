//! The `index_state` collection: whether the read index in Redis may have missed a write (one
//! document, `_id: "read_index"`). A write whose change could not reach Redis marks it stale here,
//! in the record, so that every node, and this one after a restart, knows to rebuild the index
//! before reading from it again.

use mongodb::bson::{doc, Document};

use super::{now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "index_state";
const READ_INDEX: &str = "read_index";

/// Records that the read index missed a write.
pub async fn mark_stale(db: &Db) -> DbResult<()> {
    db.database()
        .collection::<Document>(COLLECTION)
        .update_one(
            doc! { "_id": READ_INDEX },
            doc! { "$set": { "stale": true, "staleSince": now() } },
        )
        .upsert(true)
        .await
        .db_context("marking the read index stale")?;
    Ok(())
}

/// Records that a rebuild has started from the records as they are now.
pub async fn clear_stale(db: &Db) -> DbResult<()> {
    db.database()
        .collection::<Document>(COLLECTION)
        .update_one(
            doc! { "_id": READ_INDEX },
            doc! { "$set": { "stale": false, "rebuiltAt": now() } },
        )
        .upsert(true)
        .await
        .db_context("clearing the read index's stale mark")?;
    Ok(())
}

/// Whether the read index missed a write since its last rebuild started.
pub async fn is_stale(db: &Db) -> DbResult<bool> {
    let found = db
        .database()
        .collection::<Document>(COLLECTION)
        .find_one(doc! { "_id": READ_INDEX })
        .await
        .db_context("reading the read index state")?;
    Ok(found.is_some_and(|d| d.get_bool("stale").unwrap_or(false)))
}
