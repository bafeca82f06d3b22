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

/// What became of an attempt to start processing an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Begin {
    /// This delivery processes it.
    Started,
    /// Processed before: nothing to do.
    Done,
    /// Another delivery is processing it right now.
    InFlight,
}

/// Records an event as being processed. An event left `processing` for longer than
/// `stale_after_ms` (its processor died) is taken over by this delivery.
pub async fn begin(db: &Db, id: &str, kind: &str, stale_after_ms: i64) -> DbResult<Begin> {
    let event = WebhookEvent {
        id: id.to_string(),
        kind: kind.to_string(),
        status: "processing".into(),
        received_at: now(),
        processed_at: None,
    };
    match collection(db).insert_one(&event).await {
        Ok(_) => return Ok(Begin::Started),
        Err(e) if is_duplicate_key(&e) => {}
        Err(e) => return Err(e).db_context("recording a webhook event"),
    }
    let Some(seen) = find(db, id).await? else {
        // Forgotten between the two reads (its processing failed): the provider retries.
        return Ok(Begin::InFlight);
    };
    if seen.status != "processing" {
        return Ok(Begin::Done);
    }
    if now().timestamp_millis() - seen.received_at.timestamp_millis() < stale_after_ms {
        return Ok(Begin::InFlight);
    }
    // Taken over only by the delivery whose update still finds the stale start.
    let taken = collection(db)
        .update_one(
            doc! { "_id": id, "status": "processing", "receivedAt": seen.received_at },
            doc! { "$set": { "receivedAt": now() } },
        )
        .await
        .db_context("taking over a webhook event")?;
    Ok(if taken.modified_count == 1 {
        Begin::Started
    } else {
        Begin::InFlight
    })
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
