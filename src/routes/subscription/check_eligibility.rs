//! `GET /api/subscription/check-eligibility` → the caller's `{isEligible, followerCount,
//! postCount, engagementRate, accountAgeDays, criteria, message}` (404 'Subscription
//! configuration not found' when no criteria are stored).

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::billing::eligibility::assess;
use crate::state::AppState;

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn check_eligibility(
    state: web::Data<AppState>,
    me: AuthUser,
) -> ApiResult<HttpResponse> {
    let assessed = assess(&state, me.user).await?;
    Ok(HttpResponse::Ok().json(assessed.view()))
}
