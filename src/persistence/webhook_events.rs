//! The `webhook_events` collection: each provider event id once (`_id`), inserted before the
//! event is processed, so a redelivered or duplicated event is processed once.

use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{is_duplicate_key, now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "webhook_events";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEvent {
    #[serde(rename = "_id")]
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// `processing`, then `processed` (or `ignored` for types we do not act on).
    pub status: String,
    pub received_at: DateTime,
    #[serde(default)]
    pub processed_at: Option<DateTime>,
}

fn collection(db: &Db) -> Collection<WebhookEvent> {
    db.database().collection(COLLECTION)
}

/// Records an event as being processed; `false` when it was seen before.
pub async fn begin(db: &Db, id: &str, kind: &str) -> DbResult<bool> {
    let event = WebhookEvent {
        id: id.to_string(),
        kind: kind.to_string(),
        status: "processing".into(),
        received_at: now(),
        processed_at: None,
    };
    match collection(db).insert_one(&event).await {
        Ok(_) => Ok(true),
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("recording a webhook event"),
    }
}

/// Marks an event done.
pub async fn finish(db: &Db, id: &str, status: &str) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": { "status": status, "processedAt": now() } },
        )
        .await
        .db_context("finishing a webhook event")?;
    Ok(())
}

/// Forgets an event whose processing failed, so the provider's retry processes it.
pub async fn forget(db: &Db, id: &str) -> DbResult<()> {
    collection(db)
        .delete_one(doc! { "_id": id })
        .await
        .db_context("forgetting a webhook event")?;
    Ok(())
}

/// How an event stands, if seen.
pub async fn find(db: &Db, id: &str) -> DbResult<Option<WebhookEvent>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("reading a webhook event")
}
