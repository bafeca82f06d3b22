//! The `feedback` collection (what users tell us: a 1–5 rating and a message) and its ledger
//! `feedback_prompts` (when each user was last asked), which sets the prompting cadence.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "feedback";
pub const PROMPTS: &str = "feedback_prompts";

/// A stored piece of feedback.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Feedback {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub user_id: ObjectId,
    pub rating: i32,
    pub message: String,
    pub created_at: DateTime,
}

/// When a user was last asked for feedback.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompted {
    #[serde(rename = "_id")]
    pub user_id: ObjectId,
    pub prompted_at: DateTime,
}

fn collection(db: &Db) -> Collection<Feedback> {
    db.database().collection(COLLECTION)
}

fn prompts(db: &Db) -> Collection<Prompted> {
    db.database().collection(PROMPTS)
}

/// A user's feedback by date; everyone's by date.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let by_user = index(doc! { "userId": 1, "createdAt": -1 }, "user_created");
    let recent = index(doc! { "createdAt": -1 }, "created");
    super::create_indexes(
        &collection(db),
        [by_user, recent],
        "creating feedback indexes",
    )
    .await?;
    Ok(())
}

/// Stores a piece of feedback.
pub async fn insert(db: &Db, feedback: &Feedback) -> DbResult<()> {
    collection(db)
        .insert_one(feedback)
        .await
        .db_context("storing feedback")?;
    Ok(())
}

/// Records that `user` was asked at `at`.
pub async fn record_prompt(db: &Db, user: ObjectId, at: DateTime) -> DbResult<()> {
    prompts(db)
        .update_one(doc! { "_id": user }, doc! { "$set": { "promptedAt": at } })
        .upsert(true)
        .await
        .db_context("recording a feedback prompt")?;
    Ok(())
}

/// When `user` was last asked, if ever.
pub async fn last_prompt(db: &Db, user: ObjectId) -> DbResult<Option<DateTime>> {
    Ok(prompts(db)
        .find_one(doc! { "_id": user })
        .await
        .db_context("loading a feedback prompt")?
        .map(|p| p.prompted_at))
}

/// When `user` last gave feedback, if ever.
pub async fn last_submitted(db: &Db, user: ObjectId) -> DbResult<Option<DateTime>> {
    Ok(collection(db)
        .find_one(doc! { "userId": user })
        .sort(doc! { "createdAt": -1 })
        .await
        .db_context("loading a user's feedback")?
        .map(|f| f.created_at))
}

/// One page of everyone's feedback, newest first, and how much there is.
pub async fn list(db: &Db, skip: u64, limit: i64) -> DbResult<(Vec<Feedback>, u64)> {
    let items = collection(db)
        .find(doc! {})
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .skip(skip)
        .limit(limit)
        .await
        .db_context("listing feedback")?
        .try_collect()
        .await
        .db_context("reading feedback")?;
    let total = collection(db)
        .count_documents(doc! {})
        .await
        .db_context("counting feedback")?;
    Ok((items, total))
}
