//! The `revoked_tokens` collection: ids of tokens ended by logout, kept until they would have
//! expired anyway.

use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, Db, DbContext, DbResult};

pub const COLLECTION: &str = "revoked_tokens";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevokedToken {
    /// The token's `jti`.
    #[serde(rename = "_id")]
    pub id: String,
    pub user_id: String,
    pub expires_at: DateTime,
    pub revoked_at: DateTime,
}

fn collection(db: &Db) -> Collection<RevokedToken> {
    db.database().collection(COLLECTION)
}

/// Index for the clean-up job.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let model = index(doc! { "expiresAt": 1 }, "expires_at");
    collection(db)
        .create_index(model)
        .await
        .db_context("creating revoked token indexes")?;
    Ok(())
}

/// Records a revocation; revoking twice is fine.
pub async fn revoke(db: &Db, token: &RevokedToken) -> DbResult<()> {
    match collection(db).insert_one(token).await {
        Ok(_) => Ok(()),
        Err(e) if is_duplicate_key(&e) => Ok(()),
        Err(e) => Err(e).db_context("revoking a token"),
    }
}

/// Whether a token id has been revoked.
pub async fn is_revoked(db: &Db, jti: &str) -> DbResult<bool> {
    let found = collection(db)
        .find_one(doc! { "_id": jti })
        .await
        .db_context("checking a token revocation")?;
    Ok(found.is_some())
}

/// Forgets revocations of tokens that have expired anyway.
pub async fn purge_expired(db: &Db) -> DbResult<u64> {
    let res = collection(db)
        .delete_many(doc! { "expiresAt": { "$lt": DateTime::now() } })
        .await
        .db_context("purging expired revocations")?;
    Ok(res.deleted_count)
}
