//! The `reports` collection: signed-in users report posts; administrators review them and may
//! forward them to the post's author, who acknowledges. One open (not yet reviewed) report per
//! user and post is guarded by a claim in `report_locks` ([`super::leases::claim`]), whose `_id`
//! is `{reporterId}:{postId}` (an `_id` insert is atomic on every MongoDB-compatible store;
//! partial unique indexes are not).

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, leases, now, Db, DbContext, DbError, DbResult};

pub const COLLECTION: &str = "reports";
pub const LOCKS: &str = "report_locks";

/// A stored report.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub post_id: ObjectId,
    /// Copied in, so the report reads well after the post is edited.
    pub post_title: String,
    pub post_slug: String,
    /// The post's author.
    pub author_id: ObjectId,
    /// Who reported it; `None` once their account was removed.
    #[serde(default)]
    pub reporter_id: Option<ObjectId>,
    pub reason: String,
    #[serde(default)]
    pub details: String,
    #[serde(default)]
    pub is_reviewed: bool,
    #[serde(default)]
    pub reviewed_at: Option<DateTime>,
    #[serde(default)]
    pub reviewed_by: Option<ObjectId>,
    #[serde(default)]
    pub forwarded_to_author: bool,
    #[serde(default)]
    pub forwarded_at: Option<DateTime>,
    #[serde(default)]
    pub is_acknowledged: bool,
    #[serde(default)]
    pub acknowledged_at: Option<DateTime>,
    /// Notices sent to the author about it.
    #[serde(default)]
    pub notices_sent: i32,
    pub created_at: DateTime,
    /// The revision of the post the reporter saw, pinned as evidence.
    #[serde(default)]
    pub revision_id: Option<ObjectId>,
    /// The post was deleted since (the report and its evidence stay).
    #[serde(default)]
    pub post_deleted: bool,
}

fn collection(db: &Db) -> Collection<Report> {
    db.database().collection(COLLECTION)
}

fn locks(db: &Db) -> Collection<Document> {
    db.database().collection(LOCKS)
}

fn lock_key(reporter: ObjectId, post: ObjectId) -> String {
    format!("{}:{}", reporter.to_hex(), post.to_hex())
}

/// Newest first; per post (deleted with it).
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            index(doc! { "createdAt": -1, "_id": -1 }, "created"),
            index(doc! { "postId": 1 }, "post"),
            index(doc! { "reporterId": 1 }, "reporter"),
        ],
        "creating report indexes",
    )
    .await?;
    super::create_indexes(
        &locks(db),
        [index(doc! { "postId": 1 }, "post")],
        "creating report lock indexes",
    )
    .await?;
    Ok(())
}

/// Marks the reports of a deleted post.
pub async fn mark_post_deleted(db: &Db, post_id: ObjectId) -> DbResult<()> {
    collection(db)
        .update_many(
            doc! { "postId": post_id },
            doc! { "$set": { "postDeleted": true, "postDeletedAt": now() } },
        )
        .await
        .db_context("marking the reports of a deleted post")?;
    Ok(())
}

/// Records the revision a report pinned.
pub async fn set_revision(db: &Db, id: ObjectId, revision: ObjectId) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": { "revisionId": revision } },
        )
        .await
        .db_context("recording a report's revision")?;
    Ok(())
}

/// Stores a report unless its reporter has an open one on the same post
/// (`DbError::Duplicate`).
pub async fn create(db: &Db, report: &Report) -> DbResult<()> {
    let Some(reporter) = report.reporter_id else {
        return Err(DbError::Other(anyhow::anyhow!(
            "a report needs its reporter"
        )));
    };
    let key = lock_key(reporter, report.post_id);
    let lock = doc! { "_id": &key, "postId": report.post_id, "reportId": report.id };
    if !leases::claim(db, LOCKS, &lock).await? {
        return Err(DbError::Duplicate("An open report"));
    }
    if let Err(e) = collection(db).insert_one(report).await {
        let _ = leases::drop_claim(db, LOCKS, key).await;
        return Err(e).db_context("storing a report");
    }
    Ok(())
}

/// One report.
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Report>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a report")
}

/// One page, newest first, and how many there are.
pub async fn page(db: &Db, skip: u64, limit: i64) -> DbResult<(Vec<Report>, u64)> {
    super::newest_page(&collection(db), doc! {}, skip, limit).await
}

/// How many reports match `filter`.
pub async fn count(db: &Db, filter: Document) -> DbResult<u64> {
    collection(db)
        .count_documents(filter)
        .await
        .db_context("counting reports")
}

/// How many reports were made since `since`.
pub async fn count_created_since(db: &Db, since: DateTime) -> DbResult<u64> {
    count(db, doc! { "createdAt": { "$gte": since } }).await
}

/// How many reports are not reviewed yet.
pub async fn count_unreviewed(db: &Db) -> DbResult<u64> {
    count(db, doc! { "isReviewed": false }).await
}

/// Marks a report reviewed (and forwarded, when `forward`); the reporter may report the post
/// again afterwards. Returns the report as it is now.
pub async fn review(
    db: &Db,
    report: &Report,
    by: ObjectId,
    forward: bool,
) -> DbResult<Option<Report>> {
    let at = now();
    let mut set = doc! { "isReviewed": true };
    if !report.is_reviewed {
        set.insert("reviewedAt", at);
        set.insert("reviewedBy", by);
    }
    if forward && !report.forwarded_to_author {
        set.insert("forwardedToAuthor", true);
        set.insert("forwardedAt", at);
    }
    let updated = collection(db)
        .find_one_and_update(doc! { "_id": report.id }, doc! { "$set": set })
        .return_document(ReturnDocument::After)
        .await
        .db_context("reviewing a report")?;
    if let Some(reporter) = report.reporter_id {
        leases::drop_claim(db, LOCKS, lock_key(reporter, report.post_id)).await?;
    }
    Ok(updated)
}

/// Counts a notice sent to the author.
pub async fn count_notice(db: &Db, id: ObjectId) -> DbResult<()> {
    collection(db)
        .update_one(doc! { "_id": id }, doc! { "$inc": { "noticesSent": 1 } })
        .await
        .db_context("counting a report notice")?;
    Ok(())
}

/// Marks a report acknowledged by its post's author (the first time only); returns it.
pub async fn acknowledge(db: &Db, id: ObjectId) -> DbResult<Option<Report>> {
    collection(db)
        .find_one_and_update(
            doc! { "_id": id, "isAcknowledged": { "$ne": true } },
            doc! { "$set": { "isAcknowledged": true, "acknowledgedAt": now() } },
        )
        .await
        .db_context("acknowledging a report")?;
    find_by_id(db, id).await
}
