//! The gauges a scrape of `/metrics` reads rather than follows: database, Redis and index health.

use std::time::Duration;

use crate::metrics::{DB_UP, INDEX_GENERATION, INDEX_READY, REDIS_CONFIGURED, REDIS_UP};
use crate::state::AppState;

/// Longest a scrape waits for the database's answer to its ping.
const DB_PING_TIMEOUT: Duration = Duration::from_secs(2);

/// Sets what a scrape reads rather than follows: database, Redis and index health.
pub async fn refresh(state: &AppState) {
    let ping = {
        let db = state.db.clone();
        tokio::spawn(async move { db.ping().await })
    };
    let db_up = matches!(
        tokio::time::timeout(DB_PING_TIMEOUT, ping).await,
        Ok(Ok(Ok(())))
    );
    if state.redis.is_configured() {
        // Marks Redis down (or up again) now rather than at its monitor's next look.
        let _ = state.redis.ping().await;
    }
    DB_UP.set(i64::from(db_up));
    REDIS_UP.set(i64::from(state.redis.is_up()));
    REDIS_CONFIGURED.set(i64::from(state.redis.is_configured()));
    let current = state.feeds.current();
    INDEX_READY
        .with_label_values(&["read"])
        .set(i64::from(current.is_some()));
    INDEX_GENERATION.set(current.map_or(0, |g| i64::try_from(g.number).unwrap_or(i64::MAX)));
    INDEX_READY.with_label_values(&["search"]).set(i64::from(
        state.redis.is_configured() && state.search.posts_ready() && state.search.users_ready(),
    ));
}
