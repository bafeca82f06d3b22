//! A user's eligibility, for administrators:
//! - `GET /api/admin/subscriptions/eligibility/{userId}` → the assessment;
//! - `POST /api/admin/subscriptions/eligibility/toggle {userId, enable}`: the administrator's
//!   decision stands instead of the criteria (`bypassSubscriptionCriteria` on,
//!   `isEligibleForSubscription` = enable);
//! - `POST /api/admin/subscriptions/grant {userId, grant}`: `grant: true` makes the user
//!   eligible whatever the criteria; `false` hands the decision back to the criteria;
//! - `PATCH /api/admin/subscriptions/user-override/{userId} {isEligibleForSubscription,
//!   bypassSubscriptionCriteria}`: sets either switch directly.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use super::{answer, load_user};
use crate::audit::{Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, FieldValue, Sent};
use crate::persistence::users;
use crate::services::billing::eligibility::assess;
use crate::state::AppState;

/// `{userId, enable}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToggleBody {
    /// The user whose eligibility the administrator decides.
    #[serde(default)]
    #[schema(value_type = String, required = true)]
    pub user_id: Sent<UserIdText>,
    /// Whether the user may sell subscription plans.
    #[serde(default)]
    #[schema(value_type = bool, required = true)]
    pub enable: Sent<Enable>,
}

/// `{userId, grant}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GrantBody {
    /// The user.
    #[serde(default)]
    #[schema(value_type = String, required = true)]
    pub user_id: Sent<UserIdText>,
    /// `true` makes the user eligible whatever the criteria; `false` lets the criteria decide.
    #[serde(default)]
    #[schema(value_type = bool, required = true)]
    pub grant: Sent<Grant>,
}

/// `{isEligibleForSubscription, bypassSubscriptionCriteria}`: at least one of them.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OverrideBody {
    #[serde(default)]
    #[schema(value_type = Option<bool>)]
    pub is_eligible_for_subscription: Sent<IsEligible>,
    #[serde(default)]
    #[schema(value_type = Option<bool>)]
    pub bypass_subscription_criteria: Sent<Bypass>,
}

crate::text_field! {
    /// `userId`: the user's id as sent (looked up by [`load_user`], which names a bad one).
    UserIdText = "userId";
}

crate::flag_field! {
    /// `enable` of a toggle.
    Enable = "enable";
    /// `grant` of a grant.
    Grant = "grant";
    /// `isEligibleForSubscription` of an override.
    IsEligible = "isEligibleForSubscription";
    /// `bypassSubscriptionCriteria` of an override.
    Bypass = "bypassSubscriptionCriteria";
}

/// A required flag: missing or `null` is `<key> must be true or false` too.
fn required_flag<T: FieldValue + Copy>(sent: &Sent<T>, key: &str) -> ApiResult<T> {
    sent.required(&format!("{key} must be true or false"))
        .copied()
}

impl ToggleBody {
    /// The user id as sent and the decision.
    pub fn validate(&self) -> ApiResult<(Option<String>, bool)> {
        let user_id = self.user_id.value()?.map(|u| u.0.clone());
        Ok((user_id, required_flag(&self.enable, "enable")?.0))
    }
}

impl GrantBody {
    /// The user id as sent and the grant.
    pub fn validate(&self) -> ApiResult<(Option<String>, bool)> {
        let user_id = self.user_id.value()?.map(|u| u.0.clone());
        Ok((user_id, required_flag(&self.grant, "grant")?.0))
    }
}

impl OverrideBody {
    /// The switches to set, at least one.
    pub fn validate(&self) -> ApiResult<(Option<bool>, Option<bool>)> {
        let eligible = self.is_eligible_for_subscription.value()?.map(|v| v.0);
        let bypass = self.bypass_subscription_criteria.value()?.map(|v| v.0);
        if eligible.is_none() && bypass.is_none() {
            return Err(ApiError::bad_request(
                "Send isEligibleForSubscription and/or bypassSubscriptionCriteria (true or false)",
            ));
        }
        Ok((eligible, bypass))
    }
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn check(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let user = load_user(&state, Some(&path)).await?;
    Ok(HttpResponse::Ok().json(assess(&state, user).await?.view()))
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn toggle(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: Body<ToggleBody>,
) -> ApiResult<HttpResponse> {
    let (user_id, enable) = body.read()?.validate()?;
    let user = load_user(&state, user_id.as_deref()).await?;
    let user = users::set_subscription_flags(&state.db, user.id, Some(enable), Some(true))
        .await?
        .ok_or_else(|| ApiError::not_found(super::MSG_USER_NOT_FOUND))?;
    let message = if enable {
        "Subscription eligibility enabled"
    } else {
        "Subscription eligibility disabled"
    };
    crate::audit::record(
        &state,
        &admin.0,
        Action::EligibilityToggle,
        Target::user(&user),
        json!({ "enable": enable }),
    )
    .await;
    Ok(HttpResponse::Ok().json(answer(&state, message, user).await?))
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn grant(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: Body<GrantBody>,
) -> ApiResult<HttpResponse> {
    let (user_id, grant) = body.read()?.validate()?;
    let user = load_user(&state, user_id.as_deref()).await?;
    let (eligible, bypass) = if grant {
        (Some(true), true)
    } else {
        (None, false)
    };
    let user = users::set_subscription_flags(&state.db, user.id, eligible, Some(bypass))
        .await?
        .ok_or_else(|| ApiError::not_found(super::MSG_USER_NOT_FOUND))?;
    let message = if grant {
        "Subscription access granted"
    } else {
        "Subscription access revoked: the criteria decide again"
    };
    crate::audit::record(
        &state,
        &admin.0,
        Action::EligibilityGrant,
        Target::user(&user),
        json!({ "grant": grant }),
    )
    .await;
    Ok(HttpResponse::Ok().json(answer(&state, message, user).await?))
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn user_override(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<String>,
    body: Body<OverrideBody>,
) -> ApiResult<HttpResponse> {
    let (eligible, bypass) = body.read()?.validate()?;
    let user = load_user(&state, Some(&path)).await?;
    let user = users::set_subscription_flags(&state.db, user.id, eligible, bypass)
        .await?
        .ok_or_else(|| ApiError::not_found(super::MSG_USER_NOT_FOUND))?;
    let details =
        json!({ "isEligibleForSubscription": eligible, "bypassSubscriptionCriteria": bypass });
    crate::audit::record(
        &state,
        &admin.0,
        Action::EligibilityOverride,
        Target::user(&user),
        details,
    )
    .await;
    Ok(HttpResponse::Ok().json(answer(&state, "Eligibility override saved", user).await?))
}
