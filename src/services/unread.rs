//! How many unread notifications a person has, answered from Redis so that it costs the same
//! however many they have: counting them in the store reads every one (the embedded store decodes
//! each), and the count is asked on every notification a person receives and on every page.
//!
//! The store holds the truth; Redis holds the number (`unread:{user}`, for `TTL` at most): read
//! from the store when Redis does not have it, moved by one when a notification is stored, read
//! or deleted, forgotten when many change at once (marking all read, an account's removal), so
//! the next question reads the store again. A race between a count read from the store and a
//! change made meanwhile can leave the number off by one until it expires; without Redis every
//! answer comes from the store.

use std::sync::LazyLock;

use deadpool_redis::redis::{self, Script};
use mongodb::bson::oid::ObjectId;

use crate::persistence::{notifications, DbResult};
use crate::state::AppState;

/// How long a number is kept before it is read from the store again.
const TTL_SECS: u64 = 600;

/// Adds ARGV[1] to the number at KEYS[1] when there is one (never below zero), keeping its
/// expiry; returns the new number, or nothing when there was none.
static MOVE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local v = redis.call('GET', KEYS[1])
if not v then return false end
local n = tonumber(v) + tonumber(ARGV[1])
if n < 0 then n = 0 end
redis.call('SET', KEYS[1], n, 'KEEPTTL')
return n
",
    )
});

fn key(state: &AppState, user: ObjectId) -> String {
    state.redis.key(&format!("unread:{}", user.to_hex()))
}

/// `user`'s unread count.
pub async fn count(state: &AppState, user: ObjectId) -> DbResult<u64> {
    let k = key(state, user);
    let cached: Option<u64> = state
        .redis
        .run_if_up(|mut c| {
            let k = k.clone();
            async move { redis::cmd("GET").arg(k).query_async(&mut c).await }
        })
        .await
        .unwrap_or(None);
    if let Some(n) = cached {
        return Ok(n);
    }
    let n = notifications::count_unread(&state.db, user).await?;
    let _ = state
        .redis
        .run_if_up(|mut c| async move {
            redis::cmd("SET")
                .arg(k)
                .arg(n)
                .arg("EX")
                .arg(TTL_SECS)
                .arg("NX")
                .query_async::<()>(&mut c)
                .await
        })
        .await;
    Ok(n)
}

/// `by` of `user`'s notifications became unread (stored: positive) or stopped being unread
/// (read or deleted: negative).
pub async fn moved(state: &AppState, user: ObjectId, by: i64) {
    let k = key(state, user);
    let moved = state
        .redis
        .run_if_up(|mut c| async move {
            let mut inv = MOVE.prepare_invoke();
            inv.key(k).arg(by);
            inv.invoke_async::<Option<i64>>(&mut c).await
        })
        .await;
    if moved.is_err() {
        // Redis did not take the change: the number it may hold is no longer right.
        forget(state, user).await;
    }
}

/// Many of `user`'s notifications changed at once: the next count reads the store.
pub async fn forget(state: &AppState, user: ObjectId) {
    let k = key(state, user);
    let _ = state
        .redis
        .run_if_up(|mut c| async move { redis::cmd("DEL").arg(k).query_async::<()>(&mut c).await })
        .await;
}
