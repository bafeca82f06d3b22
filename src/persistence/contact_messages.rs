//! The `contact_messages` collection: what visitors write through the contact form, and the
//! administrators' handling of it (handled flag, the reply sent by email).

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "contact_messages";

/// The reply an administrator sent.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactReply {
    pub subject: String,
    pub message: String,
    pub replied_by: ObjectId,
    pub replied_at: DateTime,
    /// The email log record of the reply.
    pub email_log_id: ObjectId,
}

/// A stored contact message.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactMessage {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub is_handled: bool,
    /// The account that wrote it, when the sender was signed in.
    #[serde(default)]
    pub user_id: Option<ObjectId>,
    #[serde(default)]
    pub handled_at: Option<DateTime>,
    #[serde(default)]
    pub handled_by: Option<ObjectId>,
    #[serde(default)]
    pub reply: Option<ContactReply>,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<ContactMessage> {
    db.database().collection(COLLECTION)
}

/// Newest first.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            index(doc! { "createdAt": -1, "_id": -1 }, "created"),
            index(doc! { "email": 1, "createdAt": -1 }, "email_created"),
        ],
        "creating contact message indexes",
    )
    .await?;
    Ok(())
}

/// Stores a new message.
pub async fn insert(db: &Db, message: &ContactMessage) -> DbResult<()> {
    collection(db)
        .insert_one(message)
        .await
        .db_context("storing a contact message")?;
    Ok(())
}

/// One message.
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<ContactMessage>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a contact message")
}

/// One page, newest first, and how many there are.
pub async fn page(db: &Db, skip: u64, limit: i64) -> DbResult<(Vec<ContactMessage>, u64)> {
    super::newest_page(&collection(db), doc! {}, skip, limit).await
}

/// How many contact messages match `filter`.
pub async fn count(db: &Db, filter: Document) -> DbResult<u64> {
    collection(db)
        .count_documents(filter)
        .await
        .db_context("counting contact messages")
}

/// How many contact messages arrived since `since`.
pub async fn count_created_since(db: &Db, since: DateTime) -> DbResult<u64> {
    count(db, doc! { "createdAt": { "$gte": since } }).await
}

/// How many contact messages are not handled yet.
pub async fn count_unhandled(db: &Db) -> DbResult<u64> {
    count(db, doc! { "isHandled": false }).await
}

/// Flips the handled flag if it is still `from`; `None`: no such message, or changed meanwhile.
pub async fn toggle_handled(
    db: &Db,
    id: ObjectId,
    from: bool,
    by: ObjectId,
) -> DbResult<Option<ContactMessage>> {
    let update = if from {
        doc! { "$set": { "isHandled": false, "handledAt": null, "handledBy": null } }
    } else {
        doc! { "$set": { "isHandled": true, "handledAt": now(), "handledBy": by } }
    };
    collection(db)
        .find_one_and_update(doc! { "_id": id, "isHandled": from }, update)
        .return_document(ReturnDocument::After)
        .await
        .db_context("marking a contact message")
}

/// Records the reply sent and marks the message handled.
pub async fn record_reply(
    db: &Db,
    id: ObjectId,
    reply: &ContactReply,
) -> DbResult<Option<ContactMessage>> {
    let reply = mongodb::bson::to_bson(reply)
        .map_err(|e| super::DbError::Other(anyhow::anyhow!("encoding a reply: {e}")))?;
    collection(db)
        .find_one_and_update(
            doc! { "_id": id },
            doc! { "$set": {
                "reply": reply.clone(),
                "isHandled": true,
                "handledAt": now(),
                "handledBy": reply.as_document().and_then(|d| d.get("repliedBy").cloned()),
            } },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("recording a contact reply")
}
