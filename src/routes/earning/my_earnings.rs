//! `GET /api/earning/my-earnings?page&limit` (signed in) → `{earnings, entries, total, page,
//! totalPages, limit, minPayout, hasBankDetails, mode}`: the caller's own earnings as an author.
//! `earnings` holds one balance per currency (`gross`, `fees`, `refunds`, `paidOut`,
//! `availableBalance`, sums of the ledger as the administrators' list shows them); `entries`
//! is one page (10 by default) of the caller's ledger, newest first: `{_id, kind (charge |
//! refund | refund_reversal | payout | payout_reversal), currency, gross, fee, amount, planId,
//! subscriptionId, source (subscription | tip | payout), postId, postTitle, tipId, createdAt}`, amounts in minor units, `amount` the effect on the balance.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::routes::paging::PageParams;
use crate::services::billing::earnings::{self, CurrencyEarnings, EntryView};
use crate::services::billing::mode;
use crate::state::AppState;

/// `{earnings, entries, total, page, totalPages, limit, minPayout, hasBankDetails, mode}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MyEarningsAnswer {
    /// One balance per currency.
    pub earnings: Vec<CurrencyEarnings>,
    /// A page of the ledger, newest first.
    pub entries: Vec<EntryView>,
    pub total: u64,
    pub page: u64,
    pub total_pages: u64,
    pub limit: i64,
    pub min_payout: i64,
    pub has_bank_details: bool,
    pub mode: String,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn my_earnings(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.resolve()?;
    let own = earnings::of_author(&state, me.user.id, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(MyEarningsAnswer {
        earnings: own.earnings,
        entries: own.entries,
        total: own.total,
        page: paging.page,
        total_pages: paging.total_pages(own.total),
        limit: paging.limit,
        min_payout: state.settings.payments.min_payout,
        has_bank_details: own.has_bank_details,
        mode: mode(&state).to_string(),
    }))
}
