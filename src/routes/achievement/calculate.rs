//! `POST /api/achievement/achievements/calculate` → {badges, metrics, progress, newBadges}: recalculates
//! the caller's metrics from the records and awards the badges they reach. `newBadges` lists the
//! ids earned by this calculation.

use actix_web::{web, HttpResponse};

use super::{progress, recalculate, views};
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::achievements;
use crate::post_view::iso;
use crate::state::AppState;

/// `{badges, metrics, progress, newBadges, calculatedAt}`: the recalculated badges, the metrics
/// they come from, and the ids of badges earned by this calculation.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CalculatedAnswer {
    badges: Vec<super::BadgeView>,
    metrics: crate::persistence::achievements::Metrics,
    progress: Vec<super::ProgressView>,
    new_badges: Vec<String>,
    calculated_at: String,
}

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
    Ok(HttpResponse::Ok().json(CalculatedAnswer {
        badges: views(&record.badges),
        progress: progress(&record.metrics, &record.badges),
        metrics: record.metrics,
        new_badges: new.into_iter().map(str::to_string).collect(),
        calculated_at: iso(record.calculated_at),
    }))
}
