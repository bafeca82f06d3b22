//! A user's subscription eligibility: their metrics read from the records, the administrator's
//! overrides applied, the stored criteria compared. The outcome is kept in the user's
//! `isEligibleForSubscription` while the criteria decide (so lists show the latest verdict).

use futures_util::TryStreamExt;
use mongodb::bson::{doc, Document};
use serde::Serialize;

use crate::domain::eligibility::{evaluate, AdminDecision, Criteria, Metrics, Verdict};
use crate::error::{ApiError, ApiResult};
use crate::persistence::users::{MilestoneOverride, User};
use crate::persistence::{follows, now, posts, subscription_criteria, users, DbContext};
use crate::services::analytics::engagement_rate;
use crate::state::AppState;

/// The seed's message when no criteria are stored.
pub const MSG_NO_CONFIGURATION: &str = "Subscription configuration not found";

fn number(d: &Document, key: &str) -> i64 {
    d.get_i64(key)
        .or_else(|_| d.get_i32(key).map(i64::from))
        .unwrap_or(0)
        .max(0)
}

/// What the user has: followers, published posts, engagement rate over their published posts
/// ((likes + comments + shares + bookmarks) / views, as the engagement analytics count it) and
/// whole days since the account was made.
pub async fn metrics(state: &AppState, user: &User) -> ApiResult<Metrics> {
    let db = &state.db;
    let published: Vec<Document> = db
        .database()
        .collection::<Document>(posts::COLLECTION)
        .find(doc! { "author": user.id, "status": "published" })
        .projection(doc! { "views": 1, "likesCount": 1, "bookmarksCount": 1, "shareCount": 1, "commentsCount": 1 })
        .await
        .db_context("reading an author's posts")?
        .try_collect()
        .await
        .db_context("reading an author's posts")?;
    let sum = |key: &str| published.iter().map(|d| number(d, key)).sum::<i64>();
    let interactions =
        sum("likesCount") + sum("commentsCount") + sum("shareCount") + sum("bookmarksCount");
    let age_ms = now().timestamp_millis() - user.created_at.timestamp_millis();
    Ok(Metrics {
        follower_count: i64::try_from(follows::follower_count(db, user.id).await?)
            .unwrap_or(i64::MAX),
        post_count: i64::try_from(published.len()).unwrap_or(i64::MAX),
        engagement_rate: engagement_rate(interactions, sum("views")),
        account_age_days: (age_ms / 86_400_000).max(0),
    })
}

/// The stored criteria, or the seed's 'Subscription configuration not found'.
pub async fn criteria(state: &AppState) -> ApiResult<Criteria> {
    subscription_criteria::load(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NO_CONFIGURATION))
}

/// A user's eligibility with everything that decided it.
pub struct Assessment {
    pub verdict: Verdict,
    pub metrics: Metrics,
    pub criteria: Criteria,
    pub user: User,
}

/// `{isEligible, followerCount, postCount, engagementRate, accountAgeDays, criteria, message}`
/// plus `overrideInfo` (the administrator's switches and milestone override).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EligibilityView {
    pub user_id: String,
    pub is_eligible: bool,
    pub follower_count: i64,
    pub post_count: i64,
    pub engagement_rate: f64,
    pub account_age_days: i64,
    pub criteria: Criteria,
    pub message: String,
    pub override_info: OverrideInfo,
}

/// The administrator's switches and milestone override of a user.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OverrideInfo {
    pub is_eligible_for_subscription: bool,
    pub bypass_subscription_criteria: bool,
    pub milestone_override: MilestoneOverride,
}

impl Assessment {
    /// The assessment as clients see it.
    pub fn view(&self) -> EligibilityView {
        EligibilityView {
            user_id: self.user.id.to_hex(),
            is_eligible: self.verdict.is_eligible,
            follower_count: self.metrics.follower_count,
            post_count: self.metrics.post_count,
            engagement_rate: self.metrics.engagement_rate,
            account_age_days: self.metrics.account_age_days,
            criteria: self.criteria,
            message: self.verdict.message.clone(),
            override_info: OverrideInfo {
                is_eligible_for_subscription: self.user.is_eligible_for_subscription,
                bypass_subscription_criteria: self.user.bypass_subscription_criteria,
                milestone_override: self.user.milestone_override.clone(),
            },
        }
    }
}

/// Assesses `user` and, while the criteria decide, stores the verdict on the account.
pub async fn assess(state: &AppState, user: User) -> ApiResult<Assessment> {
    let criteria = criteria(state).await?;
    let metrics = metrics(state, &user)
        .await?
        .with_override(&user.milestone_override);
    let admin = AdminDecision {
        bypass: user.bypass_subscription_criteria,
        eligible: user.is_eligible_for_subscription,
    };
    let verdict = evaluate(&criteria, &metrics, admin);
    let mut user = user;
    if !admin.bypass && user.is_eligible_for_subscription != verdict.is_eligible {
        if let Some(updated) =
            users::set_subscription_flags(&state.db, user.id, Some(verdict.is_eligible), None)
                .await?
        {
            user = updated;
        }
    }
    Ok(Assessment {
        verdict,
        metrics,
        criteria,
        user,
    })
}
