//! `GET /api/user/feedback/check` → {shouldPrompt}: whether to ask the caller for feedback now.
//! Cadence: never in an account's first 3 days, never within 90 days of their last feedback,
//! and at most once every 14 days (a "yes" is recorded, so other tabs and later page loads get
//! "no" until then).

use actix_web::{web, HttpResponse};
use mongodb::bson::DateTime;

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::{feedback, now};
use crate::state::AppState;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// No prompt while an account is younger than this (days).
pub const MIN_ACCOUNT_AGE_DAYS: i64 = 3;
/// No prompt this long after the user's last feedback (days).
pub const AFTER_FEEDBACK_DAYS: i64 = 90;
/// No prompt this long after the last prompt (days).
pub const BETWEEN_PROMPTS_DAYS: i64 = 14;

/// The cadence rule on its own.
pub fn should_prompt(
    at: DateTime,
    account_created: DateTime,
    last_feedback: Option<DateTime>,
    last_prompt: Option<DateTime>,
) -> bool {
    let days_since = |t: DateTime| (at.timestamp_millis() - t.timestamp_millis()) / DAY_MS;
    days_since(account_created) >= MIN_ACCOUNT_AGE_DAYS
        && last_feedback.is_none_or(|t| days_since(t) >= AFTER_FEEDBACK_DAYS)
        && last_prompt.is_none_or(|t| days_since(t) >= BETWEEN_PROMPTS_DAYS)
}

/// `{shouldPrompt}`: whether to ask now.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedbackCheckAnswer {
    should_prompt: bool,
}

#[tracing::instrument(skip_all)]
pub async fn feedback_check(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let at = now();
    let last_feedback = feedback::last_submitted(&state.db, me.user.id).await?;
    let last_prompt = feedback::last_prompt(&state.db, me.user.id).await?;
    let prompt = should_prompt(at, me.user.created_at, last_feedback, last_prompt);
    if prompt {
        feedback::record_prompt(&state.db, me.user.id, at).await?;
    }
    Ok(HttpResponse::Ok().json(FeedbackCheckAnswer {
        should_prompt: prompt,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days_ago(n: i64) -> DateTime {
        DateTime::from_millis(DateTime::now().timestamp_millis() - n * DAY_MS)
    }

    #[test]
    fn a_new_account_is_not_asked() {
        assert!(!should_prompt(DateTime::now(), days_ago(1), None, None));
        assert!(should_prompt(DateTime::now(), days_ago(3), None, None));
    }

    #[test]
    fn recent_feedback_or_a_recent_prompt_means_no() {
        let now = DateTime::now();
        assert!(!should_prompt(now, days_ago(400), Some(days_ago(10)), None));
        assert!(should_prompt(now, days_ago(400), Some(days_ago(90)), None));
        assert!(!should_prompt(now, days_ago(400), None, Some(days_ago(13))));
        assert!(should_prompt(now, days_ago(400), None, Some(days_ago(14))));
    }
}
