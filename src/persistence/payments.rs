//! The `payments` collection: every charge of a subscription (the first and each renewal), with
//! its idempotency key (unique: `charge:<subscription>` for the first, `renew:<subscription>:<period
//! end>:<attempt>` for renewals), so a charge is asked of the provider at most once per purpose
//! whatever retries or concurrent jobs do.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "payments";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PaymentKind {
    Initial,
    Renewal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PaymentStatus {
    Pending,
    Succeeded,
    Failed,
}

impl PaymentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentStatus::Pending => "pending",
            PaymentStatus::Succeeded => "succeeded",
            PaymentStatus::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Payment {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub subscription_id: ObjectId,
    pub subscriber_id: ObjectId,
    pub author_id: ObjectId,
    pub plan_id: ObjectId,
    pub kind: PaymentKind,
    pub amount: i64,
    pub currency: String,
    pub status: PaymentStatus,
    pub idempotency_key: String,
    /// The provider's id of the charge, once it answered.
    #[serde(default)]
    pub provider_payment_id: Option<String>,
    #[serde(default)]
    pub failure_reason: Option<String>,
    /// The period this charge pays for.
    pub period_start: DateTime,
    pub period_end: DateTime,
    #[serde(default)]
    pub refunded: bool,
    pub mode: String,
    pub created_at: DateTime,
    pub updated_at: DateTime,
}

fn collection(db: &Db) -> Collection<Payment> {
    db.database().collection(COLLECTION)
}

/// Unique idempotency key; by provider id (webhooks), by subscription, and the pending ones by
/// age (the billing job's sweep of stalled payments).
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            unique_index(doc! { "idempotencyKey": 1 }, "idempotency_key_unique"),
            index(doc! { "providerPaymentId": 1 }, "provider_payment_id"),
            index(
                doc! { "subscriptionId": 1, "createdAt": -1 },
                "subscription_created",
            ),
            index(doc! { "planId": 1 }, "plan"),
            index(doc! { "status": 1, "updatedAt": 1 }, "status_updated"),
        ],
        "creating payment indexes",
    )
    .await?;
    Ok(())
}

/// Inserts a payment unless one with its idempotency key exists; `Err` holds the existing one.
pub async fn insert_once(db: &Db, payment: &Payment) -> DbResult<Result<(), Payment>> {
    match collection(db).insert_one(payment).await {
        Ok(_) => Ok(Ok(())),
        Err(e) if is_duplicate_key(&e) => {
            let existing = find_one(db, doc! { "idempotencyKey": &payment.idempotency_key })
                .await?
                .ok_or_else(|| anyhow::anyhow!("a duplicate payment vanished"))?;
            Ok(Err(existing))
        }
        Err(e) => Err(e).db_context("inserting a payment"),
    }
}

/// One payment matching `filter`.
pub async fn find_one(db: &Db, filter: Document) -> DbResult<Option<Payment>> {
    collection(db)
        .find_one(filter)
        .await
        .db_context("loading a payment")
}

/// Payments matching `filter`, newest first.
pub async fn find(db: &Db, filter: Document) -> DbResult<Vec<Payment>> {
    let mut found: Vec<Payment> = collection(db)
        .find(filter)
        .await
        .db_context("listing payments")?
        .try_collect()
        .await
        .db_context("reading payments")?;
    found.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    Ok(found)
}

/// Records the provider's answer on a payment that is still pending (a settled payment is never
/// changed again); returns the payment after it, or `None` when it was settled already.
pub async fn settle(
    db: &Db,
    id: ObjectId,
    status: PaymentStatus,
    provider_payment_id: Option<&str>,
    failure_reason: Option<&str>,
) -> DbResult<Option<Payment>> {
    let mut set = doc! { "status": status.as_str(), "updatedAt": now() };
    if let Some(pid) = provider_payment_id.filter(|p| !p.is_empty()) {
        set.insert("providerPaymentId", pid);
    }
    if let Some(reason) = failure_reason {
        set.insert("failureReason", reason);
    }
    collection(db)
        .find_one_and_update(
            doc! { "_id": id, "status": "pending" },
            doc! { "$set": set },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("settling a payment")
}

/// Records the provider's id of a still-pending payment.
pub async fn set_provider_id(db: &Db, id: ObjectId, provider_payment_id: &str) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": { "providerPaymentId": provider_payment_id, "updatedAt": now() } },
        )
        .await
        .db_context("recording a provider payment id")?;
    Ok(())
}

/// Marks a payment refunded.
pub async fn mark_refunded(db: &Db, id: ObjectId) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": { "refunded": true, "updatedAt": now() } },
        )
        .await
        .db_context("marking a payment refunded")?;
    Ok(())
}
