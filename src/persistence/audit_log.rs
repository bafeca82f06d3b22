//! The `audit_log` collection: one record per administrator action (who, what, target, when,
//! details), never changed or removed by the application.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "audit_log";

/// One administrator action.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// The administrator.
    pub actor_id: ObjectId,
    /// Their name and email when they acted (kept readable after the account is gone).
    pub actor_name: String,
    pub actor_email: String,
    /// What was done, e.g. `user.block`.
    pub action: String,
    /// What it was done to: `user`, `post`, `contact_message`, `report`, `email`, `site`, ...
    pub target_type: String,
    #[serde(default)]
    pub target_id: Option<String>,
    /// A readable name of the target (a user's email, a post's title) at the time.
    #[serde(default)]
    pub target_label: Option<String>,
    /// Anything else worth keeping (counts, the message sent, the choice made).
    #[serde(default)]
    pub details: Document,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<AuditEntry> {
    db.database().collection(COLLECTION)
}

/// Newest first, per actor and per target.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            index(doc! { "createdAt": -1, "_id": -1 }, "created"),
            index(doc! { "actorId": 1, "createdAt": -1 }, "actor_created"),
            index(doc! { "targetId": 1, "createdAt": -1 }, "target_created"),
        ],
        "creating audit log indexes",
    )
    .await?;
    Ok(())
}

/// Appends one entry.
pub async fn insert(db: &Db, entry: &AuditEntry) -> DbResult<()> {
    collection(db)
        .insert_one(entry)
        .await
        .db_context("recording an administrator action")?;
    Ok(())
}

/// One page of the entries matching `filter`, newest first, and how many match.
pub async fn page(
    db: &Db,
    filter: Document,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<AuditEntry>, u64)> {
    super::newest_page(&collection(db), filter, skip, limit).await
}
