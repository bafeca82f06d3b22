//! The `data_exports` collection: a user's requests for a copy of their data, and the ZIP file
//! the job worker wrote for each.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::options::FindOptions;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "data_exports";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataExport {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub user_id: ObjectId,
    /// `pending`, `running`, `ready` or `failed`.
    pub state: String,
    pub created_at: DateTime,
    #[serde(default)]
    pub finished_at: Option<DateTime>,
    /// Bytes of the ZIP file.
    #[serde(default)]
    pub size: Option<i64>,
    /// When the download stops working (and the file is removed).
    #[serde(default)]
    pub expires_at: Option<DateTime>,
    #[serde(default)]
    pub lease_until: Option<DateTime>,
}

fn collection(db: &Db) -> Collection<DataExport> {
    db.database().collection(COLLECTION)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    for model in [
        index(doc! { "userId": 1, "createdAt": -1 }, "user_created"),
        index(doc! { "state": 1 }, "state"),
    ] {
        collection(db)
            .create_index(model)
            .await
            .db_context("creating data export indexes")?;
    }
    Ok(())
}

pub async fn insert(db: &Db, export: &DataExport) -> DbResult<()> {
    collection(db)
        .insert_one(export)
        .await
        .db_context("recording a data export")?;
    Ok(())
}

/// The user's latest export made after `since`.
pub async fn latest_since(
    db: &Db,
    user_id: ObjectId,
    since: DateTime,
) -> DbResult<Option<DataExport>> {
    collection(db)
        .find_one(doc! { "userId": user_id, "createdAt": { "$gt": since } })
        .sort(doc! { "createdAt": -1 })
        .await
        .db_context("reading the latest data export")
}

/// The user's exports, newest first.
pub async fn list_for_user(db: &Db, user_id: ObjectId) -> DbResult<Vec<DataExport>> {
    let options = FindOptions::builder()
        .sort(doc! { "createdAt": -1 })
        .limit(20)
        .build();
    collection(db)
        .find(doc! { "userId": user_id })
        .with_options(options)
        .await
        .db_context("listing data exports")?
        .try_collect()
        .await
        .db_context("reading data exports")
}

pub async fn find(db: &Db, id: ObjectId) -> DbResult<Option<DataExport>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("reading a data export")
}

/// Claims one pending export (or one whose worker's lease ran out) for `lease_secs` seconds.
pub async fn claim(db: &Db, lease_secs: i64) -> DbResult<Option<DataExport>> {
    let now = chrono::Utc::now();
    collection(db)
        .find_one_and_update(
            doc! {
                "$or": [
                    { "state": "pending" },
                    { "state": "running", "leaseUntil": { "$lt": DateTime::from_chrono(now) } },
                ],
            },
            doc! { "$set": {
                "state": "running",
                "leaseUntil": DateTime::from_chrono(now + chrono::Duration::seconds(lease_secs)),
            } },
        )
        .await
        .db_context("claiming a data export")
}

/// The export's file is written.
pub async fn finish(db: &Db, id: ObjectId, size: i64, expires_at: DateTime) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": {
                "state": "ready",
                "size": size,
                "finishedAt": DateTime::now(),
                "expiresAt": expires_at,
            }, "$unset": { "leaseUntil": "" } },
        )
        .await
        .db_context("finishing a data export")?;
    Ok(())
}

pub async fn fail(db: &Db, id: ObjectId) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": { "state": "failed", "finishedAt": DateTime::now() }, "$unset": { "leaseUntil": "" } },
        )
        .await
        .db_context("marking a data export failed")?;
    Ok(())
}
