//! The `blocks` collection: `{blockerId, blockedId, createdAt}`, one document per pair under a
//! unique index. Feeds read it through `graph::hidden_from`.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;

use super::graph::BLOCKS;
use super::observer::Change;
use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = BLOCKS;

fn collection(db: &Db) -> Collection<Document> {
    db.database().collection(COLLECTION)
}

/// The unique (blockerId, blockedId) index and the reverse lookup.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let unique = unique_index(
        doc! { "blockerId": 1, "blockedId": 1 },
        "blocker_blocked_unique",
    );
    let reverse = index(doc! { "blockedId": 1 }, "blocked");
    super::create_indexes(&collection(db), [unique, reverse], "creating block indexes").await?;
    Ok(())
}

/// Blocks; returns whether this call created the block.
pub async fn block(db: &Db, blocker: ObjectId, blocked: ObjectId) -> DbResult<bool> {
    // The unique index settles races; this check keeps repeats harmless even before it exists.
    if has_blocked(db, blocker, blocked).await? {
        return Ok(false);
    }
    let created = match collection(db)
        .insert_one(doc! { "blockerId": blocker, "blockedId": blocked, "createdAt": now() })
        .await
    {
        Ok(_) => true,
        Err(e) if is_duplicate_key(&e) => false,
        Err(e) => return Err(e).db_context("blocking a user"),
    };
    db.changed(Change::Block {
        blocker,
        blocked,
        on: true,
    })
    .await;
    Ok(created)
}

/// Unblocks; returns whether a block was removed.
pub async fn unblock(db: &Db, blocker: ObjectId, blocked: ObjectId) -> DbResult<bool> {
    let r = collection(db)
        .delete_one(doc! { "blockerId": blocker, "blockedId": blocked })
        .await
        .db_context("unblocking a user")?;
    db.changed(Change::Block {
        blocker,
        blocked,
        on: false,
    })
    .await;
    Ok(r.deleted_count == 1)
}

/// The users `blocker` blocked, newest block first, with when each block was made.
pub async fn blocked_by(db: &Db, blocker: ObjectId) -> DbResult<Vec<(ObjectId, DateTime)>> {
    use futures_util::TryStreamExt;
    let docs: Vec<Document> = collection(db)
        .find(doc! { "blockerId": blocker })
        .projection(doc! { "blockedId": 1, "createdAt": 1 })
        .await
        .db_context("reading blocks")?
        .try_collect()
        .await
        .db_context("reading blocks")?;
    let mut found: Vec<(ObjectId, DateTime)> = docs
        .iter()
        .filter_map(|d| {
            let id = d.get_object_id("blockedId").ok()?;
            let at = d
                .get_datetime("createdAt")
                .copied()
                .unwrap_or(DateTime::from_millis(0));
            Some((id, at))
        })
        .collect();
    found.sort_by(|a, b| b.1.cmp(&a.1).then(b.0.cmp(&a.0)));
    Ok(found)
}

/// The users `user` blocked and the users who blocked `user`.
pub async fn related_to(db: &Db, user: ObjectId) -> DbResult<Vec<ObjectId>> {
    use futures_util::TryStreamExt;
    let docs: Vec<Document> = collection(db)
        .find(doc! { "$or": [ { "blockerId": user }, { "blockedId": user } ] })
        .projection(doc! { "blockerId": 1, "blockedId": 1 })
        .await
        .db_context("reading blocks")?
        .try_collect()
        .await
        .db_context("reading blocks")?;
    Ok(docs
        .iter()
        .filter_map(|d| {
            let blocker = d.get_object_id("blockerId").ok()?;
            let blocked = d.get_object_id("blockedId").ok()?;
            Some(if blocker == user { blocked } else { blocker })
        })
        .collect())
}

/// Whether `blocker` blocked `blocked` (one direction only).
pub async fn has_blocked(db: &Db, blocker: ObjectId, blocked: ObjectId) -> DbResult<bool> {
    Ok(collection(db)
        .find_one(doc! { "blockerId": blocker, "blockedId": blocked })
        .projection(doc! { "_id": 1 })
        .await
        .db_context("reading blocks")?
        .is_some())
}

/// Whether either user blocked the other.
pub async fn between(db: &Db, a: ObjectId, b: ObjectId) -> DbResult<bool> {
    Ok(collection(db)
        .find_one(doc! { "$or": [
            { "blockerId": a, "blockedId": b },
            { "blockerId": b, "blockedId": a },
        ] })
        .projection(doc! { "_id": 1 })
        .await
        .db_context("reading blocks")?
        .is_some())
}
