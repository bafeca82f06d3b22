//! Refreshes the stored trending scores, so the trending list is an ordered list kept in the read
//! index (or an indexed query) rather than a computation per request. The counters and dates come
//! from the read index when it can answer (nothing is read from the database but the scores that
//! moved are written), else from reading every published post.

use std::time::Duration;

use actix_web::web;

use crate::persistence::{now, posts, DbResult};
use crate::state::AppState;

/// How often scores are recomputed.
pub const TRENDING_REFRESH_INTERVAL: Duration = Duration::from_secs(10 * 60);

/// One refresh; returns how many scores were stored.
pub async fn refresh(state: &AppState) -> DbResult<u64> {
    let at = now();
    match state.feeds.trending_inputs().await {
        Ok(inputs) => posts::store_trending(&state.db, posts::moved_scores(inputs, at)).await,
        Err(_) => posts::refresh_trending(&state.db, at).await,
    }
}

pub fn spawn(state: web::Data<AppState>) {
    crate::metrics::job_declared("trending", TRENDING_REFRESH_INTERVAL);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TRENDING_REFRESH_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if !super::take_turn(&state, "trending", TRENDING_REFRESH_INTERVAL).await {
                continue;
            }
            let result = refresh(&state).await;
            crate::metrics::job_ran("trending", TRENDING_REFRESH_INTERVAL, result.is_ok());
            match result {
                Ok(changed) => tracing::debug!(changed, "trending scores refreshed"),
                Err(e) => tracing::warn!(error = %e, "could not refresh trending scores"),
            }
        }
    });
}
