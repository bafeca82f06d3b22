//! The `google_identities` collection: links a Google account (its subject id) to a user.
//! The subject id is the document id, so a Google account links to at most one user.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{is_duplicate_key, Db, DbContext, DbResult};

pub const COLLECTION: &str = "google_identities";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GoogleIdentity {
    /// Google's `sub` claim.
    #[serde(rename = "_id")]
    pub subject: String,
    pub user_id: ObjectId,
    pub email: String,
    pub linked_at: DateTime,
}

fn collection(db: &Db) -> Collection<GoogleIdentity> {
    db.database().collection(COLLECTION)
}

/// Links a subject to a user; an existing link is kept as it is.
pub async fn link(db: &Db, identity: &GoogleIdentity) -> DbResult<()> {
    match collection(db).insert_one(identity).await {
        Ok(_) => Ok(()),
        Err(e) if is_duplicate_key(&e) => Ok(()),
        Err(e) => Err(e).db_context("linking a Google account"),
    }
}

/// Finds the link of a Google subject.
pub async fn find(db: &Db, subject: &str) -> DbResult<Option<GoogleIdentity>> {
    collection(db)
        .find_one(doc! { "_id": subject })
        .await
        .db_context("loading a Google account link")
}

/// Removes every link of a user (account deletion).
pub async fn unlink_user(db: &Db, user_id: ObjectId) -> DbResult<()> {
    collection(db)
        .delete_many(doc! { "userId": user_id })
        .await
        .db_context("unlinking Google accounts")?;
    Ok(())
}

/// Whether the account can sign in with Google.
pub async fn has_user(db: &Db, user_id: ObjectId) -> DbResult<bool> {
    Ok(collection(db)
        .find_one(doc! { "userId": user_id })
        .await
        .db_context("reading a Google identity")?
        .is_some())
}
