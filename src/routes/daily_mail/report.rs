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
use crate::routes::paging::PageParams;
use crate::services::daily_mail::{self, MailLogView};
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
        daily_mail::report_page(&state, date.as_deref(), paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(MailReportAnswer {
        logs,
        total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
