//! The `sessions` collection: one document per signed-in device (per issued token), so a user
//! can see where they are signed in and end one session. The id is the token's `jti`; ending a
//! session revokes that token (see `revoked_tokens`), which every node checks on each request.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::options::FindOptions;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, Db, DbContext, DbResult};

pub const COLLECTION: &str = "sessions";

/// Days an expired session is kept, so its device is still known at the next sign-in.
pub const KEEP_DAYS: i64 = 90;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    /// The token's `jti`.
    #[serde(rename = "_id")]
    pub id: String,
    pub user_id: ObjectId,
    /// The user's session epoch when the token was issued; a session of an older epoch has
    /// ended ("log out everywhere", password change, block).
    pub ver: i64,
    pub user_agent: String,
    /// Browser and operating system, parsed from the user agent ("Firefox 120 on Linux").
    pub device: String,
    #[serde(default)]
    pub ip: Option<String>,
    pub city: String,
    pub country: String,
    pub created_at: DateTime,
    pub last_seen_at: DateTime,
    /// When the token expires anyway.
    pub expires_at: DateTime,
    /// When the session was ended (logout, "Sign out", log out everywhere). Ended sessions are
    /// kept until long after expiry so a device stays known (no new-device email for it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<DateTime>,
    /// When the password (and second factor) was last confirmed in this session
    /// (`POST /api/auth/reauth`); signing in counts as of `createdAt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reauth_at: Option<DateTime>,
    /// `passkey` when the session was signed in with a passkey with user verification (two
    /// factors in one: it satisfies the administrators' two-factor rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
}

fn collection(db: &Db) -> Collection<Session> {
    db.database().collection(COLLECTION)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    for model in [
        index(doc! { "userId": 1, "createdAt": -1 }, "user_created"),
        index(doc! { "expiresAt": 1 }, "expires_at"),
    ] {
        collection(db)
            .create_index(model)
            .await
            .db_context("creating session indexes")?;
    }
    Ok(())
}

/// Records a new session.
pub async fn insert(db: &Db, session: &Session) -> DbResult<()> {
    match collection(db).insert_one(session).await {
        Ok(_) => Ok(()),
        Err(e) if is_duplicate_key(&e) => Ok(()),
        Err(e) => Err(e).db_context("recording a session"),
    }
}

/// The live sessions of a user at epoch `ver`, newest first.
pub async fn list_for_user(db: &Db, user_id: ObjectId, ver: i64) -> DbResult<Vec<Session>> {
    let options = FindOptions::builder()
        .sort(doc! { "createdAt": -1 })
        .limit(200)
        .build();
    collection(db)
        .find(doc! {
            "userId": user_id,
            "ver": ver,
            "endedAt": { "$exists": false },
            "expiresAt": { "$gt": DateTime::now() },
        })
        .with_options(options)
        .await
        .db_context("listing sessions")?
        .try_collect()
        .await
        .db_context("reading sessions")
}

/// One session by id.
pub async fn find(db: &Db, id: &str) -> DbResult<Option<Session>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("reading a session")
}

/// Notes that the password was confirmed now in this live session; false when there is none.
pub async fn mark_reauth(db: &Db, id: &str) -> DbResult<bool> {
    let res = collection(db)
        .update_one(
            doc! { "_id": id, "endedAt": { "$exists": false } },
            doc! { "$set": { "reauthAt": DateTime::now() } },
        )
        .await
        .db_context("noting a confirmed password")?;
    Ok(res.matched_count == 1)
}

/// Whether the user has any recorded session (at any epoch).
pub async fn any_for_user(db: &Db, user_id: ObjectId) -> DbResult<bool> {
    let found = collection(db)
        .find_one(doc! { "userId": user_id })
        .await
        .db_context("looking for a session")?;
    Ok(found.is_some())
}

/// Whether the user has signed in with this device before (at any epoch).
pub async fn device_known(db: &Db, user_id: ObjectId, device: &str) -> DbResult<bool> {
    let found = collection(db)
        .find_one(doc! { "userId": user_id, "device": device })
        .await
        .db_context("looking for a known device")?;
    Ok(found.is_some())
}

/// Ends one live session of `user_id`; answers it when it existed, was theirs and was live.
pub async fn end(db: &Db, user_id: ObjectId, id: &str) -> DbResult<Option<Session>> {
    collection(db)
        .find_one_and_update(
            doc! { "_id": id, "userId": user_id, "endedAt": { "$exists": false } },
            doc! { "$set": { "endedAt": DateTime::now() } },
        )
        .await
        .db_context("ending a session")
}

/// Ends a session by id (logout of that token).
pub async fn end_by_id(db: &Db, id: &str) -> DbResult<()> {
    collection(db)
        .update_one(
            doc! { "_id": id, "endedAt": { "$exists": false } },
            doc! { "$set": { "endedAt": DateTime::now() } },
        )
        .await
        .db_context("ending a session")?;
    Ok(())
}

/// Forgets every session of a user (account removal).
pub async fn remove_all(db: &Db, user_id: ObjectId) -> DbResult<u64> {
    let res = collection(db)
        .delete_many(doc! { "userId": user_id })
        .await
        .db_context("removing every session")?;
    Ok(res.deleted_count)
}

/// Moves `lastSeenAt` to now when it is older than `min_gap_secs`: at most one write per
/// session per gap, whatever the number of requests.
pub async fn touch(db: &Db, id: &str, min_gap_secs: i64) -> DbResult<bool> {
    let now = chrono::Utc::now();
    let before = DateTime::from_chrono(now - chrono::Duration::seconds(min_gap_secs));
    let res = collection(db)
        .update_one(
            doc! { "_id": id, "lastSeenAt": { "$lt": before } },
            doc! { "$set": { "lastSeenAt": DateTime::from_chrono(now) } },
        )
        .await
        .db_context("updating a session's last use")?;
    Ok(res.modified_count > 0)
}

/// Forgets sessions whose token expired more than `KEEP_DAYS` ago.
pub async fn purge_expired(db: &Db) -> DbResult<u64> {
    let cutoff = chrono::Utc::now() - chrono::Duration::days(KEEP_DAYS);
    let res = collection(db)
        .delete_many(doc! { "expiresAt": { "$lt": DateTime::from_chrono(cutoff) } })
        .await
        .db_context("purging expired sessions")?;
    Ok(res.deleted_count)
}
