//! The `subscription_criteria` collection: one document (`_id: "default"`) holding the
//! eligibility thresholds, seeded with the defaults on first start and changed by administrators.

use mongodb::bson::{doc, oid::ObjectId, DateTime};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{is_duplicate_key, now, Db, DbContext, DbResult};
use crate::domain::eligibility::Criteria;

pub const COLLECTION: &str = "subscription_criteria";
/// The id of the one criteria document.
pub const DEFAULT_ID: &str = "default";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredCriteria {
    #[serde(rename = "_id")]
    pub id: String,
    #[serde(flatten)]
    pub criteria: Criteria,
    #[serde(default)]
    pub updated_by: Option<ObjectId>,
    pub updated_at: DateTime,
}

fn collection(db: &Db) -> Collection<StoredCriteria> {
    db.database().collection(COLLECTION)
}

/// Stores the defaults unless criteria exist (idempotent; run at startup).
pub async fn seed_defaults(db: &Db) -> DbResult<()> {
    let doc = StoredCriteria {
        id: DEFAULT_ID.into(),
        criteria: Criteria::DEFAULT,
        updated_by: None,
        updated_at: now(),
    };
    if load(db).await?.is_some() {
        return Ok(());
    }
    match collection(db).insert_one(&doc).await {
        Ok(_) => Ok(()),
        Err(e) if is_duplicate_key(&e) => Ok(()),
        Err(e) => Err(e).db_context("seeding the subscription criteria"),
    }
}

/// The stored criteria, if any.
pub async fn load(db: &Db) -> DbResult<Option<Criteria>> {
    Ok(collection(db)
        .find_one(doc! { "_id": DEFAULT_ID })
        .await
        .db_context("loading the subscription criteria")?
        .map(|c| c.criteria))
}

/// Replaces the criteria (creating the document if it was removed).
pub async fn save(db: &Db, criteria: Criteria, by: ObjectId) -> DbResult<Criteria> {
    let saved = collection(db)
        .find_one_and_update(
            doc! { "_id": DEFAULT_ID },
            doc! { "$set": {
                "minFollowers": criteria.min_followers,
                "minPosts": criteria.min_posts,
                "minEngagementRate": criteria.min_engagement_rate,
                "minAccountAgeDays": criteria.min_account_age_days,
                "updatedBy": by,
                "updatedAt": now(),
            } },
        )
        .upsert(true)
        .return_document(ReturnDocument::After)
        .await
        .db_context("saving the subscription criteria")?;
    Ok(saved.map(|s| s.criteria).unwrap_or(criteria))
}
