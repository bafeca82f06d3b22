//! `POST /api/achievement/achievements/calculate` → {badges, metrics, progress, newBadges}: recalculates
//! the caller's metrics from the records and awards the badges they reach. `newBadges` lists the
//! ids earned by this calculation.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{progress, recalculate, views};
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::achievements;
use crate::routes::user::iso;
use crate::state::AppState;

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn calculate(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let before: Vec<String> = achievements::find(&state.db, me.user.id)
        .await?
        .map(|r| r.badges.into_iter().map(|b| b.id).collect())
        .unwrap_or_default();
    let record = recalculate(&state.db, me.user.id).await?;
    let new: Vec<&str> = record
        .badges
        .iter()
        .map(|b| b.id.as_str())
        .filter(|id| !before.iter().any(|b| b == id))
        .collect();
    Ok(HttpResponse::Ok().json(json!({
        "badges": views(&record.badges),
        "metrics": record.metrics,
        "progress": progress(&record.metrics, &record.badges),
        "newBadges": new,
        "calculatedAt": iso(record.calculated_at),
    })))
}
