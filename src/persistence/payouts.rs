//! The `payouts` collection: money paid to authors. Each payout is keyed by
//! `payout:<author>:<currency>:<ledger position>` (unique), the same key the provider receives,
//! so a payout is made once per position of the author's ledger.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, now, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "payouts";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayoutRecord {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub author_id: ObjectId,
    pub amount: i64,
    pub currency: String,
    pub idempotency_key: String,
    /// The ledger position of its debit.
    pub ledger_seq: i64,
    /// The bank details' `paymentId` it was paid to.
    pub destination: String,
    /// `pending`, `paid` or `failed`.
    pub status: String,
    #[serde(default)]
    pub provider_payout_id: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
    pub requested_by: ObjectId,
    pub mode: String,
    pub created_at: DateTime,
    pub updated_at: DateTime,
}

fn collection(db: &Db) -> Collection<PayoutRecord> {
    db.database().collection(COLLECTION)
}

/// Unique key; per author; the pending ones by age (the billing job's sweep of stalled payouts).
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            unique_index(doc! { "idempotencyKey": 1 }, "idempotency_key_unique"),
            index(doc! { "authorId": 1, "createdAt": -1 }, "author_created"),
            index(doc! { "status": 1, "updatedAt": 1 }, "status_updated"),
        ],
        "creating payout indexes",
    )
    .await?;
    Ok(())
}

/// Inserts a payout (its key is new: its ledger position was just taken).
pub async fn insert(db: &Db, payout: &PayoutRecord) -> DbResult<()> {
    collection(db)
        .insert_one(payout)
        .await
        .db_context("recording a payout")?;
    Ok(())
}

/// Records the provider's answer.
pub async fn finish(
    db: &Db,
    id: ObjectId,
    status: &str,
    provider_payout_id: Option<&str>,
    error: Option<&str>,
) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": {
                "status": status,
                "providerPayoutId": provider_payout_id,
                "error": error,
                "updatedAt": now(),
            } },
        )
        .await
        .db_context("recording a payout outcome")?;
    Ok(())
}

/// Payouts matching `filter`, newest first.
pub async fn find(db: &Db, filter: Document) -> DbResult<Vec<PayoutRecord>> {
    let mut found: Vec<PayoutRecord> = collection(db)
        .find(filter)
        .await
        .db_context("listing payouts")?
        .try_collect()
        .await
        .db_context("reading payouts")?;
    found.sort_by_key(|p| std::cmp::Reverse(p.created_at));
    Ok(found)
}
