//! `PATCH /api/admin/subscriptions/criteria {minFollowers, minPosts, minEngagementRate,
//! minAccountAgeDays}` → `{message, criteria}`: changes the thresholds (keys not sent keep their
//! value).

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::auth::AdminUser;
use crate::billing::eligibility::criteria as stored_criteria;
use crate::domain::eligibility::Criteria;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, Fields};
use crate::persistence::subscription_criteria;
use crate::state::AppState;

const MAX_COUNT: i64 = 1_000_000_000;

fn count(f: &Fields, key: &str, current: i64) -> ApiResult<i64> {
    match f.0.get(key) {
        None => Ok(current),
        Some(v) => v
            .as_i64()
            .filter(|n| (0..=MAX_COUNT).contains(n))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "{key} must be a whole number from 0 to {MAX_COUNT}"
                ))
            }),
    }
}

/// The thresholds to change (at least one); each is read with its own range message.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CriteriaBody {
    /// Followers an author needs (0 to 1,000,000,000).
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub min_followers: Option<Value>,
    /// Published posts an author needs (0 to 1,000,000,000).
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub min_posts: Option<Value>,
    /// Engagement rate an author needs (0 to 1000).
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 1000)]
    pub min_engagement_rate: Option<Value>,
    /// Days since signing up (0 to 1,000,000,000).
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub min_account_age_days: Option<Value>,
}

/// `{message, criteria}`: the thresholds now in force.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CriteriaAnswer {
    pub message: String,
    pub criteria: Criteria,
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn update(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: ApiJson<Value>,
) -> ApiResult<HttpResponse> {
    let f = Fields::of::<CriteriaBody>(body.into_inner())?;
    if f.0.is_empty() {
        return Err(ApiError::bad_request(
            "Send at least one of minFollowers, minPosts, minEngagementRate, minAccountAgeDays",
        ));
    }
    let current = match stored_criteria(&state).await {
        Ok(c) => c,
        Err(ApiError::NotFound(_)) => Criteria::DEFAULT,
        Err(e) => return Err(e),
    };
    let rate = match f.0.get("minEngagementRate") {
        None => current.min_engagement_rate,
        Some(v) => v
            .as_f64()
            .filter(|r| r.is_finite() && (0.0..=1000.0).contains(r))
            .ok_or_else(|| {
                ApiError::bad_request("minEngagementRate must be a number from 0 to 1000")
            })?,
    };
    let next = Criteria {
        min_followers: count(&f, "minFollowers", current.min_followers)?,
        min_posts: count(&f, "minPosts", current.min_posts)?,
        min_engagement_rate: rate,
        min_account_age_days: count(&f, "minAccountAgeDays", current.min_account_age_days)?,
    };
    let saved = subscription_criteria::save(&state.db, next, admin.0.user.id).await?;
    crate::audit::record(
        &state,
        &admin.0,
        crate::audit::Action::SubscriptionCriteria,
        crate::audit::Target::site(),
        json!({ "criteria": saved }),
    )
    .await;
    Ok(HttpResponse::Ok().json(CriteriaAnswer {
        message: "Subscription criteria updated".to_string(),
        criteria: saved,
    }))
}
