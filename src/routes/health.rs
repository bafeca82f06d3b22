//! `GET /health` → 200 {"status":"ok","db":"ok"}, or 503 {"status":"degraded","db":"down"}.

use std::time::Duration;

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::state::AppState;

/// Longest the health check waits for the database.
pub const HEALTH_DB_TIMEOUT: Duration = Duration::from_secs(2);

pub async fn health(state: web::Data<AppState>) -> HttpResponse {
    let up = matches!(
        tokio::time::timeout(HEALTH_DB_TIMEOUT, state.db.ping()).await,
        Ok(Ok(()))
    );
    if up {
        HttpResponse::Ok().json(json!({ "status": "ok", "db": "ok" }))
    } else {
        HttpResponse::ServiceUnavailable().json(json!({ "status": "degraded", "db": "down" }))
    }
}
