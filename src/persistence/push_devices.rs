//! Web Push devices: `push_subscriptions` (one document per browser subscription: its endpoint,
//! keys, the label its owner gave it, the last delivery), `push_preferences` (one per person who
//! changed a switch; `_id` is the user's id) and `push_keys` (the server's VAPID key pair, sealed,
//! made once on the first start).

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, unique_index, Db, DbContext, DbResult};
use crate::domain::push::PushPreferences;

pub const COLLECTION: &str = "push_subscriptions";
pub const PREFERENCES: &str = "push_preferences";
pub const KEYS: &str = "push_keys";

/// A device that receives pushes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Device {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub user_id: ObjectId,
    pub endpoint: String,
    /// The user agent's public key (base64url).
    pub p256dh: String,
    /// The authentication secret (base64url).
    pub auth: String,
    pub label: String,
    pub created_at: DateTime,
    #[serde(default)]
    pub last_delivery_at: Option<DateTime>,
    /// When the browser said the subscription ends, if it did.
    #[serde(default)]
    pub expires_at: Option<DateTime>,
}

/// A person's switches.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredPreferences {
    /// The user's id.
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(flatten)]
    preferences: PushPreferences,
    updated_at: DateTime,
}

/// The server's VAPID key, sealed.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredKey {
    #[serde(rename = "_id")]
    pub id: String,
    pub sealed_private_key: String,
    pub created_at: DateTime,
}

fn devices(db: &Db) -> Collection<Device> {
    db.database().collection(COLLECTION)
}

fn preferences(db: &Db) -> Collection<StoredPreferences> {
    db.database().collection(PREFERENCES)
}

fn keys(db: &Db) -> Collection<StoredKey> {
    db.database().collection(KEYS)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    devices(db)
        .create_index(unique_index(doc! { "endpoint": 1 }, "endpoint"))
        .await
        .db_context("creating push subscription indexes")?;
    devices(db)
        .create_index(index(doc! { "userId": 1, "createdAt": -1 }, "user_created"))
        .await
        .db_context("creating push subscription indexes")?;
    Ok(())
}

/// Stores a device, or (same endpoint: the browser subscribed again, perhaps for another
/// person on a shared computer) gives the stored one its new owner, keys and label. Answers the
/// device and whether it is new.
pub async fn upsert(db: &Db, device: &Device) -> DbResult<(Device, bool)> {
    match devices(db).insert_one(device).await {
        Ok(_) => return Ok((device.clone(), true)),
        Err(e) if is_duplicate_key(&e) => {}
        Err(e) => return Err(e).db_context("storing a push subscription"),
    }
    devices(db)
        .update_one(
            doc! { "endpoint": &device.endpoint },
            doc! { "$set": {
                "userId": device.user_id,
                "p256dh": &device.p256dh,
                "auth": &device.auth,
                "label": &device.label,
                "expiresAt": device.expires_at,
            } },
        )
        .await
        .db_context("updating a push subscription")?;
    let stored = devices(db)
        .find_one(doc! { "endpoint": &device.endpoint })
        .await
        .db_context("reading a push subscription")?;
    Ok((stored.unwrap_or_else(|| device.clone()), false))
}

/// A person's devices, newest first.
pub async fn of_user(db: &Db, user_id: ObjectId) -> DbResult<Vec<Device>> {
    devices(db)
        .find(doc! { "userId": user_id })
        .sort(doc! { "createdAt": -1 })
        .await
        .db_context("reading push subscriptions")?
        .try_collect()
        .await
        .db_context("reading push subscriptions")
}

/// The devices of several people.
pub async fn of_users(db: &Db, users: &[ObjectId]) -> DbResult<Vec<Device>> {
    if users.is_empty() {
        return Ok(Vec::new());
    }
    devices(db)
        .find(doc! { "userId": { "$in": users } })
        .await
        .db_context("reading push subscriptions")?
        .try_collect()
        .await
        .db_context("reading push subscriptions")
}

pub async fn count_of_user(db: &Db, user_id: ObjectId) -> DbResult<u64> {
    devices(db)
        .count_documents(doc! { "userId": user_id })
        .await
        .db_context("counting push subscriptions")
}

pub async fn find(db: &Db, id: ObjectId) -> DbResult<Option<Device>> {
    devices(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("reading a push subscription")
}

/// A page of every device, by id, after `after`.
pub async fn page_after(db: &Db, after: Option<ObjectId>, limit: i64) -> DbResult<Vec<Device>> {
    let filter = match after {
        Some(id) => doc! { "_id": { "$gt": id } },
        None => doc! {},
    };
    devices(db)
        .find(filter)
        .sort(doc! { "_id": 1 })
        .limit(limit)
        .await
        .db_context("reading push subscriptions")?
        .try_collect()
        .await
        .db_context("reading push subscriptions")
}

/// The devices of `ids` that still exist.
pub async fn find_many(db: &Db, ids: &[ObjectId]) -> DbResult<Vec<Device>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    devices(db)
        .find(doc! { "_id": { "$in": ids } })
        .await
        .db_context("reading push subscriptions")?
        .try_collect()
        .await
        .db_context("reading push subscriptions")
}

pub async fn find_by_endpoint(db: &Db, endpoint: &str) -> DbResult<Option<Device>> {
    devices(db)
        .find_one(doc! { "endpoint": endpoint })
        .await
        .db_context("reading a push subscription")
}

/// Removes one of `user_id`'s devices; answers whether it was theirs.
pub async fn remove_own(db: &Db, user_id: ObjectId, id: ObjectId) -> DbResult<bool> {
    let gone = devices(db)
        .delete_one(doc! { "_id": id, "userId": user_id })
        .await
        .db_context("removing a push subscription")?;
    Ok(gone.deleted_count == 1)
}

/// Removes a device the push service said is gone (404, 410).
pub async fn remove(db: &Db, id: ObjectId) -> DbResult<()> {
    devices(db)
        .delete_one(doc! { "_id": id })
        .await
        .db_context("removing a push subscription")?;
    Ok(())
}

/// Notes a delivery to each of `ids` now.
pub async fn delivered(db: &Db, ids: &[ObjectId]) -> DbResult<()> {
    if ids.is_empty() {
        return Ok(());
    }
    devices(db)
        .update_many(
            doc! { "_id": { "$in": ids } },
            doc! { "$set": { "lastDeliveryAt": DateTime::now() } },
        )
        .await
        .db_context("noting push deliveries")?;
    Ok(())
}

/// A person's switches (the defaults when they never changed one).
pub async fn preferences_of(db: &Db, user_id: ObjectId) -> DbResult<PushPreferences> {
    Ok(preferences(db)
        .find_one(doc! { "_id": user_id })
        .await
        .db_context("reading push preferences")?
        .map(|p| p.preferences)
        .unwrap_or_default())
}

/// The switches of several people (those not listed have the defaults).
pub async fn preferences_of_users(
    db: &Db,
    users: &[ObjectId],
) -> DbResult<std::collections::HashMap<ObjectId, PushPreferences>> {
    if users.is_empty() {
        return Ok(Default::default());
    }
    let stored: Vec<StoredPreferences> = preferences(db)
        .find(doc! { "_id": { "$in": users } })
        .await
        .db_context("reading push preferences")?
        .try_collect()
        .await
        .db_context("reading push preferences")?;
    Ok(stored.into_iter().map(|p| (p.id, p.preferences)).collect())
}

/// Replaces a person's switches.
pub async fn save_preferences(db: &Db, user_id: ObjectId, prefs: &PushPreferences) -> DbResult<()> {
    let stored = StoredPreferences {
        id: user_id,
        preferences: prefs.clone(),
        updated_at: DateTime::now(),
    };
    preferences(db)
        .replace_one(doc! { "_id": user_id }, &stored)
        .upsert(true)
        .await
        .db_context("saving push preferences")?;
    Ok(())
}

/// The stored VAPID key, if one was made.
pub async fn vapid_key(db: &Db) -> DbResult<Option<StoredKey>> {
    keys(db)
        .find_one(doc! { "_id": "vapid" })
        .await
        .db_context("reading the VAPID key")
}

/// Stores a VAPID key unless one is stored already (two nodes starting at once keep one);
/// answers the key that is kept.
pub async fn keep_vapid_key(db: &Db, sealed: String) -> DbResult<StoredKey> {
    let key = StoredKey {
        id: "vapid".into(),
        sealed_private_key: sealed,
        created_at: DateTime::now(),
    };
    match keys(db).insert_one(&key).await {
        Ok(_) => Ok(key),
        Err(e) if is_duplicate_key(&e) => Ok(vapid_key(db).await?.unwrap_or(key)),
        Err(e) => Err(e).db_context("storing the VAPID key"),
    }
}
