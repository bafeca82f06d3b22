//! `GET /api/dailyMail/daily-post-report?page&limit&date` (administrators) → {logs, total,
//! totalPages, page, limit}: each recipient's daily email, newest first; `date` (`YYYY-MM-DD`,
//! the day it went out) keeps one day's.

use actix_web::{web, HttpResponse};
use chrono::NaiveDate;
use serde::Deserialize;
use serde::Serialize;

use crate::auth::AdminUser;
use crate::domain::params::present_param as present;
use crate::error::{ApiError, ApiResult};
use crate::persistence::daily_mail::{self, DailyMailLog};
use crate::post_view::iso;
use crate::routes::paging::PageParams;
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReportQuery {
    #[serde(flatten)]
    #[param(ignore)]
    pub paging: PageParams,
    #[serde(default)]
    pub date: Option<String>,
}

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

/// `{logs, total, totalPages, page, limit}`: one page of the daily email report.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailReportAnswer {
    logs: Vec<MailLogView>,
    total: u64,
    total_pages: u64,
    page: u64,
    limit: i64,
}

/// A `YYYY-MM-DD` date.
pub fn parse_date(raw: &str) -> ApiResult<NaiveDate> {
    NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d")
        .map_err(|_| ApiError::bad_request("date must be a date like 2024-05-31"))
}

#[tracing::instrument(skip(state, _admin))]
pub async fn report(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<ReportQuery>,
) -> ApiResult<HttpResponse> {
    let paging = query.paging.resolve()?;
    let date = present(query.date.as_deref()).map(parse_date).transpose()?;
    let date = date.map(|d| d.to_string());
    let (logs, total) =
        daily_mail::page(&state.db, date.as_deref(), paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(MailReportAnswer {
        logs: logs.iter().map(view).collect(),
        total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
