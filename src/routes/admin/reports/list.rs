//! `GET /api/admin/reports?page&limit` (administrators) → {reports, total, totalPages, page,
//! limit}: newest first, each with the post's title, the reporter and the author.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use super::{admin_view, edited_since, people_of, AdminReportView};
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::reports;
use crate::routes::paging::PageParams;
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
    let (found, total) = reports::page(&state.db, paging.skip, paging.limit).await?;
    let people = people_of(&state.db, &found).await?;
    let edited = edited_since(&state, &found).await?;
    Ok(HttpResponse::Ok().json(ReportsAnswer {
        reports: found
            .iter()
            .map(|r| admin_view(r, &people, &edited))
            .collect(),
        total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
