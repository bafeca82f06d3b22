//! Webhooks: `webhook_endpoints` (a person's or the site's endpoints, with their sealed signing
//! secrets) and `webhook_deliveries` (one message to one endpoint, with its attempts; the
//! delivery worker takes due ones under a lease).

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};

pub const ENDPOINTS: &str = "webhook_endpoints";
pub const DELIVERIES: &str = "webhook_deliveries";

/// A signing secret (sealed at rest). During a rotation the old one signs too until `expiresAt`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Secret {
    pub sealed: String,
    pub created_at: DateTime,
    #[serde(default)]
    pub expires_at: Option<DateTime>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub owner_id: ObjectId,
    /// A site-wide endpoint (an administrator's): every writer's events, and `member.deleted`.
    pub site: bool,
    pub url: String,
    pub events: Vec<String>,
    #[serde(default)]
    pub description: String,
    pub secrets: Vec<Secret>,
    #[serde(default)]
    pub disabled: bool,
    #[serde(default)]
    pub disabled_reason: Option<String>,
    /// When its current run of failed deliveries began.
    #[serde(default)]
    pub failing_since: Option<DateTime>,
    pub created_at: DateTime,
}

/// One attempt at a delivery.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    pub at: DateTime,
    #[serde(default)]
    pub response_status: Option<i32>,
    pub duration_ms: i64,
    /// The first bytes of the answer, or why there was none.
    #[serde(default)]
    pub response: String,
}

/// Where a delivery stands. `queued` (due now), `retrying` (due at `nextAttemptAt`) and
/// `sending` (a worker holds it until `nextAttemptAt`) are all pending to its owner. Separate
/// states keep the worker's poll an equality the embedded store narrows with its index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Queued,
    Retrying,
    Sending,
    Succeeded,
    Failed,
}

impl Status {
    pub fn is_pending(self) -> bool {
        matches!(self, Status::Queued | Status::Retrying | Status::Sending)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// The `webhook-id` header: the same on every attempt.
    pub message_id: String,
    pub endpoint_id: ObjectId,
    pub owner_id: ObjectId,
    pub event_type: String,
    /// The body sent, minified JSON.
    pub body: String,
    pub status: Status,
    /// Attempts made so far.
    pub attempt: i32,
    /// When it is due (while a worker holds it: when its lease ends).
    pub next_attempt_at: DateTime,
    #[serde(default)]
    pub attempts: Vec<Attempt>,
    pub created_at: DateTime,
}

fn endpoints(db: &Db) -> Collection<Endpoint> {
    db.database().collection(ENDPOINTS)
}

fn deliveries(db: &Db) -> Collection<Delivery> {
    db.database().collection(DELIVERIES)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &endpoints(db),
        [
            index(doc! { "ownerId": 1, "createdAt": -1 }, "owner_created"),
            index(doc! { "site": 1, "disabled": 1 }, "site"),
        ],
        "creating webhook endpoint indexes",
    )
    .await?;
    super::create_indexes(
        &deliveries(db),
        [
            index(doc! { "status": 1 }, "status"),
            index(
                doc! { "endpointId": 1, "createdAt": -1 },
                "endpoint_created",
            ),
        ],
        "creating webhook delivery indexes",
    )
    .await?;
    Ok(())
}

pub async fn insert_endpoint(db: &Db, endpoint: &Endpoint) -> DbResult<()> {
    endpoints(db)
        .insert_one(endpoint)
        .await
        .db_context("storing a webhook endpoint")?;
    Ok(())
}

pub async fn endpoints_of(db: &Db, owner: ObjectId) -> DbResult<Vec<Endpoint>> {
    endpoints(db)
        .find(doc! { "ownerId": owner })
        .sort(doc! { "createdAt": -1 })
        .await
        .db_context("reading webhook endpoints")?
        .try_collect()
        .await
        .db_context("reading webhook endpoints")
}

pub async fn count_of(db: &Db, owner: ObjectId) -> DbResult<u64> {
    endpoints(db)
        .count_documents(doc! { "ownerId": owner })
        .await
        .db_context("counting webhook endpoints")
}

pub async fn find_endpoint(db: &Db, id: ObjectId) -> DbResult<Option<Endpoint>> {
    endpoints(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("reading a webhook endpoint")
}

/// The enabled endpoints that want `event` about something of `owner`'s: the owner's own and
/// the site-wide ones.
pub async fn listening(db: &Db, owner: Option<ObjectId>, event: &str) -> DbResult<Vec<Endpoint>> {
    let mut who = vec![doc! { "site": true }];
    if let Some(owner) = owner {
        who.push(doc! { "ownerId": owner, "site": false });
    }
    endpoints(db)
        .find(doc! { "$or": who, "events": event, "disabled": { "$ne": true } })
        .await
        .db_context("reading webhook endpoints")?
        .try_collect()
        .await
        .db_context("reading webhook endpoints")
}

pub async fn update_endpoint(db: &Db, id: ObjectId, set: Document) -> DbResult<()> {
    endpoints(db)
        .update_one(doc! { "_id": id }, doc! { "$set": set })
        .await
        .db_context("changing a webhook endpoint")?;
    Ok(())
}

pub async fn delete_endpoint(db: &Db, id: ObjectId) -> DbResult<()> {
    endpoints(db)
        .delete_one(doc! { "_id": id })
        .await
        .db_context("removing a webhook endpoint")?;
    deliveries(db)
        .delete_many(doc! { "endpointId": id })
        .await
        .db_context("removing a webhook endpoint's deliveries")?;
    Ok(())
}

pub async fn insert_deliveries(db: &Db, list: &[Delivery]) -> DbResult<()> {
    if list.is_empty() {
        return Ok(());
    }
    deliveries(db)
        .insert_many(list)
        .await
        .db_context("queueing webhook deliveries")?;
    Ok(())
}

/// Takes one due delivery under a lease of `lease_ms` (`sending` until then, so no other worker
/// takes it; a worker that dies with it leaves it due again after the lease): a queued one
/// first, else a retry or an abandoned send whose time has come.
pub async fn take_due(db: &Db, lease_ms: i64) -> DbResult<Option<Delivery>> {
    let now = DateTime::now();
    let until = DateTime::from_millis(now.timestamp_millis() + lease_ms);
    let take = doc! { "$set": { "status": "sending", "nextAttemptAt": until } };
    let queued = deliveries(db)
        .find_one_and_update(doc! { "status": "queued" }, take.clone())
        .await
        .db_context("taking a webhook delivery")?;
    if queued.is_some() {
        return Ok(queued);
    }
    deliveries(db)
        .find_one_and_update(
            doc! { "status": { "$in": ["retrying", "sending"] }, "nextAttemptAt": { "$lte": now } },
            take,
        )
        .await
        .db_context("taking a webhook delivery")
}

/// Records an attempt: its outcome, the next attempt (when pending) and no lease.
pub async fn record_attempt(
    db: &Db,
    id: ObjectId,
    attempt: &Attempt,
    status: Status,
    next_attempt_at: DateTime,
) -> DbResult<()> {
    let attempt = mongodb::bson::to_bson(attempt).unwrap_or_default();
    let status = mongodb::bson::to_bson(&status).unwrap_or_default();
    deliveries(db)
        .update_one(
            doc! { "_id": id },
            doc! {
                "$push": { "attempts": attempt },
                "$inc": { "attempt": 1 },
                "$set": { "status": status, "nextAttemptAt": next_attempt_at },
            },
        )
        .await
        .db_context("recording a webhook attempt")?;
    Ok(())
}

/// Sends a delivery again (same message id) as soon as the worker can.
pub async fn requeue(db: &Db, id: ObjectId) -> DbResult<()> {
    deliveries(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": { "status": "queued", "nextAttemptAt": DateTime::now() } },
        )
        .await
        .db_context("resending a webhook delivery")?;
    Ok(())
}

/// Gives up the pending deliveries of a disabled endpoint.
pub async fn fail_pending(db: &Db, endpoint: ObjectId) -> DbResult<()> {
    deliveries(db)
        .update_many(
            doc! { "endpointId": endpoint, "status": { "$in": ["queued", "retrying"] } },
            doc! { "$set": { "status": "failed" } },
        )
        .await
        .db_context("stopping a webhook endpoint's deliveries")?;
    Ok(())
}

/// Removes the finished deliveries (succeeded or failed) made before `before`; answers how many.
pub async fn remove_finished(db: &Db, before: DateTime) -> DbResult<u64> {
    let gone = deliveries(db)
        .delete_many(doc! {
            "status": { "$in": ["succeeded", "failed"] },
            "createdAt": { "$lt": before },
        })
        .await
        .db_context("removing old webhook deliveries")?;
    Ok(gone.deleted_count)
}

pub async fn find_delivery(db: &Db, id: ObjectId) -> DbResult<Option<Delivery>> {
    deliveries(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("reading a webhook delivery")
}

/// An endpoint's latest deliveries, newest first.
pub async fn deliveries_of(db: &Db, endpoint: ObjectId, limit: i64) -> DbResult<Vec<Delivery>> {
    deliveries(db)
        .find(doc! { "endpointId": endpoint })
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .limit(limit)
        .await
        .db_context("reading webhook deliveries")?
        .try_collect()
        .await
        .db_context("reading webhook deliveries")
}
