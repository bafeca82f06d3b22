//! The webhook delivery worker: every node takes due deliveries under a lease (a node that stops
//! leaves its deliveries to another once the lease runs out) and sends up to [`PARALLEL`] at a
//! time (`services::webhooks::deliver`). Delivery is at least once: two nodes may, rarely, both
//! send one delivery, and receivers tell repeats by `webhook-id`. Finished deliveries are removed
//! once older than `webhooks.keep_deliveries_days`.

use std::time::Duration;

use actix_web::web;

use crate::persistence::webhooks as store;
use crate::state::AppState;

/// Deliveries one node sends at once.
const PARALLEL: usize = 16;
/// How often the finished deliveries past `webhooks.keep_deliveries_days` are removed.
const PRUNE_EVERY: Duration = Duration::from_secs(3600);
/// How long a taken delivery stays this node's (past it, another node may retry it).
const LEASE_MS: i64 = 120_000;

pub fn spawn(state: web::Data<AppState>) {
    let poll = Duration::from_millis(state.settings.webhooks.poll_ms.max(50));
    tokio::spawn(async move {
        let client = crate::services::webhooks::shared_client(&state);
        let mut batch = tokio::task::JoinSet::new();
        let mut pruned: Option<std::time::Instant> = None;
        loop {
            if pruned.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) {
                pruned = Some(std::time::Instant::now());
                let days = state.settings.webhooks.keep_deliveries_days.max(1);
                let before = mongodb::bson::DateTime::from_chrono(
                    chrono::Utc::now() - chrono::Duration::days(days),
                );
                if let Err(e) = store::remove_finished(&state.db, before).await {
                    tracing::debug!(error = %e, "could not remove old webhook deliveries");
                }
            }
            // Fill the free slots with due deliveries; wait for one to finish, or poll again.
            let mut drained = false;
            while batch.len() < PARALLEL {
                match store::take_due(&state.db, LEASE_MS).await {
                    Ok(Some(delivery)) => {
                        let state = state.clone();
                        let client = client.clone();
                        batch.spawn(async move {
                            crate::services::webhooks::deliver(&state, &client, delivery).await;
                        });
                    }
                    Ok(None) => {
                        drained = true;
                        break;
                    }
                    Err(e) => {
                        tracing::debug!(error = %e, "could not take webhook deliveries");
                        drained = true;
                        break;
                    }
                }
            }
            if batch.is_empty() {
                tokio::time::sleep(poll).await;
            } else if drained {
                // Nothing more is due: wait for one in flight, or a poll's time for new ones.
                let _ = tokio::time::timeout(poll, batch.join_next()).await;
            } else {
                batch.join_next().await;
            }
        }
    });
}
