//! The `user_locations` collection: each user's latest known location (one document per user),
//! from the device (save-location, the socket) or from the IP address (track-ip-location). Also
//! reads who follows a user from `follows` (`{followerId, followeeId}`, written by the engagement
//! API) for the follower map.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "user_locations";

/// Where a location came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The browser's geolocation.
    Device,
    /// The IP address database.
    Ip,
}

/// Latitude and longitude in degrees.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Coordinates {
    pub lat: f64,
    pub lon: f64,
}

/// A user's latest location.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserLocation {
    pub user_id: ObjectId,
    pub coordinates: Coordinates,
    pub city: String,
    pub country: String,
    #[serde(default)]
    pub country_code: Option<String>,
    pub state: String,
    pub pincode: String,
    pub source: Source,
    pub timestamp: DateTime,
}

fn collection(db: &Db) -> Collection<UserLocation> {
    db.database().collection(COLLECTION)
}

/// One document per user; lists by recency.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let user = unique_index(doc! { "userId": 1 }, "user_unique");
    let recent = index(doc! { "timestamp": -1 }, "timestamp");
    super::create_indexes(&collection(db), [user, recent], "creating location indexes").await?;
    Ok(())
}

/// Stores `location` as its user's latest, replacing the previous one.
pub async fn upsert(db: &Db, location: &UserLocation) -> DbResult<()> {
    let set = mongodb::bson::to_document(location)
        .map_err(|e| super::DbError::Other(anyhow::Error::new(e).context("encoding a location")))?;
    let res = collection(db)
        .update_one(
            doc! { "userId": location.user_id },
            doc! { "$set": set.clone() },
        )
        .upsert(true)
        .await;
    match res {
        // Two first saves of one user at once: the loser updates the winner's document.
        Err(e) if is_duplicate_key(&e) => {
            collection(db)
                .update_one(doc! { "userId": location.user_id }, doc! { "$set": set })
                .await
                .db_context("saving a location")?;
            Ok(())
        }
        other => other.db_context("saving a location").map(|_| ()),
    }
}

/// A user's latest location.
pub async fn find_for_user(db: &Db, user: ObjectId) -> DbResult<Option<UserLocation>> {
    collection(db)
        .find_one(doc! { "userId": user })
        .await
        .db_context("loading a location")
}

/// One page of every user's latest location, newest first, and how many there are.
pub async fn list(db: &Db, skip: u64, limit: i64) -> DbResult<(Vec<UserLocation>, u64)> {
    let items = collection(db)
        .find(doc! {})
        .sort(doc! { "timestamp": -1, "userId": 1 })
        .skip(skip)
        .limit(limit)
        .await
        .db_context("listing locations")?
        .try_collect()
        .await
        .db_context("reading locations")?;
    let total = collection(db)
        .count_documents(doc! {})
        .await
        .db_context("counting locations")?;
    Ok((items, total))
}

/// The latest locations of these users, newest first.
pub async fn find_for_users(db: &Db, users: &[ObjectId]) -> DbResult<Vec<UserLocation>> {
    if users.is_empty() {
        return Ok(Vec::new());
    }
    collection(db)
        .find(doc! { "userId": { "$in": users } })
        .sort(doc! { "timestamp": -1, "userId": 1 })
        .await
        .db_context("loading locations")?
        .try_collect()
        .await
        .db_context("reading locations")
}

/// The users who follow `user`.
pub async fn followers_of(db: &Db, user: ObjectId) -> DbResult<Vec<ObjectId>> {
    super::graph::followers(db, user).await
}

/// The users whose follower map shows `user`: those `user` follows.
pub async fn maps_showing(db: &Db, user: ObjectId) -> DbResult<Vec<ObjectId>> {
    super::graph::followed(db, user).await
}
