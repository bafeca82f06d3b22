//! `/api/admin/subscriptions/*`: administrators manage plans, the eligibility criteria and each
//! user's eligibility (switches and milestone override). Every change answers the user's fresh
//! assessment as `eligibility`.

pub mod criteria;
pub mod eligibility;
pub mod milestones;
pub mod plans;

use mongodb::bson::oid::ObjectId;
use serde_json::{json, Value};

use crate::billing::eligibility::assess;
use crate::error::{ApiError, ApiResult};
use crate::extract::required_id;
use crate::persistence::users::{self, User};
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

/// `{message, user {_id, isEligibleForSubscription, bypassSubscriptionCriteria,
/// milestoneOverride}, eligibility}` after a change to `user`.
pub async fn answer(state: &AppState, message: &str, user: User) -> ApiResult<Value> {
    let assessed = assess(state, user).await?;
    let u = &assessed.user;
    Ok(json!({
        "message": message,
        "user": {
            "_id": u.id.to_hex(),
            "name": u.name,
            "isEligibleForSubscription": u.is_eligible_for_subscription,
            "bypassSubscriptionCriteria": u.bypass_subscription_criteria,
            "milestoneOverride": u.milestone_override,
        },
        "overrideInfo": assessed.to_json()["overrideInfo"].clone(),
        "eligibility": assessed.to_json(),
    }))
}
