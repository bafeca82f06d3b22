//! The push delivery worker: every node takes batches of due deliveries under a lease (so two
//! nodes never send one at once), sends up to `push.parallel` at a time and settles each: taken
//! by the push service (forgotten, the device's last delivery noted), gone (404, 410: the device
//! is removed), later (5xx, 429, no answer: retried by `push.retry_schedule_seconds`, a longer
//! `Retry-After` honoured, then given up) or refused (forgotten, logged).
//!
//! A worker that stops mid-batch leaves the batch due again when its lease ends, so nothing is
//! lost; a message the push service took just before the stop may go out twice, and then its
//! `Topic` makes the push service keep one and its `tag` makes the device show one.

use std::collections::HashMap;
use std::time::Duration;

use actix_web::web;
use futures_util::StreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;

use crate::persistence::push_deliveries::{self as outbox, PushDelivery};
use crate::persistence::push_devices::{self as devices, Device};
use crate::state::AppState;
use crate::webpush::Outcome;

/// How long a taken batch stays this node's.
const LEASE_MS: i64 = 120_000;

pub fn spawn(state: web::Data<AppState>) {
    let poll = Duration::from_millis(state.settings.push.poll_ms.max(20));
    tokio::spawn(async move {
        loop {
            match run_batch(&state).await {
                Ok(true) => continue,
                Ok(false) => {}
                Err(e) => tracing::debug!(error = %e, "could not take push deliveries"),
            }
            let _ = tokio::time::timeout(poll, state.wakes.push.notified()).await;
        }
    });
}

/// Sends one batch; answers whether there was one.
pub async fn run_batch(state: &AppState) -> anyhow::Result<bool> {
    let parallel = state.settings.push.parallel.max(1);
    let token = ObjectId::new().to_hex();
    let limit = i64::try_from(parallel * 8).unwrap_or(256);
    let batch = outbox::take_due(&state.db, &token, limit, LEASE_MS).await?;
    if batch.is_empty() {
        return Ok(false);
    }
    let keys = match state.push.keys(&state.db, &state.bank_cipher).await {
        Ok(keys) => keys,
        Err(why) => anyhow::bail!("no VAPID key: {why}"),
    };
    let ids: Vec<ObjectId> = batch.iter().map(|d| d.device_id).collect();
    let targets: HashMap<ObjectId, Device> = devices::find_many(&state.db, &ids)
        .await?
        .into_iter()
        .map(|d| (d.id, d))
        .collect();
    let outcomes: Vec<(PushDelivery, Outcome)> = futures_util::stream::iter(batch)
        .map(|d| {
            let keys = keys.clone();
            let device = targets.get(&d.device_id).cloned();
            async move {
                let outcome = match device {
                    Some(device) => {
                        state
                            .push
                            .send(&keys, &device, &d.payload, &d.topic, &d.urgency)
                            .await
                    }
                    None => Outcome::Refused("the device was removed".into()),
                };
                (d, outcome)
            }
        })
        .buffer_unordered(parallel)
        .collect()
        .await;
    settle(state, &token, outcomes).await?;
    Ok(true)
}

async fn settle(
    state: &AppState,
    token: &str,
    outcomes: Vec<(PushDelivery, Outcome)>,
) -> anyhow::Result<()> {
    let schedule = &state.settings.push.retry_schedule_seconds;
    let mut done = Vec::new();
    let mut reached = Vec::new();
    for (d, outcome) in outcomes {
        match outcome {
            Outcome::Accepted => {
                crate::metrics::push_sent("accepted");
                reached.push(d.device_id);
                done.push(d.id);
            }
            Outcome::Gone => {
                crate::metrics::push_sent("gone");
                devices::remove(&state.db, d.device_id).await?;
                outbox::drop_for_device(&state.db, d.device_id).await?;
            }
            Outcome::Later(asked) => {
                let made = usize::try_from(d.attempt).unwrap_or(usize::MAX);
                match schedule.get(made) {
                    Some(&wait) => {
                        crate::metrics::push_sent("retried");
                        let wait = asked.map_or(wait, |asked| asked.clamp(wait, 86_400));
                        let at = DateTime::from_millis(
                            DateTime::now().timestamp_millis()
                                + i64::try_from(wait * 1000).unwrap_or(i64::MAX / 2),
                        );
                        outbox::retry(&state.db, token, d.id, at).await?;
                    }
                    None => {
                        crate::metrics::push_sent("failed");
                        tracing::warn!(device = %d.device_id, "a push was given up after its retries");
                        done.push(d.id);
                    }
                }
            }
            Outcome::Refused(why) => {
                crate::metrics::push_sent("failed");
                tracing::warn!(device = %d.device_id, reason = %why, "a push was refused");
                done.push(d.id);
            }
        }
    }
    outbox::finish(&state.db, token, &done).await?;
    reached.sort();
    reached.dedup();
    devices::delivered(&state.db, &reached).await?;
    Ok(())
}
