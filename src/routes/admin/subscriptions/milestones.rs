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
use crate::extract::{Body, FieldValue, Refusal, Sent};
use crate::persistence::users::{self, MilestoneOverride};
use crate::state::AppState;

/// Largest count an override may set.
pub const MAX_COUNT: i64 = 1_000_000_000;
/// Largest engagement rate an override may set.
pub const MAX_RATE: f64 = 1000.0;

/// A count an override sets: a whole number from 0 to [`MAX_COUNT`].
fn read_count(v: &Value, key: &str) -> Result<i64, Refusal> {
    v.as_i64()
        .filter(|n| (0..=MAX_COUNT).contains(n))
        .ok_or_else(|| {
            Refusal::new(format!(
                "{key} must be a whole number from 0 to {MAX_COUNT}, or null"
            ))
        })
}

/// Declares the count newtypes of the body, each refused with its key's message.
macro_rules! count_field {
    ($($(#[$doc:meta])* $name:ident = $key:literal;)+) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name(pub i64);

        impl FieldValue for $name {
            fn read(value: Value) -> Result<Self, Refusal> {
                read_count(&value, $key).map($name)
            }
        }

        crate::field_value!($name);
    )+};
}

count_field! {
    /// `followerCount`.
    FollowerCount = "followerCount";
    /// `postCount`.
    PostCount = "postCount";
    /// `accountAgeDays`.
    AccountAgeDays = "accountAgeDays";
}

/// `engagementRate`: a number from 0 to [`MAX_RATE`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngagementRate(pub f64);

impl FieldValue for EngagementRate {
    fn read(v: Value) -> Result<Self, Refusal> {
        v.as_f64()
            .filter(|r| r.is_finite() && (0.0..=MAX_RATE).contains(r))
            .map(EngagementRate)
            .ok_or_else(|| {
                Refusal::new(format!(
                    "engagementRate must be a number from 0 to {MAX_RATE}, or null"
                ))
            })
    }
}
crate::field_value!(EngagementRate);

/// The metrics to replace (at least one; `null` removes a replacement).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MilestoneBody {
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub follower_count: Sent<FollowerCount>,
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub post_count: Sent<PostCount>,
    #[serde(default)]
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 1000)]
    pub engagement_rate: Sent<EngagementRate>,
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1_000_000_000)]
    pub account_age_days: Sent<AccountAgeDays>,
}

/// The changes of a [`MilestoneBody`]: `None` keeps a metric, `Some(None)` removes it.
pub struct MilestoneChanges {
    pub followers: Option<Option<i64>>,
    pub posts: Option<Option<i64>>,
    pub engagement: Option<Option<f64>>,
    pub age: Option<Option<i64>>,
}

impl MilestoneBody {
    /// The changes, checked in the order of the fields; at least one.
    pub fn validate(&self) -> ApiResult<MilestoneChanges> {
        let changes = MilestoneChanges {
            followers: self.follower_count.change()?.map(|v| v.map(|n| n.0)),
            posts: self.post_count.change()?.map(|v| v.map(|n| n.0)),
            engagement: self.engagement_rate.change()?.map(|v| v.map(|r| r.0)),
            age: self.account_age_days.change()?.map(|v| v.map(|n| n.0)),
        };
        if changes.followers.is_none()
            && changes.posts.is_none()
            && changes.engagement.is_none()
            && changes.age.is_none()
        {
            return Err(ApiError::bad_request(
                "Send at least one of followerCount, postCount, engagementRate, accountAgeDays",
            ));
        }
        Ok(changes)
    }
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn set_override(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<String>,
    body: Body<MilestoneBody>,
) -> ApiResult<HttpResponse> {
    let MilestoneChanges {
        followers,
        posts,
        engagement,
        age,
    } = body.read()?.validate()?;
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
