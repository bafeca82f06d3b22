//! The `user_activity` collection: what a user did (liked, commented, followed...), for their
//! own activity page. Entries are `{userId, type, details, postId?, targetUserId?, createdAt}`.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "user_activity";

/// A stored activity entry.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Activity {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub user_id: ObjectId,
    #[serde(rename = "type")]
    pub kind: String,
    pub details: String,
    #[serde(default)]
    pub post_id: Option<ObjectId>,
    #[serde(default)]
    pub target_user_id: Option<ObjectId>,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<Activity> {
    db.database().collection(COLLECTION)
}

/// A user's entries by time.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    collection(db)
        .create_index(index(doc! { "userId": 1, "createdAt": -1 }, "user_created"))
        .await
        .db_context("creating activity indexes")?;
    Ok(())
}

/// Records an entry.
pub async fn record(
    db: &Db,
    user: ObjectId,
    kind: &str,
    details: &str,
    post: Option<ObjectId>,
    target_user: Option<ObjectId>,
) -> DbResult<()> {
    let entry = Activity {
        id: ObjectId::new(),
        user_id: user,
        kind: kind.to_string(),
        details: details.to_string(),
        post_id: post,
        target_user_id: target_user,
        created_at: now(),
    };
    collection(db)
        .insert_one(entry)
        .await
        .db_context("recording activity")?;
    Ok(())
}

/// One page of a user's entries, newest first, and the total.
pub async fn page(
    db: &Db,
    user: ObjectId,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<Activity>, u64)> {
    let total = collection(db)
        .count_documents(doc! { "userId": user })
        .await
        .db_context("counting activity")?;
    let entries = collection(db)
        .find(doc! { "userId": user })
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .skip(skip)
        .limit(limit)
        .await
        .db_context("listing activity")?
        .try_collect()
        .await
        .db_context("reading activity")?;
    Ok((entries, total))
}

/// Deletes a user's entries older than `before` (all of them without it); returns how many.
pub async fn clear(db: &Db, user: ObjectId, before: Option<DateTime>) -> DbResult<u64> {
    let mut filter: Document = doc! { "userId": user };
    if let Some(before) = before {
        filter.insert("createdAt", doc! { "$lt": before });
    }
    let r = collection(db)
        .delete_many(filter)
        .await
        .db_context("clearing activity")?;
    Ok(r.deleted_count)
}
