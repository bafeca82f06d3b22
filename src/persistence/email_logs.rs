//! The `email_logs` collection: one record per message sent or attempted, for the admin email
//! status screens and for sending a failed message again. A record keeps what is needed to send
//! the message again (its text) except for messages carrying a one-time code, whose text is
//! never stored: those are sent again with a fresh code.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Bson, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "email_logs";
/// A claim on a record for a retry older than this is taken to be abandoned.
pub const RETRY_CLAIM_STALE_MS: i64 = 120_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmailLog {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub email: String,
    /// What kind of message: `verify_otp`, `reset_otp`, `welcome`, `contact_reply`, ...
    #[serde(rename = "type")]
    pub kind: String,
    pub subject: String,
    pub success: bool,
    pub error: Option<String>,
    /// Delivery attempts so far, retries included.
    pub attempts: i32,
    /// True when a failed message is given up: the failure was permanent (a bad address, a 5xx
    /// answer), it is no longer needed, or retries ran out. False for delivered messages.
    pub stop_email_attempts: bool,
    pub created_at: DateTime,
    /// The text, for sending again; `None` for messages with a one-time code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// The account the message was for, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<ObjectId>,
    /// A one-click unsubscribe address sent with the message (`List-Unsubscribe`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsubscribe_url: Option<String>,
    /// The HTML part of a message kept for sending it again (failed new-post emails), sent
    /// beside the text when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// Times an administrator asked to send it again.
    #[serde(default)]
    pub retries: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_attempt_at: Option<DateTime>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent_at: Option<DateTime>,
    /// Set while a retry is sending it, so two retries never send it twice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrying_at: Option<DateTime>,
}

/// The outcome of one round of delivery attempts.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub success: bool,
    pub error: Option<String>,
    /// Attempts made in this round.
    pub attempts: i32,
    pub stop: bool,
    pub at: DateTime,
}

fn collection(db: &Db) -> Collection<EmailLog> {
    db.database().collection(COLLECTION)
}

/// Indexes for lookups by address and type.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let by_email = index(doc! { "email": 1, "createdAt": -1 }, "email_created");
    let by_type = index(doc! { "type": 1, "createdAt": -1 }, "type_created");
    let failed = index(
        doc! { "type": 1, "success": 1, "stopEmailAttempts": 1 },
        "type_failed",
    );
    super::create_indexes(
        &collection(db),
        [by_email, by_type, failed],
        "creating email log indexes",
    )
    .await?;
    Ok(())
}

/// Records one message's outcome.
pub async fn record(db: &Db, log: &EmailLog) -> DbResult<()> {
    collection(db)
        .insert_one(log)
        .await
        .db_context("recording an email")?;
    Ok(())
}

/// Records many messages at once (a batch of new-post emails), each under its own `_id` unless an
/// entry is stored there already (see `persistence::insert_new`); returns the positions of
/// those stored before.
pub async fn record_many(db: &Db, logs: &[EmailLog]) -> DbResult<std::collections::HashSet<usize>> {
    super::insert_new(&collection(db), logs, "recording emails").await
}

/// The entries stored under `ids`, by id (one query).
pub async fn find_many(
    db: &Db,
    ids: &[ObjectId],
) -> DbResult<std::collections::HashMap<ObjectId, EmailLog>> {
    if ids.is_empty() {
        return Ok(Default::default());
    }
    let logs: Vec<EmailLog> = collection(db)
        .find(doc! { "_id": { "$in": ids } })
        .await
        .db_context("reading email log entries")?
        .try_collect()
        .await
        .db_context("reading email log entries")?;
    Ok(logs.into_iter().map(|l| (l.id, l)).collect())
}

fn filter_of(email: Option<&str>, kind: Option<&str>) -> Document {
    let mut filter = Document::new();
    if let Some(email) = email {
        filter.insert("email", email);
    }
    if let Some(kind) = kind {
        filter.insert("type", kind);
    }
    filter
}

/// One page of the records, newest first, optionally of one address and one type, and how
/// many there are.
pub async fn page(
    db: &Db,
    email: Option<&str>,
    kind: Option<&str>,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<EmailLog>, u64)> {
    super::newest_page(&collection(db), filter_of(email, kind), skip, limit).await
}

/// The most recent records for an address, newest first.
pub async fn for_email(db: &Db, email: &str, limit: i64) -> DbResult<Vec<EmailLog>> {
    Ok(page(db, Some(email), None, 0, limit).await?.0)
}

fn retryable() -> Document {
    doc! { "success": false, "stopEmailAttempts": false }
}

/// Ids of the failed messages of `kind` that may be sent again, oldest first.
pub async fn retryable_ids(db: &Db, kind: &str, limit: i64) -> DbResult<Vec<ObjectId>> {
    let mut filter = retryable();
    filter.insert("type", kind);
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(filter)
        .sort(doc! { "createdAt": 1, "_id": 1 })
        .limit(limit)
        .projection(doc! { "_id": 1 })
        .await
        .db_context("listing failed emails")?
        .try_collect()
        .await
        .db_context("reading failed emails")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect())
}

/// Claims a failed message for sending it again: `None` when it was sent, given up or is being
/// retried by someone else meanwhile.
pub async fn claim_for_retry(db: &Db, id: ObjectId) -> DbResult<Option<EmailLog>> {
    let at = now();
    let stale = DateTime::from_millis(at.timestamp_millis() - RETRY_CLAIM_STALE_MS);
    let mut filter = retryable();
    filter.insert("_id", id);
    filter.insert(
        "$or",
        vec![
            Bson::Document(doc! { "retryingAt": { "$exists": false } }),
            Bson::Document(doc! { "retryingAt": Bson::Null }),
            Bson::Document(doc! { "retryingAt": { "$lt": stale } }),
        ],
    );
    collection(db)
        .find_one_and_update(filter, doc! { "$set": { "retryingAt": at } })
        .return_document(ReturnDocument::After)
        .await
        .db_context("claiming a failed email")
}

/// Stores the outcome of sending a claimed message again (and releases the claim).
pub async fn finish_retry(db: &Db, id: ObjectId, outcome: &Outcome) -> DbResult<Option<EmailLog>> {
    let mut set = doc! {
        "success": outcome.success,
        "error": outcome.error.clone(),
        "stopEmailAttempts": outcome.stop,
        "lastAttemptAt": outcome.at,
        "retryingAt": Bson::Null,
    };
    if outcome.success {
        set.insert("sentAt", outcome.at);
    }
    collection(db)
        .find_one_and_update(
            doc! { "_id": id },
            doc! { "$set": set, "$inc": { "attempts": outcome.attempts, "retries": 1 } },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("recording a retried email")
}

/// One record.
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<EmailLog>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading an email log record")
}

/// Releases a retry's claim without recording an attempt (the retry failed before sending).
pub async fn release_claim(db: &Db, id: ObjectId) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": { "retryingAt": Bson::Null } },
        )
        .await
        .db_context("releasing a retry claim")?;
    Ok(())
}

/// Deletes the records of an address (the account's removal); returns how many.
pub async fn delete_for_email(db: &Db, email: &str) -> DbResult<u64> {
    let res = collection(db)
        .delete_many(doc! { "email": email })
        .await
        .db_context("deleting email logs")?;
    Ok(res.deleted_count)
}
