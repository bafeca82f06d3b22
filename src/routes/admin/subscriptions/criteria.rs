//! `PATCH /api/admin/subscriptions/criteria {minFollowers, minPosts, minEngagementRate,
//! minAccountAgeDays}` → `{message, criteria}`: changes the thresholds (keys not sent keep their
//! value).

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::auth::AdminUser;
use crate::domain::eligibility::Criteria;
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, FieldValue, Refusal, Sent};
use crate::persistence::subscription_criteria;
use crate::services::billing::eligibility::criteria as stored_criteria;
use crate::state::AppState;

const MAX_COUNT: i64 = 1_000_000_000;

/// Declares the threshold newtypes of the body, each refused with its key's message.
macro_rules! threshold_field {
    ($($(#[$doc:meta])* $name:ident = $key:literal;)+) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name(pub i64);

        impl FieldValue for $name {
            fn read(v: Value) -> Result<Self, Refusal> {
                v.as_i64()
                    .filter(|n| (0..=MAX_COUNT).contains(n))
                    .map($name)
                    .ok_or_else(|| {
                        Refusal::new(format!(
                            "{} must be a whole number from 0 to {MAX_COUNT}",
                            $key
                        ))
                    })
            }
        }

        crate::field_value!($name);
    )+};
}

threshold_field! {
    /// `minFollowers`.
    MinFollowers = "minFollowers";
    /// `minPosts`.
    MinPosts = "minPosts";
    /// `minAccountAgeDays`.
    MinAccountAgeDays = "minAccountAgeDays";
}

/// `minEngagementRate`: a number from 0 to 1000.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MinEngagementRate(pub f64);

impl FieldValue for MinEngagementRate {
    fn read(v: Value) -> Result<Self, Refusal> {
        v.as_f64()
            .filter(|r| r.is_finite() && (0.0..=1000.0).contains(r))
            .map(MinEngagementRate)
            .ok_or_else(|| Refusal::new("minEngagementRate must be a number from 0 to 1000"))
    }
}
crate::field_value!(MinEngagementRate);

/// The thresholds to change (at least one); each is read with its own range message (`null`
/// is refused like any other value that is not a number).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CriteriaBody {
    /// Followers an author needs (0 to 1,000,000,000).
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub min_followers: Sent<MinFollowers>,
    /// Published posts an author needs (0 to 1,000,000,000).
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub min_posts: Sent<MinPosts>,
    /// Engagement rate an author needs (0 to 1000).
    #[serde(default)]
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 1000)]
    pub min_engagement_rate: Sent<MinEngagementRate>,
    /// Days since signing up (0 to 1,000,000,000).
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub min_account_age_days: Sent<MinAccountAgeDays>,
}

impl CriteriaBody {
    /// At least one threshold is sent.
    pub fn check_not_empty(&self) -> ApiResult<()> {
        if !self.min_followers.was_sent()
            && !self.min_posts.was_sent()
            && !self.min_engagement_rate.was_sent()
            && !self.min_account_age_days.was_sent()
        {
            return Err(ApiError::bad_request(
                "Send at least one of minFollowers, minPosts, minEngagementRate, minAccountAgeDays",
            ));
        }
        Ok(())
    }

    /// The thresholds after the change (`current` for those not sent); the rate is checked
    /// first, then the counts in order.
    pub fn validate(&self, current: Criteria) -> ApiResult<Criteria> {
        let rate = self.min_engagement_rate.given()?;
        Ok(Criteria {
            min_engagement_rate: rate.map_or(current.min_engagement_rate, |r| r.0),
            min_followers: self
                .min_followers
                .given()?
                .map_or(current.min_followers, |n| n.0),
            min_posts: self.min_posts.given()?.map_or(current.min_posts, |n| n.0),
            min_account_age_days: self
                .min_account_age_days
                .given()?
                .map_or(current.min_account_age_days, |n| n.0),
        })
    }
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
    body: Body<CriteriaBody>,
) -> ApiResult<HttpResponse> {
    let body = body.read()?;
    body.check_not_empty()?;
    let current = match stored_criteria(&state).await {
        Ok(c) => c,
        Err(ApiError::NotFound(_)) => Criteria::DEFAULT,
        Err(e) => return Err(e),
    };
    let next = body.validate(current)?;
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
