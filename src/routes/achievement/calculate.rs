//! `POST /api/achievement/achievements/calculate` → {badges, metrics, progress, newBadges}: recalculates
//! the caller's metrics from the records and awards the badges they reach. `newBadges` lists the
//! ids earned by this calculation.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::achievements;
use crate::state::AppState;

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn calculate(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(achievements::calculate(&state, &me).await?))
}
