//! Passkeys (WebAuthn credentials): the `passkeys` collection (one document per credential: its
//! id, public key, signature counter and flags, the name its owner gave it), `passkey_handles`
//! (the random WebAuthn user handle of each account that has one) and `passkey_ceremonies` (a
//! registration or sign-in started and not finished: single use, gone after five minutes).

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "passkeys";
pub const HANDLES: &str = "passkey_handles";
pub const CEREMONIES: &str = "passkey_ceremonies";

/// A credential. Binary values are base64url (no padding).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Passkey {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub user_id: ObjectId,
    /// The credential id the authenticator chose.
    pub credential_id: String,
    /// The account's user handle (as in `passkey_handles`).
    pub user_handle: String,
    pub name: String,
    /// The public key and the extensions fixed at registration (the relying party's encoding).
    pub static_state: String,
    /// Signature counter, user verification, backup state and attachment (its encoding).
    pub dynamic_state: String,
    pub sign_count: i64,
    #[serde(default)]
    pub transports: Vec<String>,
    /// `platform`, `cross-platform`, or none when the browser did not say.
    #[serde(default)]
    pub attachment: Option<String>,
    #[serde(default)]
    pub backed_up: bool,
    pub created_at: DateTime,
    #[serde(default)]
    pub last_used_at: Option<DateTime>,
}

/// An account's WebAuthn user handle: random, so it tells an authenticator nothing about the
/// account.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Handle {
    /// The user's id.
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub handle: String,
    pub created_at: DateTime,
}

/// What a ceremony is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    Register,
    SignIn,
    Reauth,
}

/// A ceremony started: the relying party's state for it, until it is finished once.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ceremony {
    /// SHA-256 of the `challengeId` handed to the client.
    #[serde(rename = "_id")]
    pub id: String,
    pub purpose: Purpose,
    /// The account (registration and step-up); none for a sign-in.
    #[serde(default)]
    pub user_id: Option<ObjectId>,
    /// The relying party's encoded server state.
    pub state: String,
    pub expires_at: DateTime,
}

fn passkeys(db: &Db) -> Collection<Passkey> {
    db.database().collection(COLLECTION)
}

fn handles(db: &Db) -> Collection<Handle> {
    db.database().collection(HANDLES)
}

fn ceremonies(db: &Db) -> Collection<Ceremony> {
    db.database().collection(CEREMONIES)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    passkeys(db)
        .create_index(unique_index(doc! { "credentialId": 1 }, "credential_id"))
        .await
        .db_context("creating passkey indexes")?;
    passkeys(db)
        .create_index(index(doc! { "userId": 1, "createdAt": -1 }, "user_created"))
        .await
        .db_context("creating passkey indexes")?;
    handles(db)
        .create_index(unique_index(doc! { "handle": 1 }, "handle"))
        .await
        .db_context("creating passkey handle indexes")?;
    ceremonies(db)
        .create_index(index(doc! { "expiresAt": 1 }, "expires_at"))
        .await
        .db_context("creating passkey ceremony indexes")?;
    Ok(())
}

/// The account's handle, if it has one.
pub async fn handle_of(db: &Db, user_id: ObjectId) -> DbResult<Option<String>> {
    Ok(handles(db)
        .find_one(doc! { "_id": user_id })
        .await
        .db_context("reading a passkey handle")?
        .map(|h| h.handle))
}

/// Stores `handle` for the account unless it already has one; answers the account's handle.
pub async fn keep_handle(db: &Db, user_id: ObjectId, handle: &str) -> DbResult<String> {
    let res = handles(db)
        .update_one(
            doc! { "_id": user_id },
            doc! { "$setOnInsert": { "handle": handle, "createdAt": DateTime::now() } },
        )
        .upsert(true)
        .await;
    if let Err(e) = res {
        // Two first registrations at once: the other one's handle stands.
        if !super::is_duplicate_key(&e) {
            return Err(e).db_context("storing a passkey handle");
        }
    }
    Ok(handle_of(db, user_id)
        .await?
        .unwrap_or_else(|| handle.to_string()))
}

pub async fn insert(db: &Db, passkey: &Passkey) -> DbResult<bool> {
    match passkeys(db).insert_one(passkey).await {
        Ok(_) => Ok(true),
        Err(e) if super::is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("storing a passkey"),
    }
}

/// The account's passkeys, newest first.
pub async fn for_user(db: &Db, user_id: ObjectId) -> DbResult<Vec<Passkey>> {
    passkeys(db)
        .find(doc! { "userId": user_id })
        .sort(doc! { "createdAt": -1 })
        .await
        .db_context("reading passkeys")?
        .try_collect()
        .await
        .db_context("reading passkeys")
}

pub async fn count_for_user(db: &Db, user_id: ObjectId) -> DbResult<u64> {
    passkeys(db)
        .count_documents(doc! { "userId": user_id })
        .await
        .db_context("counting passkeys")
}

pub async fn find_by_credential(db: &Db, credential_id: &str) -> DbResult<Option<Passkey>> {
    passkeys(db)
        .find_one(doc! { "credentialId": credential_id })
        .await
        .db_context("reading a passkey")
}

pub async fn find_own(db: &Db, user_id: ObjectId, id: ObjectId) -> DbResult<Option<Passkey>> {
    passkeys(db)
        .find_one(doc! { "_id": id, "userId": user_id })
        .await
        .db_context("reading a passkey")
}

/// Records a use: the new dynamic state, counter and backup flag. Only a passkey whose counter
/// is still `previous_count` moves, so two sign-ins with one assertion cannot both count.
pub async fn record_use(
    db: &Db,
    passkey: &Passkey,
    dynamic_state: &str,
    sign_count: i64,
    backed_up: bool,
) -> DbResult<bool> {
    let res = passkeys(db)
        .update_one(
            doc! { "_id": passkey.id, "signCount": passkey.sign_count, "dynamicState": &passkey.dynamic_state },
            doc! { "$set": {
                "dynamicState": dynamic_state,
                "signCount": sign_count,
                "backedUp": backed_up,
                "lastUsedAt": DateTime::now(),
            } },
        )
        .await
        .db_context("recording a passkey's use")?;
    Ok(res.matched_count == 1)
}

pub async fn rename(db: &Db, user_id: ObjectId, id: ObjectId, name: &str) -> DbResult<bool> {
    let res = passkeys(db)
        .update_one(
            doc! { "_id": id, "userId": user_id },
            doc! { "$set": { "name": name } },
        )
        .await
        .db_context("renaming a passkey")?;
    Ok(res.matched_count == 1)
}

pub async fn remove(db: &Db, user_id: ObjectId, id: ObjectId) -> DbResult<bool> {
    let res = passkeys(db)
        .delete_one(doc! { "_id": id, "userId": user_id })
        .await
        .db_context("removing a passkey")?;
    Ok(res.deleted_count == 1)
}

pub async fn insert_ceremony(db: &Db, ceremony: &Ceremony) -> DbResult<()> {
    ceremonies(db)
        .insert_one(ceremony)
        .await
        .db_context("storing a passkey ceremony")?;
    Ok(())
}

/// Takes the ceremony `id` for `purpose` (single use: a second take finds nothing). An expired
/// one is taken too and answered as none.
pub async fn take_ceremony(db: &Db, id: &str, purpose: Purpose) -> DbResult<Option<Ceremony>> {
    let purpose = mongodb::bson::to_bson(&purpose).unwrap_or_default();
    let found = ceremonies(db)
        .find_one_and_delete(doc! { "_id": id, "purpose": purpose })
        .await
        .db_context("taking a passkey ceremony")?;
    Ok(found.filter(|c| c.expires_at > DateTime::now()))
}

pub async fn purge_expired(db: &Db) -> DbResult<u64> {
    let res = ceremonies(db)
        .delete_many(doc! { "expiresAt": { "$lt": DateTime::now() } })
        .await
        .db_context("purging passkey ceremonies")?;
    Ok(res.deleted_count)
}
