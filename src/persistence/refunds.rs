//! The `refunds` collection: at most one refund per payment (unique `paymentId`), inserted
//! before the provider is asked, so two refund requests at once refund once.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbResult};
use crate::domain::money::RefundStatus;

pub const COLLECTION: &str = "refunds";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefundRecord {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub payment_id: ObjectId,
    pub subscription_id: ObjectId,
    pub author_id: ObjectId,
    pub plan_id: ObjectId,
    pub amount: i64,
    pub currency: String,
    pub reason: String,
    /// Who asked: the subscriber or an administrator.
    pub requested_by: ObjectId,
    /// `pending` until the provider answers, then its status.
    pub status: String,
    #[serde(default)]
    pub provider_refund_id: Option<String>,
    pub mode: String,
    pub created_at: DateTime,
    pub updated_at: DateTime,
}

fn collection(db: &Db) -> Collection<RefundRecord> {
    db.database().collection(COLLECTION)
}

/// One refund per payment; by provider id for webhooks.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            unique_index(doc! { "paymentId": 1 }, "payment_unique"),
            index(doc! { "providerRefundId": 1 }, "provider_refund_id"),
            index(doc! { "planId": 1 }, "plan"),
        ],
        "creating refund indexes",
    )
    .await?;
    Ok(())
}

/// Inserts the refund of a payment unless one exists; `Err` holds the existing one.
pub async fn insert_once(db: &Db, refund: &RefundRecord) -> DbResult<Result<(), RefundRecord>> {
    match collection(db).insert_one(refund).await {
        Ok(_) => Ok(Ok(())),
        Err(e) if is_duplicate_key(&e) => {
            let existing = collection(db)
                .find_one(doc! { "paymentId": refund.payment_id })
                .await
                .db_context("loading a refund")?
                .ok_or_else(|| anyhow::anyhow!("a duplicate refund vanished"))?;
            Ok(Err(existing))
        }
        Err(e) => Err(e).db_context("inserting a refund"),
    }
}

/// The refunds of these subscriptions (a reader's), newest first.
pub async fn of_subscriptions(db: &Db, subscriptions: &[ObjectId]) -> DbResult<Vec<RefundRecord>> {
    use futures_util::TryStreamExt;
    if subscriptions.is_empty() {
        return Ok(Vec::new());
    }
    collection(db)
        .find(doc! { "subscriptionId": { "$in": subscriptions } })
        .sort(doc! { "createdAt": -1 })
        .await
        .db_context("listing a reader's refunds")?
        .try_collect()
        .await
        .db_context("listing a reader's refunds")
}

/// A refund by the provider's id.
pub async fn find_by_provider_id(db: &Db, provider_id: &str) -> DbResult<Option<RefundRecord>> {
    collection(db)
        .find_one(doc! { "providerRefundId": provider_id })
        .await
        .db_context("loading a refund")
}

/// Records the provider's answer; returns the refund before the change (to tell what it was).
pub async fn set_status(
    db: &Db,
    id: ObjectId,
    status: RefundStatus,
    provider_refund_id: Option<&str>,
) -> DbResult<Option<RefundRecord>> {
    let status = match status {
        RefundStatus::Succeeded => "succeeded",
        RefundStatus::Pending => "pending",
        RefundStatus::Failed => "failed",
    };
    let mut set = doc! { "status": status, "updatedAt": now() };
    if let Some(p) = provider_refund_id {
        set.insert("providerRefundId", p);
    }
    collection(db)
        .find_one_and_update(doc! { "_id": id }, doc! { "$set": set })
        .return_document(ReturnDocument::Before)
        .await
        .db_context("updating a refund")
}

/// Removes a refund the provider never accepted (so it may be asked again).
pub async fn remove(db: &Db, id: ObjectId) -> DbResult<()> {
    collection(db)
        .delete_one(doc! { "_id": id })
        .await
        .db_context("removing a refund")?;
    Ok(())
}
