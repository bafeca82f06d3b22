//! Two-factor sign-in: the `two_factor` collection (one document per user: the sealed TOTP
//! secret, whether it is on, the last accepted time step, the recovery codes' hashes) and the
//! `login_challenges` collection (a password accepted, a second factor awaited).

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "two_factor";
pub const CHALLENGES: &str = "login_challenges";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactor {
    /// The user's id.
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// The secret of the enabled factor, sealed with the at-rest key.
    #[serde(default)]
    pub secret: Option<String>,
    /// A secret handed out by setup and not yet confirmed with a code.
    #[serde(default)]
    pub pending_secret: Option<String>,
    #[serde(default)]
    pub enabled: bool,
    /// The last time step whose code was accepted: a code is accepted once.
    #[serde(default)]
    pub last_step: i64,
    /// Keyed hashes of the unused recovery codes.
    #[serde(default)]
    pub recovery_hashes: Vec<String>,
    #[serde(default)]
    pub enabled_at: Option<DateTime>,
    pub updated_at: DateTime,
}

/// A sign-in waiting for its second factor.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Challenge {
    /// SHA-256 of the challenge handed to the client.
    #[serde(rename = "_id")]
    pub id: String,
    pub user_id: ObjectId,
    /// Whether signing in cancelled a scheduled deletion (said in the final answer).
    #[serde(default)]
    pub deletion_cancelled: bool,
    pub expires_at: DateTime,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<TwoFactor> {
    db.database().collection(COLLECTION)
}

fn challenges(db: &Db) -> Collection<Challenge> {
    db.database().collection(CHALLENGES)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    challenges(db)
        .create_index(index(doc! { "expiresAt": 1 }, "expires_at"))
        .await
        .db_context("creating login challenge indexes")?;
    Ok(())
}

pub async fn find(db: &Db, user_id: ObjectId) -> DbResult<Option<TwoFactor>> {
    collection(db)
        .find_one(doc! { "_id": user_id })
        .await
        .db_context("reading two-factor settings")
}

/// Whether the user signs in with a second factor.
pub async fn is_enabled(db: &Db, user_id: ObjectId) -> DbResult<bool> {
    Ok(find(db, user_id).await?.is_some_and(|t| t.enabled))
}

/// Stores a new, unconfirmed secret (setup), leaving an enabled factor as it is.
pub async fn set_pending(db: &Db, user_id: ObjectId, sealed: &str) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": user_id },
            doc! { "$set": { "pendingSecret": sealed, "updatedAt": DateTime::now() } },
        )
        .upsert(true)
        .await
        .db_context("storing a two-factor secret")?;
    Ok(())
}

/// Turns the factor on with the confirmed secret, the step of the confirming code and new
/// recovery codes. Only an account whose pending secret is still `sealed` is changed.
pub async fn enable(
    db: &Db,
    user_id: ObjectId,
    sealed: &str,
    step: i64,
    recovery_hashes: Vec<String>,
) -> DbResult<bool> {
    let now = DateTime::now();
    let res = collection(db)
        .update_one(
            doc! { "_id": user_id, "pendingSecret": sealed, "enabled": { "$ne": true } },
            doc! {
                "$set": {
                    "secret": sealed,
                    "enabled": true,
                    "lastStep": step,
                    "recoveryHashes": recovery_hashes,
                    "enabledAt": now,
                    "updatedAt": now,
                },
                "$unset": { "pendingSecret": "" },
            },
        )
        .await
        .db_context("enabling two-factor sign-in")?;
    Ok(res.modified_count == 1)
}

/// Turns the factor off and forgets its secret and codes.
pub async fn disable(db: &Db, user_id: ObjectId) -> DbResult<bool> {
    let res = collection(db)
        .delete_one(doc! { "_id": user_id, "enabled": true })
        .await
        .db_context("disabling two-factor sign-in")?;
    Ok(res.deleted_count == 1)
}

/// Accepts the code of time step `step` once: only a step later than the last accepted one.
pub async fn accept_step(db: &Db, user_id: ObjectId, step: i64) -> DbResult<bool> {
    let res = collection(db)
        .update_one(
            doc! { "_id": user_id, "enabled": true, "lastStep": { "$lt": step } },
            doc! { "$set": { "lastStep": step, "updatedAt": DateTime::now() } },
        )
        .await
        .db_context("accepting a two-factor code")?;
    Ok(res.modified_count == 1)
}

/// Uses up one recovery code (by its hash); false when it is unknown or used.
pub async fn use_recovery_code(db: &Db, user_id: ObjectId, hash: &str) -> DbResult<bool> {
    let res = collection(db)
        .update_one(
            doc! { "_id": user_id, "enabled": true, "recoveryHashes": hash },
            doc! { "$pull": { "recoveryHashes": hash }, "$set": { "updatedAt": DateTime::now() } },
        )
        .await
        .db_context("using a recovery code")?;
    Ok(res.modified_count == 1)
}

/// Replaces the recovery codes.
pub async fn replace_recovery_codes(
    db: &Db,
    user_id: ObjectId,
    hashes: Vec<String>,
) -> DbResult<bool> {
    let res = collection(db)
        .update_one(
            doc! { "_id": user_id, "enabled": true },
            doc! { "$set": { "recoveryHashes": hashes, "updatedAt": DateTime::now() } },
        )
        .await
        .db_context("replacing recovery codes")?;
    Ok(res.modified_count == 1)
}

/// Forgets a user's two-factor settings and challenges (account removal).
pub async fn remove_for_user(db: &Db, user_id: ObjectId) -> DbResult<()> {
    collection(db)
        .delete_one(doc! { "_id": user_id })
        .await
        .db_context("removing two-factor settings")?;
    challenges(db)
        .delete_many(doc! { "userId": user_id })
        .await
        .db_context("removing login challenges")?;
    Ok(())
}

pub async fn insert_challenge(db: &Db, challenge: &Challenge) -> DbResult<()> {
    challenges(db)
        .insert_one(challenge)
        .await
        .db_context("storing a login challenge")?;
    Ok(())
}

/// The live challenge with this hash.
pub async fn find_challenge(db: &Db, id: &str) -> DbResult<Option<Challenge>> {
    challenges(db)
        .find_one(doc! { "_id": id, "expiresAt": { "$gt": DateTime::now() } })
        .await
        .db_context("reading a login challenge")
}

/// Uses up a challenge; false when it was already used.
pub async fn consume_challenge(db: &Db, id: &str) -> DbResult<bool> {
    let res = challenges(db)
        .delete_one(doc! { "_id": id })
        .await
        .db_context("using a login challenge")?;
    Ok(res.deleted_count == 1)
}

/// Forgets expired challenges.
pub async fn purge_expired(db: &Db) -> DbResult<u64> {
    let res = challenges(db)
        .delete_many(doc! { "expiresAt": { "$lt": DateTime::now() } })
        .await
        .db_context("purging login challenges")?;
    Ok(res.deleted_count)
}
