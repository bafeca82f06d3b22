//! The `account_deletions` collection: accounts whose owner asked for their deletion, with the
//! moment the grace period ends. Signing in before then removes the record (the deletion is
//! cancelled); after it, the job worker claims the record under a lease and removes the account.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "account_deletions";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountDeletion {
    /// The user's id.
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub requested_at: DateTime,
    /// When the grace period ends and the account is removed.
    pub scheduled_at: DateTime,
    /// Until when a worker holds the removal (a worker that died lets it go at this time).
    #[serde(default)]
    pub lease_until: Option<DateTime>,
}

fn collection(db: &Db) -> Collection<AccountDeletion> {
    db.database().collection(COLLECTION)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    collection(db)
        .create_index(index(doc! { "scheduledAt": 1 }, "scheduled_at"))
        .await
        .db_context("creating account deletion indexes")?;
    Ok(())
}

/// Schedules (or keeps the earlier schedule of) the deletion of an account.
pub async fn schedule(db: &Db, record: &AccountDeletion) -> DbResult<AccountDeletion> {
    collection(db)
        .update_one(
            doc! { "_id": record.id },
            doc! { "$setOnInsert": {
                "requestedAt": record.requested_at,
                "scheduledAt": record.scheduled_at,
            } },
        )
        .upsert(true)
        .await
        .db_context("scheduling an account deletion")?;
    Ok(find(db, record.id).await?.unwrap_or_else(|| record.clone()))
}

pub async fn find(db: &Db, user_id: ObjectId) -> DbResult<Option<AccountDeletion>> {
    collection(db)
        .find_one(doc! { "_id": user_id })
        .await
        .db_context("reading an account deletion")
}

/// Cancels a scheduled deletion that no worker has started; true when there was one.
pub async fn cancel(db: &Db, user_id: ObjectId) -> DbResult<bool> {
    let res = collection(db)
        .delete_one(doc! {
            "_id": user_id,
            "$or": [
                { "leaseUntil": { "$exists": false } },
                { "leaseUntil": null },
                { "leaseUntil": { "$lt": DateTime::now() } },
            ],
        })
        .await
        .db_context("cancelling an account deletion")?;
    Ok(res.deleted_count == 1)
}

/// Claims one due deletion for `lease_secs` seconds; `None` when none is due and free.
pub async fn claim_due(db: &Db, lease_secs: i64) -> DbResult<Option<AccountDeletion>> {
    let now = chrono::Utc::now();
    collection(db)
        .find_one_and_update(
            doc! {
                "scheduledAt": { "$lte": DateTime::from_chrono(now) },
                "$or": [
                    { "leaseUntil": { "$exists": false } },
                    { "leaseUntil": null },
                    { "leaseUntil": { "$lt": DateTime::from_chrono(now) } },
                ],
            },
            doc! { "$set": { "leaseUntil": DateTime::from_chrono(now + chrono::Duration::seconds(lease_secs)) } },
        )
        .await
        .db_context("claiming an account deletion")
}

/// The removal is done.
pub async fn finish(db: &Db, user_id: ObjectId) -> DbResult<()> {
    collection(db)
        .delete_one(doc! { "_id": user_id })
        .await
        .db_context("finishing an account deletion")?;
    Ok(())
}
