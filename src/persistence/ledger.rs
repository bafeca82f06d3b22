//! The `ledger` collection: the authors' earnings, append-only. Every entry belongs to one
//! author and has a position `seq` in that author's chain, unique with the author, so an entry is
//! appended only at the position after the last one its writer read: two writers racing for the
//! same position cannot both succeed (FerretDB has no transactions; a unique index is its atomic
//! step). Each entry also names its source (`kind` + `source`, unique), so the same charge,
//! refund or payout is written once however often it is reported. Balances are sums of entries.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, unique_index, Db, DbContext, DbError, DbResult};

pub const COLLECTION: &str = "ledger";

/// What an entry records. `amount` is its effect on the author's balance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A successful charge: `gross` is the price, `fee` the platform's share, `amount` the rest.
    Charge,
    /// A refund of a charge: the negatives of its charge entry.
    Refund,
    /// A refund the provider failed after it was booked: the negatives of the refund entry.
    RefundReversal,
    /// Money paid out: `amount` is negative.
    Payout,
    /// A payout the provider refused: the money comes back.
    PayoutReversal,
}

impl EntryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::Charge => "charge",
            EntryKind::Refund => "refund",
            EntryKind::RefundReversal => "refund_reversal",
            EntryKind::Payout => "payout",
            EntryKind::PayoutReversal => "payout_reversal",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub author_id: ObjectId,
    /// Position in the author's chain, from 1.
    pub seq: i64,
    pub kind: EntryKind,
    /// What it records: a payment, refund or payout id.
    pub source: String,
    pub currency: String,
    #[serde(default)]
    pub gross: i64,
    #[serde(default)]
    pub fee: i64,
    pub amount: i64,
    #[serde(default)]
    pub plan_id: Option<ObjectId>,
    #[serde(default)]
    pub subscription_id: Option<ObjectId>,
    /// The post a tip came for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_id: Option<ObjectId>,
    /// The tip this entry records (a tip's charge, or its refund).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tip_id: Option<ObjectId>,
    pub created_at: DateTime,
}

/// Why an append did not happen.
#[derive(Debug)]
pub enum AppendRefused {
    /// Someone else took the position: read again.
    PositionTaken,
    /// This source is already in the ledger (here is its entry).
    AlreadyRecorded(Box<Entry>),
}

fn collection(db: &Db) -> Collection<Entry> {
    db.database().collection(COLLECTION)
}

/// One position per author; one entry per source; per plan for analytics.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            unique_index(doc! { "authorId": 1, "seq": 1 }, "author_seq_unique"),
            unique_index(doc! { "kind": 1, "source": 1 }, "kind_source_unique"),
            index(doc! { "planId": 1 }, "plan"),
        ],
        "creating ledger indexes",
    )
    .await?;
    Ok(())
}

/// Entries matching `filter`, in chain order (by author, then position).
pub async fn find(db: &Db, filter: Document) -> DbResult<Vec<Entry>> {
    let mut entries: Vec<Entry> = collection(db)
        .find(filter)
        .await
        .db_context("reading the ledger")?
        .try_collect()
        .await
        .db_context("reading the ledger")?;
    entries.sort_by(|a, b| a.author_id.cmp(&b.author_id).then(a.seq.cmp(&b.seq)));
    Ok(entries)
}

/// Every entry of plan `plan`, in chain order.
pub async fn of_plan(db: &Db, plan: ObjectId) -> DbResult<Vec<Entry>> {
    find(db, doc! { "planId": plan }).await
}

/// Every entry of every author, in chain order.
pub async fn all(db: &Db) -> DbResult<Vec<Entry>> {
    find(db, doc! {}).await
}

/// An author's whole chain.
pub async fn for_author(db: &Db, author: ObjectId) -> DbResult<Vec<Entry>> {
    find(db, doc! { "authorId": author }).await
}

/// The entry of a source, if written.
pub async fn find_source(db: &Db, kind: EntryKind, source: &str) -> DbResult<Option<Entry>> {
    collection(db)
        .find_one(doc! { "kind": kind.as_str(), "source": source })
        .await
        .db_context("reading the ledger")
}

/// Appends `entry` at its `seq`. A refusal says whether the position or the source was taken.
pub async fn append_at(db: &Db, entry: &Entry) -> DbResult<Result<(), AppendRefused>> {
    match collection(db).insert_one(entry).await {
        Ok(_) => Ok(Ok(())),
        Err(e) if is_duplicate_key(&e) => match find_source(db, entry.kind, &entry.source).await? {
            Some(existing) => Ok(Err(AppendRefused::AlreadyRecorded(Box::new(existing)))),
            None => Ok(Err(AppendRefused::PositionTaken)),
        },
        Err(e) => Err(e).db_context("appending to the ledger"),
    }
}

/// The last position of an author's chain (0 when empty).
pub async fn last_seq(db: &Db, author: ObjectId) -> DbResult<i64> {
    let last = collection(db)
        .find_one(doc! { "authorId": author })
        .sort(doc! { "seq": -1 })
        .await
        .db_context("reading the ledger")?;
    Ok(last.map(|e| e.seq).unwrap_or(0))
}

/// Maps a refused append that should not happen to an error.
pub fn unexpected(what: &'static str) -> DbError {
    DbError::Other(anyhow::anyhow!("ledger append kept failing: {what}"))
}
