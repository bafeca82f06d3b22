//! `GET /api/admin/email-status?email&type&page&limit` → {email, logs, total, totalPages} (one
//! address's messages, newest first) and `GET /api/admin/all-email-statuses?page&limit&type` →
//! {logs, total, totalPages, page, limit} (every message). Administrators only.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use super::{mail_type, EmailLogView};
use crate::auth::AdminUser;
use crate::domain::params::present_param as present;
use crate::domain::Email;
use crate::error::{ApiError, ApiResult};
use crate::routes::paging::PageParams;
use crate::services::email_retry;
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

/// `{email, logs, total, totalPages, page, limit}`: a page of one address's messages.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddressLogs {
    pub email: String,
    #[serde(flatten)]
    pub page: EmailLogs,
}

/// `{logs, total, totalPages, page, limit}`: a page of messages.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailLogs {
    pub logs: Vec<EmailLogView>,
    pub total: u64,
    pub total_pages: u64,
    pub page: u64,
    pub limit: i64,
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
    let (logs, total) = email_retry::page(
        &state,
        Some(email.as_str()),
        kind,
        paging.skip,
        paging.limit,
    )
    .await?;
    Ok(HttpResponse::Ok().json(AddressLogs {
        email: email.as_str().to_string(),
        page: EmailLogs {
            logs,
            total,
            total_pages: paging.total_pages(total),
            page: paging.page,
            limit: paging.limit,
        },
    }))
}

#[tracing::instrument(skip(state, _admin))]
pub async fn all_email_statuses(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<StatusQuery>,
) -> ApiResult<HttpResponse> {
    let kind = mail_type(query.kind.as_deref())?;
    let paging = query.paging.resolve()?;
    let (logs, total) = email_retry::page(&state, None, kind, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(EmailLogs {
        logs,
        total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
