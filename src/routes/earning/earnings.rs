//! `GET /api/earning/admin/earnings?page&limit` (administrators; 10 a page, at most 100) → `{userEarnings, total, page,
//! totalPages}`: per author and currency, `gross`, `fees`, `refunds`, `paidOut`,
//! `availableBalance` (sums of the ledger), `hasBankDetails`; largest balance first.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::routes::paging::PageParams;
use crate::services::billing::earnings::{self, AuthorEarnings};
use crate::services::billing::mode;
use crate::state::AppState;

/// `{userEarnings, total, page, totalPages, minPayout, mode}`: a page of authors' earnings.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EarningsAnswer {
    pub user_earnings: Vec<AuthorEarnings>,
    pub total: u64,
    pub page: u64,
    pub total_pages: u64,
    /// The smallest balance paid out (minor units).
    pub min_payout: i64,
    pub mode: String,
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn earnings(
    state: web::Data<AppState>,
    admin: AdminUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.resolve()?;
    let (user_earnings, total) = earnings::authors_page(&state, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(EarningsAnswer {
        user_earnings,
        total,
        page: paging.page,
        total_pages: paging.total_pages(total),
        min_payout: state.settings.payments.min_payout,
        mode: mode(&state).to_string(),
    }))
}
