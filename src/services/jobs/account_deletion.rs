//! Carries out account deletions whose grace period has ended: each is claimed under a lease
//! (`account_deletions.leaseUntil`, so one node removes it, once) and the account goes through
//! the one full removal (`accounts::remove_account`) with its money rules.

use std::time::Duration;

use actix_web::web;

use crate::persistence::{account_deletions, users};
use crate::state::AppState;

/// Seconds a worker holds a removal before another may take it over.
pub const LEASE_SECS: i64 = 600;

/// Removes every account whose deletion is due; answers how many went.
pub async fn run_due(state: &web::Data<AppState>) -> anyhow::Result<usize> {
    let mut done = 0;
    while let Some(due) = account_deletions::claim_due(&state.db, LEASE_SECS).await? {
        match users::find_by_id(&state.db, due.id).await? {
            Some(user) => {
                let removal = crate::services::accounts::remove_account(state, &user, user.id)
                    .await
                    .map_err(|e| anyhow::anyhow!("removing account {}: {e}", user.id))?;
                crate::audit::record_by(
                    state,
                    &user,
                    crate::audit::Action::AccountDeletionCarryOut,
                    crate::audit::Target::user(&user),
                    serde_json::json!({ "reason": "owner's request, grace period over" }),
                )
                .await;
                crate::services::webhooks::emit(
                    state,
                    "member.deleted",
                    None,
                    serde_json::json!({ "id": user.id.to_hex() }),
                );
                tracing::info!(user_id = %user.id, ?removal, "account deleted at its owner's request");
                done += 1;
            }
            None => tracing::debug!(user_id = %due.id, "account already gone"),
        }
        account_deletions::finish(&state.db, due.id).await?;
    }
    Ok(done)
}

pub fn spawn(state: web::Data<AppState>) {
    let every = Duration::from_secs(state.settings.accounts.deletion_check_seconds.max(1));
    crate::metrics::job_declared("account-deletion", every);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let result = run_due(&state).await;
            crate::metrics::job_ran("account-deletion", every, result.is_ok());
            if let Err(e) = result {
                tracing::warn!(error = %e, "could not carry out account deletions");
            }
        }
    });
}
