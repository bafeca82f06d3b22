//! The `email_logs` collection: one record per message sent or attempted, for the admin email
//! status screens.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "email_logs";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmailLog {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub email: String,
    /// What kind of message: `verify_otp`, `reset_otp`, `welcome`, ...
    #[serde(rename = "type")]
    pub kind: String,
    pub subject: String,
    pub success: bool,
    pub error: Option<String>,
    pub attempts: i32,
    /// True once the sender has given up on this message.
    pub stop_email_attempts: bool,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<EmailLog> {
    db.database().collection(COLLECTION)
}

/// Indexes for lookups by address and type.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let by_email = index(doc! { "email": 1, "createdAt": -1 }, "email_created");
    let by_type = index(doc! { "type": 1, "createdAt": -1 }, "type_created");
    collection(db)
        .create_indexes([by_email, by_type])
        .await
        .db_context("creating email log indexes")?;
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

/// The most recent records for an address, newest first.
pub async fn for_email(db: &Db, email: &str, limit: i64) -> DbResult<Vec<EmailLog>> {
    use futures_util::TryStreamExt;
    let cursor = collection(db)
        .find(doc! { "email": email })
        .sort(doc! { "createdAt": -1 })
        .limit(limit)
        .await
        .db_context("listing email logs")?;
    cursor.try_collect().await.db_context("reading email logs")
}
