//! `GET /health` → `{"status", "db", "redis", "index", "search"}`. The database decides the status
//! code: 200 while it answers, 503 (`"db": "down"`) when it does not. Redis is reported beside it
//! (`"ok"`, `"down"`, or `"disabled"` when none is configured); without it the server still
//! answers every request, reading from the database, so a Redis outage alone is 200 with
//! `"status": "degraded"`. `index` and `search` say whether the read index and the search index
//! answer (`"ready"`), or the database does meanwhile (`"unavailable"`: Redis away, an index being
//! built or rebuilt; `"disabled"` without Redis).

use std::time::Duration;

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::redis_pool::RedisStatus;
use crate::state::AppState;

/// Longest the health check waits for the database.
pub const HEALTH_DB_TIMEOUT: Duration = Duration::from_secs(2);

/// The report: `status` (`ok`, `degraded`), `db` (`ok`, `down`), `redis` (`ok`, `down`,
/// `disabled`), `index` and `search` (`ready`, `unavailable`, `disabled`).
#[derive(Serialize, utoipa::ToSchema)]
pub struct HealthAnswer {
    status: &'static str,
    db: &'static str,
    redis: &'static str,
    index: &'static str,
    search: &'static str,
}

pub async fn health(state: web::Data<AppState>) -> HttpResponse {
    // The ping runs on its own task: a check that gives up waiting leaves it to finish, rather
    // than abandoning it mid-operation, which would close its pooled connection.
    let ping = {
        let db = state.db.clone();
        tokio::spawn(async move { db.ping().await })
    };
    let (db, redis) = futures_util::join!(tokio::time::timeout(HEALTH_DB_TIMEOUT, ping), async {
        if state.redis.is_configured() {
            let _ = state.redis.ping().await;
        }
        state.redis.status()
    });
    let db_up = matches!(db, Ok(Ok(Ok(()))));
    let status = match (db_up, redis) {
        (false, _) => "degraded",
        (true, RedisStatus::Down) => "degraded",
        (true, _) => "ok",
    };
    let readiness = |ready: bool| match (redis, ready) {
        (RedisStatus::Disabled, _) => "disabled",
        (_, true) => "ready",
        (_, false) => "unavailable",
    };
    let body = HealthAnswer {
        status,
        db: if db_up { "ok" } else { "down" },
        redis: redis.as_str(),
        index: readiness(state.feeds.current().is_some()),
        search: readiness(state.search.posts_ready() && state.search.users_ready()),
    };
    if db_up {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}
