//! `GET /api/dailyMail/daily-post-report?page&limit&date` (administrators) → {logs, total,
//! totalPages, page, limit}: each recipient's daily email, newest first; `date` (`YYYY-MM-DD`,
//! the day it went out) keeps one day's.

use actix_web::{web, HttpResponse};
use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::daily_mail::{self, DailyMailLog};
use crate::routes::admin::{present, PageParams};
use crate::routes::user::iso;
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

fn view(log: &DailyMailLog) -> Value {
    json!({
        "_id": log.id.to_hex(),
        "date": log.date,
        "userId": log.user_id.to_hex(),
        "email": log.email,
        "postCount": log.post_count,
        "postIds": log.post_ids.iter().map(|id| id.to_hex()).collect::<Vec<_>>(),
        "status": log.status,
        "success": log.status == daily_mail::Status::Sent,
        "error": log.error,
        "emailLogId": log.email_log_id.map(|id| id.to_hex()),
        "createdAt": iso(log.created_at),
        "sentAt": log.sent_at.map(iso),
    })
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
    let logs: Vec<Value> = logs.iter().map(view).collect();
    Ok(HttpResponse::Ok().json(json!({
        "logs": logs,
        "total": total,
        "totalPages": paging.total_pages(total),
        "page": paging.page,
        "limit": paging.limit,
    })))
}
