//! `GET /api/earning/admin/earnings?page&limit` (administrators; 10 a page, at most 100) → `{userEarnings, total, page,
//! totalPages}`: per author and currency, `gross`, `fees`, `refunds`, `paidOut`,
//! `availableBalance` (sums of the ledger), `hasBankDetails`; largest balance first.

use actix_web::{web, HttpResponse};
use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;
use serde_json::json;

use crate::auth::AdminUser;
use crate::billing::{ledger::balances, mode};
use crate::error::ApiResult;
use crate::persistence::{bank_details, ledger, user_directory};
use crate::routes::admin::PageParams;
use crate::routes::post::DELETED_AUTHOR;
use crate::state::AppState;

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn earnings(
    state: web::Data<AppState>,
    admin: AdminUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.resolve()?;
    let entries = ledger::find(&state.db, doc! {}).await?;
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
        .map(|((author, currency), b)| {
            json!({
                "userId": author.to_hex(),
                "name": names.get(author).map(|a| a.name.as_str()).unwrap_or(DELETED_AUTHOR),
                "currency": currency,
                "gross": b.gross,
                "fees": b.fees,
                "refunds": b.refunds,
                "paidOut": b.paid_out,
                "availableBalance": b.available,
                "hasBankDetails": with_bank.contains(author),
            })
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({
        "userEarnings": user_earnings,
        "total": total,
        "page": paging.page,
        "totalPages": paging.total_pages(total),
        "minPayout": state.settings.payments.min_payout,
        "mode": mode(&state),
    })))
}
