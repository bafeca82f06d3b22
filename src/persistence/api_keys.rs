//! The `api_keys` collection: one document per personal API key (its SHA-256, the prefix shown,
//! name, scopes, expiry, use), never the key itself.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "api_keys";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiKey {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub user_id: ObjectId,
    pub name: String,
    /// SHA-256 of the key, hex.
    pub hash: String,
    /// The key's first characters, to recognise it.
    pub prefix: String,
    pub scopes: Vec<String>,
    #[serde(default)]
    pub expires_at: Option<DateTime>,
    pub created_at: DateTime,
    #[serde(default)]
    pub last_used_at: Option<DateTime>,
    #[serde(default)]
    pub usage_count: i64,
    #[serde(default)]
    pub revoked_at: Option<DateTime>,
}

fn collection(db: &Db) -> Collection<ApiKey> {
    db.database().collection(COLLECTION)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            unique_index(doc! { "hash": 1 }, "hash"),
            index(doc! { "userId": 1, "createdAt": -1 }, "user_created"),
        ],
        "creating API key indexes",
    )
    .await?;
    Ok(())
}

pub async fn insert(db: &Db, key: &ApiKey) -> DbResult<()> {
    collection(db)
        .insert_one(key)
        .await
        .db_context("storing an API key")?;
    Ok(())
}

/// The user's keys that are not revoked, newest first.
pub async fn for_user(db: &Db, user_id: ObjectId) -> DbResult<Vec<ApiKey>> {
    collection(db)
        .find(doc! { "userId": user_id, "revokedAt": null })
        .sort(doc! { "createdAt": -1 })
        .await
        .db_context("reading API keys")?
        .try_collect()
        .await
        .db_context("reading API keys")
}

/// How many of the user's keys are live: neither revoked nor expired (one without an expiry
/// never is). Read through the same indexed look-up as the list.
pub async fn count_live(db: &Db, user_id: ObjectId) -> DbResult<u64> {
    let now = mongodb::bson::DateTime::now();
    let live = for_user(db, user_id)
        .await?
        .iter()
        .filter(|k| k.expires_at.is_none_or(|at| at > now))
        .count();
    Ok(u64::try_from(live).unwrap_or(u64::MAX))
}

pub async fn find_by_hash(db: &Db, hash: &str) -> DbResult<Option<ApiKey>> {
    collection(db)
        .find_one(doc! { "hash": hash })
        .await
        .db_context("reading an API key")
}

/// Revokes the user's key `id`; false when there is none (or it was revoked already).
pub async fn revoke(db: &Db, user_id: ObjectId, id: ObjectId) -> DbResult<Option<ApiKey>> {
    collection(db)
        .find_one_and_update(
            doc! { "_id": id, "userId": user_id, "revokedAt": null },
            doc! { "$set": { "revokedAt": DateTime::now() } },
        )
        .await
        .db_context("revoking an API key")
}

/// Adds `uses` to the key's usage count and moves `lastUsedAt`.
pub async fn note_use(db: &Db, id: ObjectId, uses: i64) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$inc": { "usageCount": uses }, "$set": { "lastUsedAt": DateTime::now() } },
        )
        .await
        .db_context("noting an API key's use")?;
    Ok(())
}
