//! The `guest_visits` collection: one document per guest id (kept in the visitor's local
//! storage) counting their visits.

use mongodb::bson::{doc, DateTime};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, Db, DbContext, DbResult};

pub const COLLECTION: &str = "guest_visits";
/// One record per counted visit `{guestId, createdAt}`, for the site analytics by date range.
pub const EVENTS: &str = "guest_visit_events";

/// A guest's visits.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestVisit {
    #[serde(rename = "_id")]
    pub guest_id: String,
    pub visit_count: i64,
    pub first_visit: DateTime,
    pub last_visit: DateTime,
}

fn collection(db: &Db) -> Collection<GuestVisit> {
    db.database().collection(COLLECTION)
}

/// Recent guests first.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let recent = index(doc! { "lastVisit": -1 }, "last_visit");
    super::create_indexes(&collection(db), [recent], "creating guest visit indexes").await?;
    let events = db.database().collection::<mongodb::bson::Document>(EVENTS);
    let by_time = index(doc! { "createdAt": -1 }, "created");
    super::create_indexes(&events, [by_time], "creating guest visit event indexes").await?;
    Ok(())
}

/// Counts one visit of `guest_id` at `at` and returns the updated record.
pub async fn record_visit(db: &Db, guest_id: &str, at: DateTime) -> DbResult<Option<GuestVisit>> {
    db.database()
        .collection::<mongodb::bson::Document>(EVENTS)
        .insert_one(doc! { "guestId": guest_id, "createdAt": at })
        .await
        .db_context("recording a guest visit")?;
    let update = doc! {
        "$inc": { "visitCount": 1_i64 },
        "$set": { "lastVisit": at },
        "$setOnInsert": { "firstVisit": at },
    };
    let attempt = || async {
        collection(db)
            .find_one_and_update(doc! { "_id": guest_id }, update.clone())
            .upsert(true)
            .return_document(ReturnDocument::After)
            .await
    };
    match attempt().await {
        // Two first visits at once: the loser's upsert collides; retrying updates the winner's.
        Err(e) if is_duplicate_key(&e) => attempt().await.db_context("counting a guest visit"),
        other => other.db_context("counting a guest visit"),
    }
}
