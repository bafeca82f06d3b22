//! Refreshes every published post's stored trending score, so the trending list is an indexed
//! query rather than a computation per request.

use std::time::Duration;

use actix_web::web;

use crate::persistence::{now, posts, Db, DbResult};
use crate::state::AppState;

/// How often scores are recomputed.
pub const TRENDING_REFRESH_INTERVAL: Duration = Duration::from_secs(10 * 60);

/// One refresh; returns how many scores changed.
pub async fn refresh(db: &Db) -> DbResult<u64> {
    posts::refresh_trending(db, now()).await
}

pub fn spawn(state: web::Data<AppState>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TRENDING_REFRESH_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match refresh(&state.db).await {
                Ok(changed) => tracing::debug!(changed, "trending scores refreshed"),
                Err(e) => tracing::warn!(error = %e, "could not refresh trending scores"),
            }
        }
    });
}
