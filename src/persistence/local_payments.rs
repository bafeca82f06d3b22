//! The `local_payments` collection: what the local (test-mode) payment provider answered, keyed
//! by idempotency key, so a replayed call answers exactly what the first one did — the same
//! guarantee Stripe gives for an `Idempotency-Key`.

use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, Db, DbContext, DbResult};

pub const COLLECTION: &str = "local_payments";

/// One call of the local provider and its answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LocalRecord {
    /// The idempotency key.
    #[serde(rename = "_id")]
    pub key: String,
    /// `customer`, `charge`, `refund`, `destination`, `payout`, ...
    pub kind: String,
    /// The object id the call created (`local_pi_...`).
    pub object_id: String,
    /// The answer, as the provider gives it back on a replay.
    pub result: Document,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<LocalRecord> {
    db.database().collection(COLLECTION)
}

/// By object id (`retrieve`).
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [index(doc! { "objectId": 1 }, "object_id")],
        "creating local payment indexes",
    )
    .await?;
    Ok(())
}

/// Stores the answer of a call unless one is stored for its key; returns the stored answer.
pub async fn record_once(db: &Db, record: LocalRecord) -> DbResult<LocalRecord> {
    if let Some(found) = find(db, &record.key).await? {
        return Ok(found);
    }
    match collection(db).insert_one(&record).await {
        Ok(_) => Ok(record),
        Err(e) if is_duplicate_key(&e) => find(db, &record.key)
            .await?
            .ok_or_else(|| anyhow::anyhow!("local payment record vanished").into()),
        Err(e) => Err(e).db_context("recording a local payment"),
    }
}

/// The answer stored for a key.
pub async fn find(db: &Db, key: &str) -> DbResult<Option<LocalRecord>> {
    collection(db)
        .find_one(doc! { "_id": key })
        .await
        .db_context("reading a local payment")
}

/// The record that created an object.
pub async fn find_object(db: &Db, object_id: &str) -> DbResult<Option<LocalRecord>> {
    collection(db)
        .find_one(doc! { "objectId": object_id })
        .await
        .db_context("reading a local payment")
}

/// Replaces the stored answer of an object (a refund of a charge marks the charge refunded).
pub async fn set_result(db: &Db, object_id: &str, result: Document) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "objectId": object_id },
            doc! { "$set": { "result": result } },
        )
        .await
        .db_context("updating a local payment")?;
    Ok(())
}
