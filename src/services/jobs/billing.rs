//! The billing job: every `payments.job_interval_seconds` it renews, expires and settles what is
//! due (`billing::renewals::run_once`), and once a day it reminds readers of renewals due soon
//! (`billing::renewals::send_reminders`). Of several server processes one does each run: the
//! run takes a lease in `job_leases` (the daily email's lease, `persistence::daily_mail`) —
//! `billing-run` (taken again once finished, or when its holder went silent) and
//! `renewal-reminders:{date}` (once a day). The lease saves duplicate work; correctness does not
//! depend on it: payments, ledger entries and reminders are unique by key, so even two runs at
//! once charge, credit and remind once.

use std::time::Duration;

use actix_web::web;
use chrono::Utc;
use mongodb::bson::{doc, oid::ObjectId};

use crate::persistence::daily_mail::{acquire, finish, Lease};
use crate::persistence::now;
use crate::services::billing::renewals;
use crate::state::AppState;

/// The lease of the renewal runs.
pub const RUN_LEASE: &str = "billing-run";
/// A run silent for this long is taken to be dead.
pub const LEASE_STALE_MS: i64 = 5 * 60 * 1000;

/// The lease key of a day's reminders.
pub fn reminders_lease(date: chrono::NaiveDate) -> String {
    format!("renewal-reminders:{date}")
}

/// One tick: a renewal run, and the day's reminders if nobody sent them yet.
pub async fn tick(state: &AppState) -> anyhow::Result<()> {
    let owner = ObjectId::new().to_hex();
    if acquire(&state.db, RUN_LEASE, &owner, LEASE_STALE_MS, true).await? == Lease::Acquired {
        let report = renewals::run_once(state, now()).await;
        finish(&state.db, RUN_LEASE, &owner, doc! {}).await?;
        tracing::debug!(?report, "billing run");
        report?;
    }
    let key = reminders_lease(Utc::now().date_naive());
    if acquire(&state.db, &key, &owner, LEASE_STALE_MS, false).await? == Lease::Acquired {
        let report = renewals::send_reminders(state, now()).await?;
        let figures = doc! {
            "sent": report.sent as i64,
            "alreadySent": report.already_sent as i64,
            "failed": report.failed as i64,
        };
        finish(&state.db, &key, &owner, figures).await?;
    }
    Ok(())
}

pub fn spawn(state: web::Data<AppState>) {
    let every = Duration::from_secs(state.settings.payments.job_interval_seconds);
    crate::metrics::job_declared("billing", every);
    tokio::spawn(async move {
        let mut tick_timer = tokio::time::interval(every);
        tick_timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick_timer.tick().await;
            let result = tick(&state).await;
            crate::metrics::job_ran("billing", every, result.is_ok());
            if let Err(e) = result {
                tracing::warn!(error = %format!("{e:#}"), "billing job run failed");
            }
        }
    });
}
