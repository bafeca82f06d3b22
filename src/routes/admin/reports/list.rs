//! `GET /api/admin/reports?page&limit` (administrators) → {reports, total, totalPages, page,
//! limit}: newest first, each with the post's title, the reporter and the author.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::routes::paging::PageParams;
use crate::services::reports::{self, AdminReportView};
use crate::state::AppState;

/// `{reports, total, totalPages, page, limit}`: a page of reports.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportsAnswer {
    pub reports: Vec<AdminReportView>,
    pub total: u64,
    pub total_pages: u64,
    pub page: u64,
    pub limit: i64,
}

#[tracing::instrument(skip(state, _admin))]
pub async fn list(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.resolve()?;
    let (reports, total) = reports::page(&state, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(ReportsAnswer {
        reports,
        total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
