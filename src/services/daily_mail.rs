//! The daily post email's report for administrators and its one-click unsubscribe
//! (`/api/dailyMail/*`; the sending is `jobs::daily_mail`).

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::ApiResult;
use crate::persistence::daily_mail::{self, DailyMailLog};
use crate::persistence::users;
use crate::post_view::iso;
use crate::state::AppState;

/// One recipient's daily email as the report shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailLogView {
    #[serde(rename = "_id")]
    id: String,
    date: String,
    user_id: String,
    email: String,
    post_count: i64,
    post_ids: Vec<String>,
    status: daily_mail::Status,
    success: bool,
    error: Option<String>,
    email_log_id: Option<String>,
    created_at: String,
    sent_at: Option<String>,
}

fn view(log: &DailyMailLog) -> MailLogView {
    MailLogView {
        id: log.id.to_hex(),
        date: log.date.clone(),
        user_id: log.user_id.to_hex(),
        email: log.email.clone(),
        post_count: log.post_count,
        post_ids: log.post_ids.iter().map(|id| id.to_hex()).collect(),
        status: log.status,
        success: log.status == daily_mail::Status::Sent,
        error: log.error.clone(),
        email_log_id: log.email_log_id.map(|id| id.to_hex()),
        created_at: iso(log.created_at),
        sent_at: log.sent_at.map(iso),
    }
}

/// One page of the recipients' daily emails, newest first (`date`, `YYYY-MM-DD`: only that
/// day's), and how many there are.
pub async fn report_page(
    state: &AppState,
    date: Option<&str>,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<MailLogView>, u64)> {
    let (logs, total) = daily_mail::page(&state.db, date, skip, limit).await?;
    Ok((logs.iter().map(view).collect(), total))
}

/// `user` no longer receives the daily post email (an account removed since is unsubscribed
/// already).
pub async fn unsubscribe(state: &AppState, user: ObjectId) -> ApiResult<()> {
    users::set_daily_post_opt_out(&state.db, user, true).await?;
    Ok(())
}
