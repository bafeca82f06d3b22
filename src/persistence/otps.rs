//! The `otps` collection: one live one-time code per (purpose, user), stored as a keyed hash.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "otps";

/// What a code proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    VerifyEmail,
    ResetPassword,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::VerifyEmail => "verify",
            Purpose::ResetPassword => "reset",
        }
    }
}

/// A stored code.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Otp {
    /// `{purpose}:{userId}`: a resend replaces the previous code.
    #[serde(rename = "_id")]
    pub id: String,
    pub user_id: ObjectId,
    pub code_hash: String,
    pub attempts: i32,
    pub expires_at: DateTime,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<Otp> {
    db.database().collection(COLLECTION)
}

pub fn key(purpose: Purpose, user_id: ObjectId) -> String {
    format!("{}:{}", purpose.as_str(), user_id.to_hex())
}

/// Index for clean-up of expired codes.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let model = index(doc! { "expiresAt": 1 }, "expires_at");
    collection(db)
        .create_index(model)
        .await
        .db_context("creating otp indexes")?;
    Ok(())
}

/// Stores a fresh code, replacing any earlier one for the same purpose and user.
pub async fn replace(db: &Db, otp: &Otp) -> DbResult<()> {
    collection(db)
        .replace_one(doc! { "_id": &otp.id }, otp)
        .upsert(true)
        .await
        .db_context("storing a one-time code")?;
    Ok(())
}

/// Loads the live code for a purpose and user.
pub async fn find(db: &Db, purpose: Purpose, user_id: ObjectId) -> DbResult<Option<Otp>> {
    collection(db)
        .find_one(doc! { "_id": key(purpose, user_id) })
        .await
        .db_context("loading a one-time code")
}

/// Counts one wrong try and returns the code as it is now.
pub async fn record_failure(db: &Db, id: &str) -> DbResult<Option<Otp>> {
    collection(db)
        .find_one_and_update(doc! { "_id": id }, doc! { "$inc": { "attempts": 1 } })
        .return_document(ReturnDocument::After)
        .await
        .db_context("counting a wrong one-time code")
}

/// Deletes a code (used, exhausted or expired).
pub async fn remove(db: &Db, id: &str) -> DbResult<()> {
    collection(db)
        .delete_one(doc! { "_id": id })
        .await
        .db_context("deleting a one-time code")?;
    Ok(())
}

/// Deletes every expired code.
pub async fn purge_expired(db: &Db) -> DbResult<u64> {
    let res = collection(db)
        .delete_many(doc! { "expiresAt": { "$lt": DateTime::now() } })
        .await
        .db_context("purging expired one-time codes")?;
    Ok(res.deleted_count)
}
