//! `GET /api/earning/my-earnings?page&limit` (signed in) → `{earnings, entries, total, page,
//! totalPages, limit, minPayout, hasBankDetails, mode}`: the caller's own earnings as an author.
//! `earnings` holds one balance per currency (`gross`, `fees`, `refunds`, `paidOut`,
//! `availableBalance`, sums of the ledger as the administrators' list shows them); `entries`
//! is one page (10 by default) of the caller's ledger, newest first: `{_id, kind (charge |
//! refund | refund_reversal | payout | payout_reversal), currency, gross, fee, amount, planId,
//! subscriptionId, createdAt}`, amounts in minor units, `amount` the effect on the balance.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use super::CurrencyEarnings;

use crate::auth::AuthUser;
use crate::billing::{ledger::balances, mode};
use crate::error::ApiResult;
use crate::persistence::ledger::{Entry, EntryKind};
use crate::persistence::{bank_details, ledger};
use crate::post_view::iso;
use crate::routes::paging::PageParams;
use crate::state::AppState;

/// One entry of an author's ledger (minor units; `amount` is its effect on the balance).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryView {
    #[serde(rename = "_id")]
    pub id: String,
    pub kind: EntryKind,
    pub currency: String,
    pub gross: i64,
    pub fee: i64,
    pub amount: i64,
    pub plan_id: Option<String>,
    pub subscription_id: Option<String>,
    pub created_at: String,
}

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

fn entry_view(e: &Entry) -> EntryView {
    EntryView {
        id: e.id.to_hex(),
        kind: e.kind,
        currency: e.currency.clone(),
        gross: e.gross,
        fee: e.fee,
        amount: e.amount,
        plan_id: e.plan_id.map(|id| id.to_hex()),
        subscription_id: e.subscription_id.map(|id| id.to_hex()),
        created_at: iso(e.created_at),
    }
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn my_earnings(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.resolve()?;
    let author = me.user.id;
    let entries = ledger::for_author(&state.db, author).await?;
    let earnings: Vec<CurrencyEarnings> = balances(&entries)
        .iter()
        .map(|((_, currency), b)| CurrencyEarnings::of(currency, b))
        .collect();
    let total = entries.len() as u64;
    let page: Vec<EntryView> = entries
        .iter()
        .rev()
        .skip(usize::try_from(paging.skip).unwrap_or(usize::MAX))
        .take(usize::try_from(paging.limit).unwrap_or(0))
        .map(entry_view)
        .collect();
    let has_bank_details = bank_details::find_by_user(&state.db, author)
        .await?
        .is_some();
    Ok(HttpResponse::Ok().json(MyEarningsAnswer {
        earnings,
        entries: page,
        total,
        page: paging.page,
        total_pages: paging.total_pages(total),
        limit: paging.limit,
        min_payout: state.settings.payments.min_payout,
        has_bank_details,
        mode: mode(&state).to_string(),
    }))
}
