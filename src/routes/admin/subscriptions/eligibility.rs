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
use serde_json::{json, Value};

use super::{answer, load_user};
use crate::audit::{Action, Target};
use crate::auth::AdminUser;
use crate::billing::eligibility::assess;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, Fields};
use crate::persistence::users;
use crate::state::AppState;

// Money and eligibility bodies are read field by field (`Fields::of`), each with its message.
/// `{userId, enable}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToggleBody {
    /// The user whose eligibility the administrator decides.
    #[schema(value_type = String)]
    pub user_id: Option<Value>,
    /// Whether the user may sell subscription plans.
    #[schema(value_type = bool)]
    pub enable: Option<Value>,
}

/// `{userId, grant}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GrantBody {
    /// The user.
    #[schema(value_type = String)]
    pub user_id: Option<Value>,
    /// `true` makes the user eligible whatever the criteria; `false` lets the criteria decide.
    #[schema(value_type = bool)]
    pub grant: Option<Value>,
}

/// `{isEligibleForSubscription, bypassSubscriptionCriteria}`: at least one of them.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OverrideBody {
    #[schema(value_type = Option<bool>)]
    pub is_eligible_for_subscription: Option<Value>,
    #[schema(value_type = Option<bool>)]
    pub bypass_subscription_criteria: Option<Value>,
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

fn required_bool(f: &Fields, key: &str) -> ApiResult<bool> {
    f.boolean(key)?
        .ok_or_else(|| ApiError::bad_request(format!("{key} must be true or false")))
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn toggle(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: ApiJson<Value>,
) -> ApiResult<HttpResponse> {
    let f = Fields::of::<ToggleBody>(body.into_inner())?;
    let user_id = f.text("userId")?;
    let enable = required_bool(&f, "enable")?;
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
    body: ApiJson<Value>,
) -> ApiResult<HttpResponse> {
    let f = Fields::of::<GrantBody>(body.into_inner())?;
    let user_id = f.text("userId")?;
    let grant = required_bool(&f, "grant")?;
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
    body: ApiJson<Value>,
) -> ApiResult<HttpResponse> {
    let f = Fields::of::<OverrideBody>(body.into_inner())?;
    let eligible = f.boolean("isEligibleForSubscription")?;
    let bypass = f.boolean("bypassSubscriptionCriteria")?;
    if eligible.is_none() && bypass.is_none() {
        return Err(ApiError::bad_request(
            "Send isEligibleForSubscription and/or bypassSubscriptionCriteria (true or false)",
        ));
    }
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
