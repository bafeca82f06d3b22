//! The `subscriber_feeds` collection: a paying reader's private feed of one author's posts, one
//! record per (reader, author) (`_id: "<reader>:<author>"`) holding the secret its address
//! carries. Replacing the secret ends the old address; removing the record ends the feed.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use rand::RngCore;
use serde::{Deserialize, Serialize};

use super::{is_duplicate_key, now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "subscriber_feeds";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriberFeed {
    #[serde(rename = "_id")]
    pub id: String,
    pub reader: ObjectId,
    pub author: ObjectId,
    /// 32 random bytes, hex.
    pub secret: String,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<SubscriberFeed> {
    db.database().collection(COLLECTION)
}

fn key(reader: ObjectId, author: ObjectId) -> String {
    format!("{}:{}", reader.to_hex(), author.to_hex())
}

fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// The reader's feed of the author, if they have one.
pub async fn find(db: &Db, reader: ObjectId, author: ObjectId) -> DbResult<Option<SubscriberFeed>> {
    collection(db)
        .find_one(doc! { "_id": key(reader, author) })
        .await
        .db_context("reading a private feed")
}

/// The reader's feed of the author, made when they have none.
pub async fn get_or_create(
    db: &Db,
    reader: ObjectId,
    author: ObjectId,
) -> DbResult<SubscriberFeed> {
    if let Some(feed) = find(db, reader, author).await? {
        return Ok(feed);
    }
    let feed = SubscriberFeed {
        id: key(reader, author),
        reader,
        author,
        secret: new_secret(),
        created_at: now(),
    };
    match collection(db).insert_one(&feed).await {
        Ok(_) => Ok(feed),
        // Made at the same moment by another request: that one stands.
        Err(e) if is_duplicate_key(&e) => find(db, reader, author).await?.ok_or_else(|| {
            super::DbError::Other(anyhow::anyhow!("a private feed vanished as it was made"))
        }),
        Err(e) => Err(e).db_context("making a private feed"),
    }
}

/// A new secret for the reader's feed of the author (the old address stops working).
pub async fn replace_secret(
    db: &Db,
    reader: ObjectId,
    author: ObjectId,
) -> DbResult<SubscriberFeed> {
    get_or_create(db, reader, author).await?;
    let secret = new_secret();
    collection(db)
        .update_one(
            doc! { "_id": key(reader, author) },
            doc! { "$set": { "secret": &secret, "createdAt": now() } },
        )
        .await
        .db_context("replacing a private feed's secret")?;
    find(db, reader, author).await?.ok_or_else(|| {
        super::DbError::Other(anyhow::anyhow!(
            "a private feed vanished as its secret changed"
        ))
    })
}

/// Ends the reader's feed of the author; `false` when there was none.
pub async fn remove(db: &Db, reader: ObjectId, author: ObjectId) -> DbResult<bool> {
    let res = collection(db)
        .delete_one(doc! { "_id": key(reader, author) })
        .await
        .db_context("removing a private feed")?;
    Ok(res.deleted_count > 0)
}
