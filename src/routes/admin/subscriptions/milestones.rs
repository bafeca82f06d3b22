//! `PATCH /api/admin/subscriptions/user-milestone/{userId} {followerCount, postCount,
//! engagementRate, accountAgeDays}`: each given value replaces that metric of the user in the
//! eligibility check (`null` removes it; keys not sent stay as they are).
//! `PATCH /api/admin/subscriptions/user-milestone-reset/{userId}`: all four back to null.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{answer, load_user};
use crate::audit::{Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, Fields};
use crate::persistence::users::{self, MilestoneOverride};
use crate::state::AppState;

/// Largest count an override may set.
pub const MAX_COUNT: i64 = 1_000_000_000;
/// Largest engagement rate an override may set.
pub const MAX_RATE: f64 = 1000.0;

/// `Some(None)` for null, `Some(Some(n))` for a count, `None` when not sent.
fn count(f: &Fields, key: &str) -> ApiResult<Option<Option<i64>>> {
    match f.0.get(key) {
        None => Ok(None),
        Some(Value::Null) => Ok(Some(None)),
        Some(v) => v
            .as_i64()
            .filter(|n| (0..=MAX_COUNT).contains(n))
            .map(|n| Some(Some(n)))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "{key} must be a whole number from 0 to {MAX_COUNT}, or null"
                ))
            }),
    }
}

fn rate(f: &Fields, key: &str) -> ApiResult<Option<Option<f64>>> {
    match f.0.get(key) {
        None => Ok(None),
        Some(Value::Null) => Ok(Some(None)),
        Some(v) => v
            .as_f64()
            .filter(|r| r.is_finite() && (0.0..=MAX_RATE).contains(r))
            .map(|r| Some(Some(r)))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "{key} must be a number from 0 to {MAX_RATE}, or null"
                ))
            }),
    }
}

/// The metrics to replace (at least one; `null` removes a replacement).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MilestoneBody {
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub follower_count: Option<Value>,
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub post_count: Option<Value>,
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 1000)]
    pub engagement_rate: Option<Value>,
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub account_age_days: Option<Value>,
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn set_override(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<String>,
    body: ApiJson<Value>,
) -> ApiResult<HttpResponse> {
    let f = Fields::of::<MilestoneBody>(body.into_inner())?;
    let followers = count(&f, "followerCount")?;
    let posts = count(&f, "postCount")?;
    let engagement = rate(&f, "engagementRate")?;
    let age = count(&f, "accountAgeDays")?;
    if followers.is_none() && posts.is_none() && engagement.is_none() && age.is_none() {
        return Err(ApiError::bad_request(
            "Send at least one of followerCount, postCount, engagementRate, accountAgeDays",
        ));
    }
    let user = load_user(&state, Some(&path)).await?;
    let current = &user.milestone_override;
    let next = MilestoneOverride {
        follower_count: followers.unwrap_or(current.follower_count),
        post_count: posts.unwrap_or(current.post_count),
        engagement_rate: engagement.unwrap_or(current.engagement_rate),
        account_age_days: age.unwrap_or(current.account_age_days),
    };
    let user = users::set_milestone_override(&state.db, user.id, &next)
        .await?
        .ok_or_else(|| ApiError::not_found(super::MSG_USER_NOT_FOUND))?;
    let details = json!({ "milestoneOverride": next });
    crate::audit::record(
        &state,
        &admin.0,
        Action::MilestoneOverride,
        Target::user(&user),
        details,
    )
    .await;
    Ok(HttpResponse::Ok().json(answer(&state, "Milestone override saved", user).await?))
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn reset(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let user = load_user(&state, Some(&path)).await?;
    let user = users::set_milestone_override(&state.db, user.id, &MilestoneOverride::default())
        .await?
        .ok_or_else(|| ApiError::not_found(super::MSG_USER_NOT_FOUND))?;
    crate::audit::record(
        &state,
        &admin.0,
        Action::MilestoneReset,
        Target::user(&user),
        json!({}),
    )
    .await;
    Ok(HttpResponse::Ok().json(answer(&state, "Milestone override reset", user).await?))
}
