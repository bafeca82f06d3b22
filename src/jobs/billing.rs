//! The billing job: every `payments.job_interval_seconds`, renews, expires and settles what is
//! due (`billing::renewals::run_once`) and sends renewal reminders. Every step is idempotent
//! (unique keys on payments, ledger entries, reminders), so several nodes running it at once
//! charge, credit and remind once.

use std::time::Duration;

use actix_web::web;

use crate::billing::renewals;
use crate::persistence::now;
use crate::state::AppState;

pub fn spawn(state: web::Data<AppState>) {
    let every = Duration::from_secs(state.settings.payments.job_interval_seconds);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match renewals::run_once(&state, now()).await {
                Ok(report) => tracing::debug!(?report, "billing run"),
                Err(e) => tracing::warn!(error = %e, "billing run failed"),
            }
            if let Err(e) = renewals::send_reminders(&state, now()).await {
                tracing::warn!(error = %e, "renewal reminders failed");
            }
        }
    });
}
