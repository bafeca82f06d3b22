//! The `subscription_events` collection: the history of every subscription (subscribed,
//! renewed, renewal failed, cancelled, refunded, expired, unsubscribed), for the plans'
//! analytics and for support. Append-only.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "subscription_events";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionEvent {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// What makes it unique (`<subscription>:<kind>:<payment or period>`): an event reported
    /// twice (a webhook racing the request that charged) is recorded once.
    pub key: String,
    pub subscription_id: ObjectId,
    pub plan_id: ObjectId,
    pub author_id: ObjectId,
    pub subscriber_id: ObjectId,
    /// `subscribed`, `payment_pending`, `payment_failed`, `renewed`, `renewal_failed`,
    /// `cancelled`, `refunded`, `expired`.
    pub kind: String,
    #[serde(default)]
    pub amount: Option<i64>,
    #[serde(default)]
    pub currency: Option<String>,
    /// Who caused it (`None`: the system).
    #[serde(default)]
    pub actor_id: Option<ObjectId>,
    #[serde(default)]
    pub details: Option<String>,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<SubscriptionEvent> {
    db.database().collection(COLLECTION)
}

/// Per plan and per subscription.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            unique_index(doc! { "key": 1 }, "key_unique"),
            index(doc! { "planId": 1, "createdAt": 1 }, "plan_created"),
            index(
                doc! { "subscriptionId": 1, "createdAt": 1 },
                "subscription_created",
            ),
        ],
        "creating subscription event indexes",
    )
    .await?;
    Ok(())
}

/// Appends an event; `false` when an event with its key was recorded before.
pub async fn record(db: &Db, event: &SubscriptionEvent) -> DbResult<bool> {
    match collection(db).insert_one(event).await {
        Ok(_) => Ok(true),
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("recording a subscription event"),
    }
}

/// Events matching `filter`, oldest first.
pub async fn find(db: &Db, filter: Document) -> DbResult<Vec<SubscriptionEvent>> {
    let mut found: Vec<SubscriptionEvent> = collection(db)
        .find(filter)
        .await
        .db_context("listing subscription events")?
        .try_collect()
        .await
        .db_context("reading subscription events")?;
    found.sort_by_key(|e| e.created_at);
    Ok(found)
}

/// Every event of plan `plan`, oldest first.
pub async fn of_plan(db: &Db, plan: ObjectId) -> DbResult<Vec<SubscriptionEvent>> {
    find(db, doc! { "planId": plan }).await
}
