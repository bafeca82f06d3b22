//! The push outbox: `push_deliveries` holds one document per event and device until the push
//! service took it (then it is deleted), so a push goes out from the worker, off the request that
//! caused it, and an event reaches a device once: `(event, deviceId)` is unique. Workers take
//! batches under a lease (`sending` with a lease token and an expiry); a worker that stops leaves
//! its batch due again when the lease runs out. `push_like_batches` keeps, per person and post,
//! when likes were last pushed (at most one push per post per period).

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, insert_new, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "push_deliveries";
pub const LIKE_BATCHES: &str = "push_like_batches";

/// One message for one device.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PushDelivery {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// What the message is about (a notification's id, a banner's, a post's likes in a period).
    pub event: String,
    pub device_id: ObjectId,
    pub user_id: ObjectId,
    /// The message's JSON text (`domain::push::PushMessage`).
    pub payload: String,
    /// The `Topic` header.
    pub topic: String,
    /// The `Urgency` header (`normal`, `high`).
    pub urgency: String,
    /// `queued`, `sending` (under a lease) or `retrying`.
    pub status: String,
    /// Attempts made.
    #[serde(default)]
    pub attempt: i32,
    /// When it is due (for `sending`: when its lease ends).
    pub next_attempt_at: DateTime,
    #[serde(default)]
    pub lease: Option<String>,
    pub created_at: DateTime,
}

fn deliveries(db: &Db) -> Collection<PushDelivery> {
    db.database().collection(COLLECTION)
}

fn like_batches(db: &Db) -> Collection<Document> {
    db.database().collection(LIKE_BATCHES)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    deliveries(db)
        .create_index(unique_index(
            doc! { "event": 1, "deviceId": 1 },
            "event_device",
        ))
        .await
        .db_context("creating push delivery indexes")?;
    deliveries(db)
        .create_index(index(
            doc! { "status": 1, "nextAttemptAt": 1 },
            "status_due",
        ))
        .await
        .db_context("creating push delivery indexes")?;
    deliveries(db)
        .create_index(index(doc! { "lease": 1 }, "lease"))
        .await
        .db_context("creating push delivery indexes")?;
    Ok(())
}

/// Queues deliveries; one already queued for the same event and device is not queued again.
/// Answers how many were queued now.
pub async fn enqueue(db: &Db, batch: &[PushDelivery]) -> DbResult<usize> {
    let before = insert_new(&deliveries(db), batch, "queueing push deliveries").await?;
    Ok(batch.len() - before.len())
}

fn due(now: DateTime) -> Document {
    doc! { "$or": [
        { "status": "queued" },
        { "status": { "$in": ["retrying", "sending"] }, "nextAttemptAt": { "$lte": now } },
    ] }
}

/// Takes up to `limit` due deliveries under the lease `token` for `lease_ms`.
pub async fn take_due(
    db: &Db,
    token: &str,
    limit: i64,
    lease_ms: i64,
) -> DbResult<Vec<PushDelivery>> {
    let now = DateTime::now();
    let ids: Vec<ObjectId> = deliveries(db)
        .clone_with_type::<Document>()
        .find(due(now))
        .projection(doc! { "_id": 1 })
        .limit(limit)
        .await
        .db_context("finding due push deliveries")?
        .try_collect::<Vec<Document>>()
        .await
        .db_context("finding due push deliveries")?
        .into_iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let until = DateTime::from_millis(now.timestamp_millis() + lease_ms);
    // Only those still due are taken: another worker may have taken some meanwhile.
    let mut filter = due(now);
    filter.insert("_id", doc! { "$in": &ids });
    deliveries(db)
        .update_many(
            filter,
            doc! { "$set": { "status": "sending", "lease": token, "nextAttemptAt": until } },
        )
        .await
        .db_context("taking push deliveries")?;
    deliveries(db)
        .find(doc! { "lease": token, "status": "sending", "_id": { "$in": &ids } })
        .await
        .db_context("reading taken push deliveries")?
        .try_collect()
        .await
        .db_context("reading taken push deliveries")
}

/// Forgets deliveries that are done (sent, or given up), if this worker still holds them.
pub async fn finish(db: &Db, token: &str, ids: &[ObjectId]) -> DbResult<()> {
    if ids.is_empty() {
        return Ok(());
    }
    deliveries(db)
        .delete_many(doc! { "_id": { "$in": ids }, "lease": token })
        .await
        .db_context("finishing push deliveries")?;
    Ok(())
}

/// Schedules another attempt at `at`.
pub async fn retry(db: &Db, token: &str, id: ObjectId, at: DateTime) -> DbResult<()> {
    deliveries(db)
        .update_one(
            doc! { "_id": id, "lease": token },
            doc! {
                "$set": { "status": "retrying", "nextAttemptAt": at, "lease": null },
                "$inc": { "attempt": 1 },
            },
        )
        .await
        .db_context("scheduling a push retry")?;
    Ok(())
}

/// Drops whatever is queued for a device that is gone.
pub async fn drop_for_device(db: &Db, device: ObjectId) -> DbResult<()> {
    deliveries(db)
        .delete_many(doc! { "deviceId": device })
        .await
        .db_context("dropping push deliveries")?;
    Ok(())
}

/// Deliveries waiting (queued, sending or retrying).
pub async fn pending(db: &Db) -> DbResult<u64> {
    deliveries(db)
        .count_documents(doc! {})
        .await
        .db_context("counting push deliveries")
}

/// Claims the right to push about the likes of `post` to `user` now, when the last such push
/// is older than `period_ms` (or there was none). Answers the time of the last push (`None`
/// when there was none) when claimed, and `Err(())` inside `Ok` when a push went out within the
/// period.
pub async fn claim_like_push(
    db: &Db,
    user: ObjectId,
    post: ObjectId,
    period_ms: i64,
) -> DbResult<Result<Option<DateTime>, ()>> {
    let id = format!("{}:{}", user.to_hex(), post.to_hex());
    let now = DateTime::now();
    let before = DateTime::from_millis(now.timestamp_millis() - period_ms);
    let previous = like_batches(db)
        .find_one_and_update(
            doc! { "_id": &id, "at": { "$lte": before } },
            doc! { "$set": { "at": now } },
        )
        .await
        .db_context("claiming a like push")?;
    if let Some(previous) = previous {
        return Ok(Ok(previous.get_datetime("at").ok().copied()));
    }
    match like_batches(db)
        .insert_one(doc! { "_id": &id, "at": now })
        .await
    {
        Ok(_) => Ok(Ok(None)),
        Err(e) if super::is_duplicate_key(&e) => Ok(Err(())),
        Err(e) => Err(e).db_context("claiming a like push"),
    }
}
