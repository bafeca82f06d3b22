//! The `post_appeals` collection: an author's request that an administrator lift the block on
//! their post. Administrators review them in the admin API.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "post_appeals";

/// Where an appeal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AppealStatus {
    Pending,
    Accepted,
    Rejected,
}

/// A stored appeal.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Appeal {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub post_id: ObjectId,
    pub post_title: String,
    pub author_id: ObjectId,
    pub message: String,
    pub status: AppealStatus,
    pub created_at: DateTime,
    pub updated_at: DateTime,
    /// The revision of the post appealed, pinned as evidence.
    #[serde(default)]
    pub revision_id: Option<ObjectId>,
    /// When an administrator decided it.
    #[serde(default)]
    pub decided_at: Option<DateTime>,
    /// The administrator who decided it.
    #[serde(default)]
    pub decided_by: Option<ObjectId>,
    /// What the administrator told the author with the decision.
    #[serde(default)]
    pub reply: Option<String>,
}

/// One decision per appeal: `_id` = the appeal's id (see `leases`).
pub const DECISIONS: &str = "appeal_decisions";
/// One pending appeal per post: `_id` = the post's id, held while its appeal waits.
pub const PENDING: &str = "appeal_pending";

/// Which appeals a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Pending,
    Decided,
    All,
}

fn collection(db: &Db) -> Collection<Appeal> {
    db.database().collection(COLLECTION)
}

/// Appeals of a post; pending ones by date for the admin queue.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let by_post = index(doc! { "postId": 1, "status": 1 }, "post_status");
    let queue = index(doc! { "status": 1, "createdAt": -1 }, "status_created");
    super::create_indexes(&collection(db), [by_post, queue], "creating appeal indexes").await?;
    Ok(())
}

/// Takes the post's one pending appeal: `false` when another appeal of it waits.
pub async fn claim_pending(db: &Db, post_id: ObjectId) -> DbResult<bool> {
    super::leases::claim(db, PENDING, &doc! { "_id": post_id, "createdAt": now() }).await
}

/// Lets the post be appealed again (its appeal was decided, or could not be recorded).
pub async fn release_pending(db: &Db, post_id: ObjectId) -> DbResult<()> {
    super::leases::drop_claim(db, PENDING, post_id).await
}

/// Records a pending appeal (its claim taken with [`claim_pending`]).
pub async fn create(
    db: &Db,
    post_id: ObjectId,
    post_title: &str,
    author_id: ObjectId,
    message: &str,
) -> DbResult<Appeal> {
    let at = now();
    let appeal = Appeal {
        id: ObjectId::new(),
        post_id,
        post_title: post_title.to_string(),
        author_id,
        message: message.to_string(),
        status: AppealStatus::Pending,
        created_at: at,
        updated_at: at,
        revision_id: None,
        decided_at: None,
        decided_by: None,
        reply: None,
    };
    collection(db)
        .insert_one(&appeal)
        .await
        .db_context("recording an appeal")?;
    Ok(appeal)
}

/// Records the revision an appeal pinned.
pub async fn set_revision(db: &Db, id: ObjectId, revision: ObjectId) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": { "revisionId": revision } },
        )
        .await
        .db_context("recording an appeal's revision")?;
    Ok(())
}

/// The pending appeal of a post, if any.
pub async fn find_pending(db: &Db, post_id: ObjectId) -> DbResult<Option<Appeal>> {
    collection(db)
        .find_one(doc! { "postId": post_id, "status": "pending" })
        .await
        .db_context("loading a pending appeal")
}

pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Appeal>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading an appeal")
}

/// A page of appeals, newest first, and how many match.
pub async fn page(db: &Db, filter: Filter, skip: u64, limit: i64) -> DbResult<(Vec<Appeal>, u64)> {
    let filter = match filter {
        Filter::Pending => doc! { "status": "pending" },
        Filter::Decided => doc! { "status": { "$in": ["accepted", "rejected"] } },
        Filter::All => doc! {},
    };
    super::newest_page(&collection(db), filter, skip, limit).await
}

/// Takes the one decision of an appeal: `false` when another administrator decided it first.
pub async fn claim_decision(db: &Db, id: ObjectId, by: ObjectId) -> DbResult<bool> {
    super::leases::claim(
        db,
        DECISIONS,
        &doc! { "_id": id, "decidedBy": by, "createdAt": now() },
    )
    .await
}

/// Gives up a decision claimed with [`claim_decision`] that could not be carried out.
pub async fn drop_decision(db: &Db, id: ObjectId) -> DbResult<()> {
    super::leases::drop_claim(db, DECISIONS, id).await
}

/// Records the decision taken with [`claim_decision`]; returns the appeal as it is now.
pub async fn record_decision(
    db: &Db,
    id: ObjectId,
    status: AppealStatus,
    by: ObjectId,
    reply: Option<&str>,
) -> DbResult<Option<Appeal>> {
    let at = now();
    let status = match status {
        AppealStatus::Pending => "pending",
        AppealStatus::Accepted => "accepted",
        AppealStatus::Rejected => "rejected",
    };
    collection(db)
        .find_one_and_update(
            doc! { "_id": id },
            doc! { "$set": {
                "status": status, "decidedAt": at, "decidedBy": by, "reply": reply,
                "updatedAt": at,
            } },
        )
        .return_document(mongodb::options::ReturnDocument::After)
        .await
        .db_context("recording an appeal's decision")
}

/// How many appeals wait for an administrator.
pub async fn count_pending(db: &Db) -> DbResult<u64> {
    collection(db)
        .count_documents(doc! { "status": "pending" })
        .await
        .db_context("counting pending appeals")
}

/// Removes the appeals of a deleted post (and their decisions).
pub async fn delete_for_post(db: &Db, post_id: ObjectId) -> DbResult<()> {
    let ids =
        super::account_records::ids_in(db, COLLECTION, doc! { "postId": post_id }, "_id").await?;
    if !ids.is_empty() {
        db.database()
            .collection::<mongodb::bson::Document>(DECISIONS)
            .delete_many(doc! { "_id": { "$in": ids } })
            .await
            .db_context("deleting a post's appeal decisions")?;
    }
    release_pending(db, post_id).await?;
    collection(db)
        .delete_many(doc! { "postId": post_id })
        .await
        .db_context("deleting a post's appeals")?;
    Ok(())
}
