//! `GET /api/earning/admin/earnings?page&limit` (administrators; 10 a page, at most 100) → `{userEarnings, total, page,
//! totalPages}`: per author and currency, `gross`, `fees`, `refunds`, `paidOut`,
//! `availableBalance` (sums of the ledger), `hasBankDetails`; largest balance first.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use super::CurrencyEarnings;

use crate::auth::AdminUser;
use crate::billing::{ledger::balances, mode};
use crate::error::ApiResult;
use crate::persistence::{bank_details, ledger, user_directory};
use crate::post_view::DELETED_AUTHOR;
use crate::routes::paging::PageParams;
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

/// An author's earnings in one currency.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthorEarnings {
    pub user_id: String,
    pub name: String,
    #[serde(flatten)]
    pub earnings: CurrencyEarnings,
    pub has_bank_details: bool,
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn earnings(
    state: web::Data<AppState>,
    admin: AdminUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.resolve()?;
    let entries = ledger::all(&state.db).await?;
    let mut rows: Vec<_> = balances(&entries).into_iter().collect();
    rows.sort_by(|a, b| b.1.available.cmp(&a.1.available).then(a.0.cmp(&b.0)));
    let total = rows.len() as u64;
    let shown: Vec<_> = rows
        .into_iter()
        .skip(usize::try_from(paging.skip).unwrap_or(usize::MAX))
        .take(usize::try_from(paging.limit).unwrap_or(0))
        .collect();
    let mut authors: Vec<ObjectId> = shown.iter().map(|((a, _), _)| *a).collect();
    authors.sort();
    authors.dedup();
    let names = user_directory::authors(&state.db, &authors).await?;
    let with_bank = bank_details::users_with_details(&state.db, &authors).await?;
    let user_earnings: Vec<_> = shown
        .iter()
        .map(|((author, currency), b)| AuthorEarnings {
            user_id: author.to_hex(),
            name: names
                .get(author)
                .map_or(DELETED_AUTHOR, |a| a.name.as_str())
                .to_string(),
            earnings: CurrencyEarnings::of(currency, b),
            has_bank_details: with_bank.contains(author),
        })
        .collect();
    Ok(HttpResponse::Ok().json(EarningsAnswer {
        user_earnings,
        total,
        page: paging.page,
        total_pages: paging.total_pages(total),
        min_payout: state.settings.payments.min_payout,
        mode: mode(&state).to_string(),
    }))
}
