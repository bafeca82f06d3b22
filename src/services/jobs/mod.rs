//! Background jobs started once by `Application::build`.

pub mod account_deletion;
pub mod admin_tasks;
pub mod announce;
pub mod billing;
pub mod daily_mail;
pub mod import;
pub mod push;
pub mod scheduled;
pub mod trending;
pub mod webhooks;

use std::time::Duration;

use actix_web::web;

use crate::state::AppState;

/// Whether this node runs the periodic job `name` this time: with Redis, the node that takes
/// the job's lease for (most of) a `period` first, so in a cluster the job runs once per period;
/// without Redis, or while it is unreachable, every node runs it (the jobs are idempotent: they
/// compute from the database and write the same result). The billing job and the daily email
/// keep their leases in the database (`job_leases`), which also holds across nodes.
pub async fn take_turn(state: &AppState, name: &str, period: Duration) -> bool {
    if !state.redis.is_configured() {
        return true;
    }
    let key = state.redis.key(&format!("lease:{name}"));
    // A little shorter than the period, so the next period's turn is free when it comes.
    let ms = u64::try_from(period.as_millis() * 9 / 10)
        .unwrap_or(u64::MAX)
        .max(1);
    let node = state.realtime.node().unwrap_or_default().to_owned();
    let taken: Result<Option<String>, _> = state
        .redis
        .run_if_up(|mut conn| async move {
            deadpool_redis::redis::cmd("SET")
                .arg(key)
                .arg(node)
                .arg("NX")
                .arg("PX")
                .arg(ms)
                .query_async(&mut conn)
                .await
        })
        .await;
    taken.map_or(true, |answer| answer.is_some())
}

/// Starts the content jobs: trending score refresh, scheduled publishing and the daily post
/// email.
pub fn spawn_content_jobs(state: web::Data<AppState>) {
    trending::spawn(state.clone());
    daily_mail::spawn(state.clone());
    account_deletion::spawn(state.clone());
    crate::export::spawn(state.clone());
    import::spawn(state.clone());
    announce::spawn(state.clone());
    webhooks::spawn(state.clone());
    push::spawn(state.clone());
    scheduled::spawn(state);
}
