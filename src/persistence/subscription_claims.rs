//! The `subscription_claims` collection: at most one running subscription per reader and author.
//! A claim `{_id: "<reader>:<author>", subscriptionId, createdAt}` is inserted before anything is
//! charged; the unique `_id` makes the insert atomic (FerretDB has no multi-document transactions
//! and applies updates as read-modify-write), so of simultaneous subscribe calls exactly one
//! proceeds. The claim is released (deleted, naming its subscription) when that subscription
//! ends, and a claim whose subscription never came to exist is taken over after
//! [`STALE_CLAIM_SECONDS`].

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{is_duplicate_key, now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "subscription_claims";
/// A claim without a subscription document after this long was left by a crash.
pub const STALE_CLAIM_SECONDS: i64 = 120;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Claim {
    #[serde(rename = "_id")]
    pub id: String,
    pub subscription_id: ObjectId,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<Claim> {
    db.database().collection(COLLECTION)
}

fn key(reader: ObjectId, author: ObjectId) -> String {
    format!("{reader}:{author}")
}

/// Claims the (reader, author) slot for `subscription`; on refusal returns the claim in place.
pub async fn claim(
    db: &Db,
    reader: ObjectId,
    author: ObjectId,
    subscription: ObjectId,
) -> DbResult<Result<(), Claim>> {
    let claim = Claim {
        id: key(reader, author),
        subscription_id: subscription,
        created_at: now(),
    };
    match collection(db).insert_one(&claim).await {
        Ok(_) => Ok(Ok(())),
        Err(e) if is_duplicate_key(&e) => {
            let held = collection(db)
                .find_one(doc! { "_id": &claim.id })
                .await
                .db_context("reading a subscription claim")?;
            // Released between the insert and the read: the caller may simply try again.
            Ok(Err(held.unwrap_or(claim)))
        }
        Err(e) => Err(e).db_context("claiming a subscription"),
    }
}

/// Releases the slot if `subscription` still holds it.
pub async fn release(
    db: &Db,
    reader: ObjectId,
    author: ObjectId,
    subscription: ObjectId,
) -> DbResult<()> {
    collection(db)
        .delete_one(doc! { "_id": key(reader, author), "subscriptionId": subscription })
        .await
        .db_context("releasing a subscription claim")?;
    Ok(())
}
