//! The `imports` collection: a writer's imports of an archive or a feed, from the upload's
//! reading (`parsing`) to its preview, its writing (`importing`) and its end (`done`, `failed`,
//! `cancelled`). The job worker claims the ones to read or write under a lease, so a restart
//! takes them up again.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{index, Db, DbContext, DbError, DbResult};

pub const COLLECTION: &str = "imports";

/// The states an import goes through.
pub const PARSING: &str = "parsing";
pub const PREVIEW: &str = "preview";
pub const IMPORTING: &str = "importing";
pub const DONE: &str = "done";
pub const FAILED: &str = "failed";
pub const CANCELLED: &str = "cancelled";

/// What an archive holds, by kind and status.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ImportCounts {
    /// Posts (pages not included).
    pub posts: u64,
    /// Of them, drafts where they came from.
    pub drafts: u64,
    /// Of them, scheduled where they came from.
    pub scheduled: u64,
    pub pages: u64,
    /// Entries that are not imported (responses, trashed posts, attachments' own entries...).
    pub skipped: u64,
    /// Images the posts use.
    pub images: u64,
    /// Comments on the posts.
    pub comments: u64,
}

/// Where the reading or the writing stands.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ImportProgress {
    /// `parsing`, `writing` or `done`.
    pub phase: String,
    pub done: u64,
    pub total: u64,
}

/// What the writing did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ImportReport {
    /// Posts written.
    pub created: u64,
    /// Posts already imported before (by the same writer from the same source), not written again.
    pub skipped: u64,
    /// Posts that could not be written.
    pub failed: u64,
    pub images_fetched: u64,
    pub images_failed: u64,
    pub comments: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Import {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub owner_id: ObjectId,
    /// `wordpress`, `medium`, `substack`, `ghost`, `pressroom` or `feed`.
    pub source: String,
    pub status: String,
    #[serde(default)]
    pub file_name: Option<String>,
    /// The feed's address.
    #[serde(default)]
    pub url: Option<String>,
    pub created_at: DateTime,
    pub updated_at: DateTime,
    #[serde(default)]
    pub counts: ImportCounts,
    #[serde(default)]
    pub warnings: Vec<String>,
    /// A few posts as they will look (title, status, blocks).
    #[serde(default)]
    pub sample: Vec<Value>,
    #[serde(default)]
    pub progress: ImportProgress,
    #[serde(default)]
    pub report: Option<ImportReport>,
    #[serde(default)]
    pub error: Option<String>,
    /// The writer's choices at confirmation.
    #[serde(default)]
    pub keep_status: bool,
    #[serde(default)]
    pub import_comments: bool,
    #[serde(default)]
    pub lease_until: Option<DateTime>,
}

fn bson_of<T: Serialize + ?Sized>(value: &T) -> DbResult<mongodb::bson::Bson> {
    mongodb::bson::to_bson(value)
        .map_err(|e| DbError::Other(anyhow::Error::new(e).context("encoding an import")))
}

fn collection(db: &Db) -> Collection<Import> {
    db.database().collection(COLLECTION)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    for model in [
        index(doc! { "ownerId": 1, "createdAt": -1 }, "owner_created"),
        index(doc! { "status": 1 }, "status"),
    ] {
        collection(db)
            .create_index(model)
            .await
            .db_context("creating import indexes")?;
    }
    Ok(())
}

pub async fn insert(db: &Db, import: &Import) -> DbResult<()> {
    collection(db)
        .insert_one(import)
        .await
        .db_context("recording an import")?;
    Ok(())
}

/// The import `id` of `owner`.
pub async fn find_for(db: &Db, owner: ObjectId, id: ObjectId) -> DbResult<Option<Import>> {
    collection(db)
        .find_one(doc! { "_id": id, "ownerId": owner })
        .await
        .db_context("reading an import")
}

pub async fn find(db: &Db, id: ObjectId) -> DbResult<Option<Import>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("reading an import")
}

/// The writer's imports, newest first (at most `limit`).
pub async fn list_for(db: &Db, owner: ObjectId, limit: i64) -> DbResult<Vec<Import>> {
    collection(db)
        .find(doc! { "ownerId": owner })
        .sort(doc! { "createdAt": -1 })
        .limit(limit)
        .projection(doc! { "sample": 0 })
        .await
        .db_context("listing imports")?
        .try_collect()
        .await
        .db_context("reading imports")
}

/// How many of the writer's imports are being read or written now.
pub async fn active_count(db: &Db, owner: ObjectId) -> DbResult<u64> {
    collection(db)
        .count_documents(doc! { "ownerId": owner, "status": { "$in": [PARSING, IMPORTING] } })
        .await
        .db_context("counting running imports")
}

/// Claims one import to read or write (one no worker holds, or whose worker's lease ran out)
/// for `lease_secs` seconds.
pub async fn claim(db: &Db, lease_secs: i64) -> DbResult<Option<Import>> {
    let now = chrono::Utc::now();
    collection(db)
        .find_one_and_update(
            doc! {
                "status": { "$in": [PARSING, IMPORTING] },
                "$or": [
                    { "leaseUntil": null },
                    { "leaseUntil": { "$lt": DateTime::from_chrono(now) } },
                ],
            },
            doc! { "$set": {
                "leaseUntil": DateTime::from_chrono(now + chrono::Duration::seconds(lease_secs)),
            } },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("claiming an import")
}

/// Keeps the worker's lease and records the progress; answers the import as it stands now,
/// without its sample (a cancellation shows in its status).
pub async fn heartbeat(
    db: &Db,
    id: ObjectId,
    lease_secs: i64,
    progress: &ImportProgress,
    report: Option<&ImportReport>,
) -> DbResult<Option<Import>> {
    let now = chrono::Utc::now();
    let mut set = doc! {
        "leaseUntil": DateTime::from_chrono(now + chrono::Duration::seconds(lease_secs)),
        "progress": bson_of(progress)?,
        "updatedAt": DateTime::from_chrono(now),
    };
    if let Some(report) = report {
        set.insert("report", bson_of(report)?);
    }
    collection(db)
        .update_one(doc! { "_id": id }, doc! { "$set": set })
        .await
        .db_context("recording an import's progress")?;
    collection(db)
        .find_one(doc! { "_id": id })
        .projection(doc! { "sample": 0 })
        .await
        .db_context("reading an import")
}

/// The reading ended with a preview (unless the import was cancelled meanwhile).
pub async fn preview_ready(
    db: &Db,
    id: ObjectId,
    counts: &ImportCounts,
    warnings: &[String],
    sample: &[Value],
) -> DbResult<bool> {
    let result = collection(db)
        .update_one(
            doc! { "_id": id, "status": PARSING },
            doc! {
                "$set": {
                    "status": PREVIEW,
                    "counts": bson_of(counts)?,
                    "warnings": warnings,
                    "sample": bson_of(&sample)?,
                    "progress": { "phase": "preview", "done": 0, "total": i64::try_from(counts.posts + counts.pages).unwrap_or(i64::MAX) },
                    "updatedAt": DateTime::now(),
                },
                "$unset": { "leaseUntil": "" },
            },
        )
        .await
        .db_context("recording an import's preview")?;
    Ok(result.modified_count == 1)
}

/// The import ended (`done` or `failed`) from the status it was in.
pub async fn end(
    db: &Db,
    id: ObjectId,
    from: &str,
    status: &str,
    error: Option<&str>,
    report: Option<&ImportReport>,
    warnings: &[String],
) -> DbResult<bool> {
    let mut set = doc! { "status": status, "updatedAt": DateTime::now() };
    if let Some(error) = error {
        set.insert("error", error);
    }
    if let Some(report) = report {
        set.insert("report", bson_of(report)?);
    }
    let mut update = doc! { "$set": set, "$unset": { "leaseUntil": "" } };
    if !warnings.is_empty() {
        update.insert("$push", doc! { "warnings": { "$each": warnings } });
    }
    let result = collection(db)
        .update_one(doc! { "_id": id, "status": from }, update)
        .await
        .db_context("ending an import")?;
    Ok(result.modified_count == 1)
}

/// The writer confirmed the preview: the import is written next. False unless it was in preview.
pub async fn confirm(
    db: &Db,
    owner: ObjectId,
    id: ObjectId,
    keep_status: bool,
    import_comments: bool,
) -> DbResult<bool> {
    let result = collection(db)
        .update_one(
            doc! { "_id": id, "ownerId": owner, "status": PREVIEW },
            doc! {
                "$set": {
                    "status": IMPORTING,
                    "keepStatus": keep_status,
                    "importComments": import_comments,
                    "progress": { "phase": "writing", "done": 0, "total": 0 },
                    "updatedAt": DateTime::now(),
                },
                "$unset": { "leaseUntil": "" },
            },
        )
        .await
        .db_context("confirming an import")?;
    Ok(result.modified_count == 1)
}

/// The writer cancelled an import still being read, previewed or written. False otherwise.
pub async fn cancel(db: &Db, owner: ObjectId, id: ObjectId) -> DbResult<bool> {
    let result = collection(db)
        .update_one(
            doc! { "_id": id, "ownerId": owner, "status": { "$in": [PARSING, PREVIEW, IMPORTING] } },
            doc! { "$set": { "status": CANCELLED, "updatedAt": DateTime::now() } },
        )
        .await
        .db_context("cancelling an import")?;
    Ok(result.modified_count == 1)
}
