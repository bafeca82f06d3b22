//! `GET /api/admin/email-status?email&type&page&limit` → {email, logs, total, totalPages} (one
//! address's messages, newest first) and `GET /api/admin/all-email-statuses?page&limit&type` →
//! {logs, total, totalPages, page, limit} (every message). Administrators only.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{mail_type, view};
use crate::auth::AdminUser;
use crate::domain::Email;
use crate::error::{ApiError, ApiResult};
use crate::persistence::email_logs;
use crate::routes::admin::{present, PageParams};
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatusQuery {
    #[serde(flatten)]
    #[param(ignore)]
    pub paging: PageParams,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
}

#[tracing::instrument(skip(state, _admin))]
pub async fn email_status(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<StatusQuery>,
) -> ApiResult<HttpResponse> {
    let raw = present(query.email.as_deref())
        .ok_or_else(|| ApiError::bad_request("email is required"))?;
    let email = Email::parse(raw)?;
    let kind = mail_type(query.kind.as_deref())?;
    let paging = query.paging.resolve()?;
    let (logs, total) = email_logs::page(
        &state.db,
        Some(email.as_str()),
        kind.map(|k| k.as_str()),
        paging.skip,
        paging.limit,
    )
    .await?;
    let logs: Vec<Value> = logs.iter().map(view).collect();
    Ok(HttpResponse::Ok().json(json!({
        "email": email.as_str(),
        "logs": logs,
        "total": total,
        "totalPages": paging.total_pages(total),
        "page": paging.page,
        "limit": paging.limit,
    })))
}

#[tracing::instrument(skip(state, _admin))]
pub async fn all_email_statuses(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<StatusQuery>,
) -> ApiResult<HttpResponse> {
    let kind = mail_type(query.kind.as_deref())?;
    let paging = query.paging.resolve()?;
    let (logs, total) = email_logs::page(
        &state.db,
        None,
        kind.map(|k| k.as_str()),
        paging.skip,
        paging.limit,
    )
    .await?;
    let logs: Vec<Value> = logs.iter().map(view).collect();
    Ok(HttpResponse::Ok().json(json!({
        "logs": logs,
        "total": total,
        "totalPages": paging.total_pages(total),
        "page": paging.page,
        "limit": paging.limit,
    })))
}
