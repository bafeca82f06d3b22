//! `/api/admin/subscriptions/*`: administrators manage plans, the eligibility criteria and each
//! user's eligibility (switches and milestone override). Every change answers the user's fresh
//! assessment as `eligibility`.

pub mod criteria;
pub mod eligibility;
pub mod milestones;
pub mod plans;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::domain::params::required_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::users::{self, MilestoneOverride, User};
use crate::services::billing::eligibility::{assess, EligibilityView, OverrideInfo};
use crate::state::AppState;

pub const MSG_INVALID_USER_ID: &str = "Invalid user ID";
pub const MSG_USER_NOT_FOUND: &str = "User not found";

/// The user named by `raw`.
pub async fn load_user(state: &AppState, raw: Option<&str>) -> ApiResult<User> {
    let id: ObjectId = required_id(raw, MSG_INVALID_USER_ID)?;
    users::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))
}

/// `{message, user {_id, name, isEligibleForSubscription, bypassSubscriptionCriteria,
/// milestoneOverride}, overrideInfo, eligibility}` after a change to a user's eligibility.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EligibilityAnswer {
    pub message: String,
    pub user: EligibilityUser,
    pub override_info: OverrideInfo,
    pub eligibility: EligibilityView,
}

/// The user of an [`EligibilityAnswer`].
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EligibilityUser {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub is_eligible_for_subscription: bool,
    pub bypass_subscription_criteria: bool,
    pub milestone_override: MilestoneOverride,
}

/// The answer after a change to `user`.
pub async fn answer(state: &AppState, message: &str, user: User) -> ApiResult<EligibilityAnswer> {
    let assessed = assess(state, user).await?;
    let u = &assessed.user;
    let eligibility = assessed.view();
    Ok(EligibilityAnswer {
        message: message.to_string(),
        user: EligibilityUser {
            id: u.id.to_hex(),
            name: u.name.clone(),
            is_eligible_for_subscription: u.is_eligible_for_subscription,
            bypass_subscription_criteria: u.bypass_subscription_criteria,
            milestone_override: u.milestone_override.clone(),
        },
        override_info: eligibility.override_info.clone(),
        eligibility,
    })
}
