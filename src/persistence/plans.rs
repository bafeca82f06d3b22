//! The `plans` collection: authors' subscription plans. Plans are never removed: a deleted plan
//! is marked `isDeleted` (its subscribers keep access to the end of their period).

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};
use crate::domain::money::{Interval, PlanStatus};

pub const COLLECTION: &str = "plans";

/// A stored plan. `price` is in minor units of `currency`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub author_id: ObjectId,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub price: i64,
    pub currency: String,
    pub interval: Interval,
    #[serde(default)]
    pub benefits: Vec<String>,
    pub status: PlanStatus,
    #[serde(default)]
    pub is_deleted: bool,
    #[serde(default)]
    pub deleted_at: Option<DateTime>,
    pub created_at: DateTime,
    pub updated_at: DateTime,
}

fn collection(db: &Db) -> Collection<Plan> {
    db.database().collection(COLLECTION)
}

/// Per author, newest first; all plans newest first.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            index(doc! { "authorId": 1, "createdAt": -1 }, "author_created"),
            index(doc! { "createdAt": -1, "_id": -1 }, "created"),
        ],
        "creating plan indexes",
    )
    .await?;
    Ok(())
}

/// Inserts a plan.
pub async fn insert(db: &Db, plan: &Plan) -> DbResult<()> {
    collection(db)
        .insert_one(plan)
        .await
        .db_context("inserting a plan")?;
    Ok(())
}

/// A plan by id (deleted ones too).
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Plan>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a plan")
}

/// Plans matching `filter`, newest first.
async fn find(db: &Db, filter: Document) -> DbResult<Vec<Plan>> {
    let mut plans: Vec<Plan> = collection(db)
        .find(filter)
        .await
        .db_context("listing plans")?
        .try_collect()
        .await
        .db_context("reading plans")?;
    plans.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    Ok(plans)
}

/// An author's plans, deleted ones only when asked.
pub async fn by_author(db: &Db, author: ObjectId, include_deleted: bool) -> DbResult<Vec<Plan>> {
    let mut filter = doc! { "authorId": author };
    if !include_deleted {
        filter.insert("isDeleted", doc! { "$ne": true });
    }
    find(db, filter).await
}

/// Every plan, newest first (the administrators' list).
pub async fn all(db: &Db) -> DbResult<Vec<Plan>> {
    find(db, doc! {}).await
}

/// A change to a plan: the fields it sets (`None` keeps one).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlanChanges {
    pub name: Option<String>,
    pub description: Option<String>,
    pub price: Option<i64>,
    pub currency: Option<String>,
    pub interval: Option<Interval>,
    pub benefits: Option<Vec<String>>,
    pub status: Option<PlanStatus>,
}

impl PlanChanges {
    fn set(&self) -> Document {
        let mut set = Document::new();
        if let Some(name) = &self.name {
            set.insert("name", name.as_str());
        }
        if let Some(description) = &self.description {
            set.insert("description", description.as_str());
        }
        if let Some(price) = self.price {
            set.insert("price", price);
        }
        if let Some(currency) = &self.currency {
            set.insert("currency", currency.as_str());
        }
        if let Some(interval) = self.interval {
            set.insert("interval", interval.as_str());
        }
        if let Some(benefits) = &self.benefits {
            set.insert("benefits", benefits.clone());
        }
        if let Some(status) = self.status {
            set.insert("status", status.as_str());
        }
        set
    }

    /// The stored names of the fields it changes (`name`, `description`, `price`, `currency`,
    /// `interval`, `benefits`, `status`, in that order); empty when it changes nothing.
    pub fn fields(&self) -> Vec<String> {
        self.set().keys().cloned().collect()
    }
}

/// Applies `changes` and returns the plan after it.
pub async fn change(db: &Db, id: ObjectId, changes: &PlanChanges) -> DbResult<Option<Plan>> {
    update(db, id, changes.set()).await
}

/// Sets a plan's status; returns the plan after it.
pub async fn set_status(db: &Db, id: ObjectId, status: PlanStatus) -> DbResult<Option<Plan>> {
    update(db, id, doc! { "status": status.as_str() }).await
}

/// Marks a plan deleted (and inactive) now; returns the plan after it.
pub async fn mark_deleted(db: &Db, id: ObjectId) -> DbResult<Option<Plan>> {
    let set = doc! {
        "isDeleted": true, "deletedAt": super::now(), "status": PlanStatus::Inactive.as_str(),
    };
    update(db, id, set).await
}

/// Applies `set` and returns the plan after it.
async fn update(db: &Db, id: ObjectId, mut set: Document) -> DbResult<Option<Plan>> {
    set.insert("updatedAt", super::now());
    collection(db)
        .find_one_and_update(doc! { "_id": id }, doc! { "$set": set })
        .return_document(ReturnDocument::After)
        .await
        .db_context("updating a plan")
}
