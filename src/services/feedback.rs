//! Readers' feedback: the cadence of the prompt (`GET /api/user/feedback/check`), a feedback
//! given (`submit`), everyone's feedback for the administrators (`page`) and the prompt an
//! administrator opens in a user's tabs (`prompt`).

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Serialize;
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::live;
use crate::persistence::feedback::{self, Feedback};
use crate::persistence::{now, users};
use crate::post_view::iso;
use crate::state::AppState;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// No prompt while an account is younger than this (days).
pub const MIN_ACCOUNT_AGE_DAYS: i64 = 3;
/// No prompt this long after the user's last feedback (days).
pub const AFTER_FEEDBACK_DAYS: i64 = 90;
/// No prompt this long after the last prompt (days).
pub const BETWEEN_PROMPTS_DAYS: i64 = 14;

/// A feedback entry as clients see it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedbackView {
    #[serde(rename = "_id")]
    pub id: String,
    pub rating: i32,
    pub message: String,
    pub created_at: String,
}

impl FeedbackView {
    fn of(f: &Feedback) -> Self {
        FeedbackView {
            id: f.id.to_hex(),
            rating: f.rating,
            message: f.message.clone(),
            created_at: iso(f.created_at),
        }
    }
}

/// Who wrote a feedback entry.
#[derive(Serialize, utoipa::ToSchema)]
pub struct FeedbackAuthor {
    #[serde(rename = "_id")]
    id: String,
    name: String,
    email: String,
    avatar: Option<String>,
}

/// A feedback entry with its author (`null` when the account is gone).
#[derive(Serialize, utoipa::ToSchema)]
pub struct FeedbackEntry {
    #[serde(flatten)]
    feedback: FeedbackView,
    user: Option<FeedbackAuthor>,
}

/// The cadence rule on its own: never in an account's first days, never soon after the last
/// feedback, and not again soon after the last prompt.
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

/// Whether to ask `me` for feedback now; a "yes" is recorded, so other tabs and later page
/// loads get "no" until the next prompt is due.
pub async fn check(state: &AppState, me: &AuthUser) -> ApiResult<bool> {
    let at = now();
    let last_feedback = feedback::last_submitted(&state.db, me.user.id).await?;
    let last_prompt = feedback::last_prompt(&state.db, me.user.id).await?;
    let prompt = should_prompt(at, me.user.created_at, last_feedback, last_prompt);
    if prompt {
        feedback::record_prompt(&state.db, me.user.id, at).await?;
    }
    Ok(prompt)
}

/// Stores `user`'s feedback (a checked rating and message).
pub async fn submit(
    state: &AppState,
    user: ObjectId,
    rating: i32,
    message: String,
) -> ApiResult<FeedbackView> {
    let item = Feedback {
        id: ObjectId::new(),
        user_id: user,
        rating,
        message,
        created_at: now(),
    };
    feedback::insert(&state.db, &item).await?;
    Ok(FeedbackView::of(&item))
}

/// One page of everyone's feedback, newest first, with who gave it, and how many there are.
pub async fn page(state: &AppState, skip: u64, limit: i64) -> ApiResult<(Vec<FeedbackEntry>, u64)> {
    let (items, total) = feedback::list(&state.db, skip, limit).await?;
    let ids: Vec<_> = items.iter().map(|f| f.user_id).collect();
    let people: HashMap<_, _> = users::find_many(&state.db, &ids)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let entries = items
        .iter()
        .map(|f| FeedbackEntry {
            feedback: FeedbackView::of(f),
            user: people.get(&f.user_id).map(|u| FeedbackAuthor {
                id: u.id.to_hex(),
                name: u.name.clone(),
                email: u.email.clone(),
                avatar: u.avatar.clone(),
            }),
        })
        .collect();
    Ok((entries, total))
}

/// Opens the feedback prompt with `message` in every tab of `user` ("User not found" for an
/// unknown account), recorded in the audit log as `admin`'s act.
pub async fn prompt(
    state: &AppState,
    admin: &AuthUser,
    user: ObjectId,
    message: &str,
) -> ApiResult<()> {
    let target = users::find_by_id(&state.db, user)
        .await?
        .ok_or_else(|| ApiError::not_found("User not found"))?;
    live::feedback_prompt(&state.realtime, &user.to_hex(), message);
    let details = json!({ "message": message });
    audit::record(
        state,
        admin,
        Action::FeedbackPrompt,
        Target::user(&target),
        details,
    )
    .await;
    Ok(())
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
