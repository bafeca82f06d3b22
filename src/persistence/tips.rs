//! The `tips` collection: one-off payments from a reader to a writer for one post, and the
//! writers' tip settings (`tip_settings`) and the claims that make one tip of simultaneous
//! requests (`tip_claims`).
//!
//! A tip is inserted `pending` before the provider is asked (under the idempotency key
//! `tip:<id>`), settles once (`pending` → `succeeded` | `failed`, a conditional update), and is
//! refunded once (`succeeded` → `refunding` → `refunded`, each a conditional update: the first is
//! the claim two refund requests race for). `requestKey` is unique: the reader's
//! `Idempotency-Key` (scoped to the reader), or the tip's own id when none was sent.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "tips";
pub const CLAIMS: &str = "tip_claims";
pub const SETTINGS: &str = "tip_settings";

/// Where a tip stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TipStatus {
    /// Asked of the provider; not settled yet (or waiting for the reader to confirm).
    Pending,
    Succeeded,
    Failed,
    /// A refund is being asked of the provider (shown as `succeeded`).
    Refunding,
    Refunded,
}

impl TipStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TipStatus::Pending => "pending",
            TipStatus::Succeeded => "succeeded",
            TipStatus::Failed => "failed",
            TipStatus::Refunding => "refunding",
            TipStatus::Refunded => "refunded",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tip {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub post_id: ObjectId,
    /// The post's title when the tip was made (kept if the post goes).
    pub post_title: String,
    /// The writer paid.
    pub author_id: ObjectId,
    /// The reader who paid.
    pub sender_id: ObjectId,
    /// In the currency's smallest unit.
    pub amount: i64,
    pub currency: String,
    /// The platform's share, fixed when the tip was made.
    pub fee: i64,
    #[serde(default)]
    pub message: Option<String>,
    /// Whether the reader appears on the post's supporters list.
    pub public: bool,
    /// The writer hid the message.
    #[serde(default)]
    pub hidden: bool,
    pub status: TipStatus,
    /// Unique: `<reader>:<Idempotency-Key>`, or `tip:<id>` without one.
    pub request_key: String,
    /// The provider's idempotency key of the charge: `tip:<id>`.
    pub idempotency_key: String,
    /// The saved payment method the reader chose, if any (asked again with the same key).
    #[serde(default)]
    pub payment_method: Option<String>,
    #[serde(default)]
    pub provider_payment_id: Option<String>,
    #[serde(default)]
    pub failure_reason: Option<String>,
    #[serde(default)]
    pub refund_reason: Option<String>,
    #[serde(default)]
    pub refunded_by: Option<ObjectId>,
    #[serde(default)]
    pub refunded_at: Option<DateTime>,
    #[serde(default)]
    pub provider_refund_id: Option<String>,
    /// `pending`, `succeeded` or `failed` once a refund was asked.
    #[serde(default)]
    pub refund_status: Option<String>,
    pub mode: String,
    pub created_at: DateTime,
    pub updated_at: DateTime,
}

fn collection(db: &Db) -> Collection<Tip> {
    db.database().collection(COLLECTION)
}

/// Unique request key; by provider ids (webhooks), by writer, reader and post (the lists).
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            unique_index(doc! { "requestKey": 1 }, "request_key_unique"),
            index(doc! { "providerPaymentId": 1 }, "provider_payment_id"),
            index(doc! { "providerRefundId": 1 }, "provider_refund_id"),
            index(doc! { "authorId": 1, "createdAt": -1 }, "author_created"),
            index(doc! { "senderId": 1, "createdAt": -1 }, "sender_created"),
            index(doc! { "postId": 1, "createdAt": -1 }, "post_created"),
        ],
        "creating tip indexes",
    )
    .await?;
    Ok(())
}

/// Inserts a tip unless its request key was used; `Err` holds the tip that used it.
pub async fn insert_once(db: &Db, tip: &Tip) -> DbResult<Result<(), Tip>> {
    match collection(db).insert_one(tip).await {
        Ok(_) => Ok(Ok(())),
        Err(e) if is_duplicate_key(&e) => {
            let existing = find_one(db, doc! { "requestKey": &tip.request_key })
                .await?
                .ok_or_else(|| anyhow::anyhow!("a tip with a used request key vanished"))?;
            Ok(Err(existing))
        }
        Err(e) => Err(e).db_context("inserting a tip"),
    }
}

pub async fn find_one(db: &Db, filter: Document) -> DbResult<Option<Tip>> {
    collection(db)
        .find_one(filter)
        .await
        .db_context("loading a tip")
}

pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Tip>> {
    find_one(db, doc! { "_id": id }).await
}

/// A page of the tips matching `filter`, newest first, and how many match.
pub async fn page(db: &Db, filter: Document, skip: u64, limit: i64) -> DbResult<(Vec<Tip>, u64)> {
    let total = collection(db)
        .count_documents(filter.clone())
        .await
        .db_context("counting tips")?;
    let tips = collection(db)
        .find(filter)
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .skip(skip)
        .limit(limit)
        .await
        .db_context("listing tips")?
        .try_collect()
        .await
        .db_context("reading tips")?;
    Ok((tips, total))
}

/// Every tip matching `filter`, newest first (exports, refund rules).
pub async fn find(db: &Db, filter: Document) -> DbResult<Vec<Tip>> {
    let mut tips: Vec<Tip> = collection(db)
        .find(filter)
        .await
        .db_context("listing tips")?
        .try_collect()
        .await
        .db_context("reading tips")?;
    tips.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    Ok(tips)
}

/// When `reader` was last refunded a tip to `author` after `since` (leaving out `except`): the
/// refund policy's once-per-author rule counts tips.
pub async fn last_refund(
    db: &Db,
    reader: ObjectId,
    author: ObjectId,
    since: DateTime,
    except: Option<ObjectId>,
) -> DbResult<Option<DateTime>> {
    let refunded = find(
        db,
        doc! { "senderId": reader, "authorId": author, "refundedAt": { "$gt": since } },
    )
    .await?;
    Ok(refunded
        .iter()
        .filter(|t| Some(t.id) != except)
        .filter_map(|t| t.refunded_at)
        .max())
}

/// Moves a tip from one of `from` to what `set` says; the tip after it, or `None` when it was not
/// in one of `from` (another request moved it first).
pub async fn transition(
    db: &Db,
    id: ObjectId,
    from: &[TipStatus],
    mut set: Document,
) -> DbResult<Option<Tip>> {
    let from: Vec<&str> = from.iter().map(|s| s.as_str()).collect();
    set.insert("updatedAt", now());
    collection(db)
        .find_one_and_update(
            doc! { "_id": id, "status": { "$in": from } },
            doc! { "$set": set },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("changing a tip")
}

/// Sets fields of a tip whatever its status (the provider's id, the hidden switch, the refund's
/// outcome).
pub async fn set(db: &Db, id: ObjectId, mut set: Document) -> DbResult<Option<Tip>> {
    set.insert("updatedAt", now());
    collection(db)
        .find_one_and_update(doc! { "_id": id }, doc! { "$set": set })
        .return_document(ReturnDocument::After)
        .await
        .db_context("changing a tip")
}

/// Removes the messages of the tips `sender` gave (their account is being deleted; the tips
/// stay in the books); returns how many changed.
pub async fn clear_messages_of(db: &Db, sender: ObjectId) -> DbResult<u64> {
    let done = collection(db)
        .update_many(
            doc! { "senderId": sender, "message": { "$ne": null } },
            doc! { "$set": { "message": null, "public": false, "updatedAt": now() } },
        )
        .await
        .db_context("removing tip messages")?;
    Ok(done.modified_count)
}

/// A claim on "this reader is tipping this post": `_id` = `<reader>:<post>`, naming the tip.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TipClaim {
    #[serde(rename = "_id")]
    pub id: String,
    pub tip_id: ObjectId,
    pub created_at: DateTime,
}

fn claims(db: &Db) -> Collection<TipClaim> {
    db.database().collection(CLAIMS)
}

/// Claims (reader, post) for `tip`; on refusal answers the claim in place.
pub async fn claim(db: &Db, key: &str, tip: ObjectId) -> DbResult<Result<TipClaim, TipClaim>> {
    let claim = TipClaim {
        id: key.to_string(),
        tip_id: tip,
        created_at: now(),
    };
    match claims(db).insert_one(&claim).await {
        Ok(_) => Ok(Ok(claim)),
        Err(e) if is_duplicate_key(&e) => {
            let held = claims(db)
                .find_one(doc! { "_id": key })
                .await
                .db_context("reading a tip claim")?;
            // Released between the insert and the read: the caller tries again.
            Ok(Err(held.unwrap_or(claim)))
        }
        Err(e) => Err(e).db_context("claiming a tip"),
    }
}

/// Takes over `held` (an old claim) for `tip`; false when someone else changed it first.
pub async fn take_over(db: &Db, held: &TipClaim, tip: ObjectId) -> DbResult<bool> {
    let taken = claims(db)
        .update_one(
            doc! { "_id": &held.id, "tipId": held.tip_id, "createdAt": held.created_at },
            doc! { "$set": { "tipId": tip, "createdAt": now() } },
        )
        .await
        .db_context("taking over a tip claim")?;
    Ok(taken.modified_count == 1)
}

/// Releases the claim `key` if it still names `tip`.
pub async fn release(db: &Db, key: &str, tip: ObjectId) -> DbResult<()> {
    claims(db)
        .delete_one(doc! { "_id": key, "tipId": tip })
        .await
        .db_context("releasing a tip claim")?;
    Ok(())
}

/// A writer's tip settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TipSettings {
    /// The writer.
    #[serde(rename = "_id")]
    pub author_id: ObjectId,
    pub currency: String,
    /// Minor units, ascending.
    pub suggested_amounts: Vec<i64>,
    pub updated_at: DateTime,
}

fn settings(db: &Db) -> Collection<TipSettings> {
    db.database().collection(SETTINGS)
}

pub async fn settings_of(db: &Db, author: ObjectId) -> DbResult<Option<TipSettings>> {
    settings(db)
        .find_one(doc! { "_id": author })
        .await
        .db_context("loading tip settings")
}

pub async fn save_settings(db: &Db, value: &TipSettings) -> DbResult<()> {
    settings(db)
        .replace_one(doc! { "_id": value.author_id }, value)
        .upsert(true)
        .await
        .db_context("saving tip settings")?;
    Ok(())
}
