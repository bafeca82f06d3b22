//! The `subscriptions` collection: a reader's subscription to an author's plan, with the plan's
//! terms copied in at the time of subscribing (price, currency, interval), the current period
//! and where it stands.
//!
//! Statuses: `incomplete` (first payment not settled), `active`, `past_due` (a renewal failed;
//! access continues until `graceEndsAt`), `cancelled` (access until `currentPeriodEnd`, no
//! renewal), `refunded` and `expired` (ended), `failed` (the first payment failed).

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, now, Db, DbContext, DbResult};
use crate::domain::money::Interval;

pub const COLLECTION: &str = "subscriptions";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SubStatus {
    Incomplete,
    Active,
    PastDue,
    Cancelled,
    Refunded,
    Expired,
    Failed,
}

impl SubStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SubStatus::Incomplete => "incomplete",
            SubStatus::Active => "active",
            SubStatus::PastDue => "past_due",
            SubStatus::Cancelled => "cancelled",
            SubStatus::Refunded => "refunded",
            SubStatus::Expired => "expired",
            SubStatus::Failed => "failed",
        }
    }

    /// Whether the subscription has come to its end (nothing more happens to it).
    pub fn is_ended(self) -> bool {
        matches!(
            self,
            SubStatus::Refunded | SubStatus::Expired | SubStatus::Failed
        )
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub subscriber_id: ObjectId,
    pub author_id: ObjectId,
    pub plan_id: ObjectId,
    pub plan_name: String,
    pub price: i64,
    pub currency: String,
    pub interval: Interval,
    pub status: SubStatus,
    #[serde(default)]
    pub current_period_start: Option<DateTime>,
    #[serde(default)]
    pub current_period_end: Option<DateTime>,
    #[serde(default)]
    pub grace_ends_at: Option<DateTime>,
    #[serde(default)]
    pub cancelled_at: Option<DateTime>,
    #[serde(default)]
    pub refunded_at: Option<DateTime>,
    #[serde(default)]
    pub ended_at: Option<DateTime>,
    /// Why it ended or failed, in words.
    #[serde(default)]
    pub end_reason: Option<String>,
    /// The provider's customer and the payment method renewals are charged to.
    pub customer_id: String,
    #[serde(default)]
    pub payment_method: Option<String>,
    /// The latest charge (`payments`).
    #[serde(default)]
    pub last_payment_id: Option<ObjectId>,
    /// `test` or `live`: the provider's mode when it was made.
    pub mode: String,
    pub created_at: DateTime,
    pub updated_at: DateTime,
}

impl Subscription {
    /// Whether it gives access to the author's subscribers-only posts at `at`.
    pub fn gives_access(&self, at: DateTime) -> bool {
        match self.status {
            SubStatus::Active => true,
            SubStatus::PastDue => self.grace_ends_at.is_some_and(|g| g > at),
            SubStatus::Cancelled => self.current_period_end.is_some_and(|e| e > at),
            _ => false,
        }
    }
}

/// The filter of subscriptions giving access at `at`.
pub fn access_filter(at: DateTime) -> Document {
    doc! { "$or": [
        { "status": "active" },
        { "status": "past_due", "graceEndsAt": { "$gt": at } },
        { "status": "cancelled", "currentPeriodEnd": { "$gt": at } },
    ] }
}

fn collection(db: &Db) -> Collection<Subscription> {
    db.database().collection(COLLECTION)
}

/// Per subscriber, per author, per plan, and by status and period end for the jobs.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            index(
                doc! { "subscriberId": 1, "authorId": 1 },
                "subscriber_author",
            ),
            index(doc! { "authorId": 1, "createdAt": -1 }, "author_created"),
            index(doc! { "planId": 1 }, "plan"),
            index(
                doc! { "status": 1, "currentPeriodEnd": 1 },
                "status_period_end",
            ),
        ],
        "creating subscription indexes",
    )
    .await?;
    Ok(())
}

/// Inserts a subscription.
pub async fn insert(db: &Db, sub: &Subscription) -> DbResult<()> {
    collection(db)
        .insert_one(sub)
        .await
        .db_context("inserting a subscription")?;
    Ok(())
}

/// A subscription by id.
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Subscription>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a subscription")
}

/// Subscriptions matching `filter`, newest first.
pub async fn find(db: &Db, filter: Document) -> DbResult<Vec<Subscription>> {
    let mut subs: Vec<Subscription> = collection(db)
        .find(filter)
        .await
        .db_context("listing subscriptions")?
        .try_collect()
        .await
        .db_context("reading subscriptions")?;
    subs.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    Ok(subs)
}

/// Every subscription to plan `plan`, newest first.
pub async fn of_plan(db: &Db, plan: ObjectId) -> DbResult<Vec<Subscription>> {
    find(db, doc! { "planId": plan }).await
}

/// Every subscription of `reader` to `author`, newest first.
pub async fn of_reader_to_author(
    db: &Db,
    reader: ObjectId,
    author: ObjectId,
) -> DbResult<Vec<Subscription>> {
    find(db, doc! { "subscriberId": reader, "authorId": author }).await
}

/// The subscriptions of `reader` to `author` that are `active` or `past_due`, newest first.
pub async fn running_of_reader_to_author(
    db: &Db,
    reader: ObjectId,
    author: ObjectId,
) -> DbResult<Vec<Subscription>> {
    find(
        db,
        doc! { "subscriberId": reader, "authorId": author, "status": { "$in": ["active", "past_due"] } },
    )
    .await
}

/// The subscriptions of `reader`, newest first: every one when `include_ended`, else those not
/// ended (`incomplete`, `active`, `past_due`, `cancelled`).
pub async fn of_reader(
    db: &Db,
    reader: ObjectId,
    include_ended: bool,
) -> DbResult<Vec<Subscription>> {
    let mut filter = doc! { "subscriberId": reader };
    if !include_ended {
        filter.insert(
            "status",
            doc! { "$in": ["incomplete", "active", "past_due", "cancelled"] },
        );
    }
    find(db, filter).await
}

/// Every subscription to `author`'s plans, newest first.
pub async fn to_author(db: &Db, author: ObjectId) -> DbResult<Vec<Subscription>> {
    find(db, doc! { "authorId": author }).await
}

/// The subscriptions to `author`'s plans giving access at `at`, newest first.
pub async fn giving_access_to_author(
    db: &Db,
    author: ObjectId,
    at: DateTime,
) -> DbResult<Vec<Subscription>> {
    find(
        db,
        doc! { "$and": [{ "authorId": author }, access_filter(at)] },
    )
    .await
}

/// The authors among `authors` whose subscribers-only posts `reader` may read now.
pub async fn authors_with_access(
    db: &Db,
    reader: ObjectId,
    authors: &[ObjectId],
) -> DbResult<Vec<ObjectId>> {
    if authors.is_empty() {
        return Ok(Vec::new());
    }
    let subs = find(
        db,
        doc! { "$and": [
            { "subscriberId": reader, "authorId": { "$in": authors } },
            access_filter(now()),
        ] },
    )
    .await?;
    Ok(subs.into_iter().map(|s| s.author_id).collect())
}

/// Sets fields of a subscription that is in one of `from` (a status change that lost a race
/// finds nothing and returns `None`).
pub async fn transition(
    db: &Db,
    id: ObjectId,
    from: &[SubStatus],
    mut set: Document,
) -> DbResult<Option<Subscription>> {
    let from: Vec<&str> = from.iter().map(|s| s.as_str()).collect();
    set.insert("updatedAt", now());
    collection(db)
        .find_one_and_update(
            doc! { "_id": id, "status": { "$in": from } },
            doc! { "$set": set },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("updating a subscription")
}
