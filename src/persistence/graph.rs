//! Read-only views of the social graph that feeds need: whom a user follows (`follows`:
//! `{followerId, followeeId}`) and whom they must not see (`blocks`: `{blockerId, blockedId}`,
//! either direction). The engagement API owns and writes these collections.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Document};

use super::{Db, DbContext, DbResult};

pub const FOLLOWS: &str = "follows";
pub const BLOCKS: &str = "blocks";

async fn ids(db: &Db, name: &str, filter: Document, field: &str) -> DbResult<Vec<ObjectId>> {
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(name)
        .find(filter)
        .projection(doc! { field: 1 })
        .await
        .db_context("reading the social graph")?
        .try_collect()
        .await
        .db_context("reading the social graph")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id(field).ok())
        .collect())
}

/// The users `user` follows.
pub async fn followed(db: &Db, user: ObjectId) -> DbResult<Vec<ObjectId>> {
    ids(db, FOLLOWS, doc! { "followerId": user }, "followeeId").await
}

/// The users who follow `user`, sorted.
pub async fn followers(db: &Db, user: ObjectId) -> DbResult<Vec<ObjectId>> {
    let mut ids = ids(db, FOLLOWS, doc! { "followeeId": user }, "followerId").await?;
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// The users whose content `user` must not see: those they blocked and those who blocked them.
pub async fn hidden_from(db: &Db, user: ObjectId) -> DbResult<Vec<ObjectId>> {
    let mut hidden = ids(db, BLOCKS, doc! { "blockerId": user }, "blockedId").await?;
    hidden.extend(ids(db, BLOCKS, doc! { "blockedId": user }, "blockerId").await?);
    hidden.sort();
    hidden.dedup();
    Ok(hidden)
}

async fn pairs(db: &Db, name: &str, from: &str, to: &str) -> DbResult<Vec<(ObjectId, ObjectId)>> {
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(name)
        .find(doc! {})
        .projection(doc! { from: 1, to: 1 })
        .await
        .db_context("reading the social graph")?
        .try_collect()
        .await
        .db_context("reading the social graph")?;
    Ok(docs
        .iter()
        .filter_map(|d| Some((d.get_object_id(from).ok()?, d.get_object_id(to).ok()?)))
        .collect())
}

/// Every follow as (follower, followee), for rebuilding the read index.
pub async fn all_follows(db: &Db) -> DbResult<Vec<(ObjectId, ObjectId)>> {
    pairs(db, FOLLOWS, "followerId", "followeeId").await
}

/// Every block as (blocker, blocked), for rebuilding the read index.
pub async fn all_blocks(db: &Db) -> DbResult<Vec<(ObjectId, ObjectId)>> {
    pairs(db, BLOCKS, "blockerId", "blockedId").await
}

/// The users `user` blocked.
pub async fn blocked_by(db: &Db, user: ObjectId) -> DbResult<Vec<ObjectId>> {
    ids(db, BLOCKS, doc! { "blockerId": user }, "blockedId").await
}

/// The users who blocked `user`.
pub async fn blockers_of(db: &Db, user: ObjectId) -> DbResult<Vec<ObjectId>> {
    ids(db, BLOCKS, doc! { "blockedId": user }, "blockerId").await
}
