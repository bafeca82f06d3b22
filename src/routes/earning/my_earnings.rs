//! `GET /api/earning/my-earnings?page&limit` (signed in) → `{earnings, entries, total, page,
//! totalPages, limit, minPayout, hasBankDetails, mode}`: the caller's own earnings as an author.
//! `earnings` holds one balance per currency (`gross`, `fees`, `refunds`, `paidOut`,
//! `availableBalance`, sums of the ledger as the administrators' list shows them); `entries`
//! is one page (10 by default) of the caller's ledger, newest first: `{_id, kind (charge |
//! refund | refund_reversal | payout | payout_reversal), currency, gross, fee, amount, planId,
//! subscriptionId, createdAt}`, amounts in minor units, `amount` the effect on the balance.

use actix_web::{web, HttpResponse};
use serde_json::{json, Value};

use crate::auth::AuthUser;
use crate::billing::{ledger::balances, mode};
use crate::error::ApiResult;
use crate::persistence::ledger::Entry;
use crate::persistence::{bank_details, ledger};
use crate::routes::admin::PageParams;
use crate::routes::user::iso;
use crate::state::AppState;

fn entry_view(e: &Entry) -> Value {
    json!({
        "_id": e.id.to_hex(),
        "kind": e.kind.as_str(),
        "currency": e.currency,
        "gross": e.gross,
        "fee": e.fee,
        "amount": e.amount,
        "planId": e.plan_id.map(|id| id.to_hex()),
        "subscriptionId": e.subscription_id.map(|id| id.to_hex()),
        "createdAt": iso(e.created_at),
    })
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
    let earnings: Vec<Value> = balances(&entries)
        .into_iter()
        .map(|((_, currency), b)| {
            json!({
                "currency": currency,
                "gross": b.gross,
                "fees": b.fees,
                "refunds": b.refunds,
                "paidOut": b.paid_out,
                "availableBalance": b.available,
            })
        })
        .collect();
    let total = entries.len() as u64;
    let page: Vec<Value> = entries
        .iter()
        .rev()
        .skip(usize::try_from(paging.skip).unwrap_or(usize::MAX))
        .take(usize::try_from(paging.limit).unwrap_or(0))
        .map(entry_view)
        .collect();
    let has_bank_details = bank_details::find_by_user(&state.db, author)
        .await?
        .is_some();
    Ok(HttpResponse::Ok().json(json!({
        "earnings": earnings,
        "entries": page,
        "total": total,
        "page": paging.page,
        "totalPages": paging.total_pages(total),
        "limit": paging.limit,
        "minPayout": state.settings.payments.min_payout,
        "hasBankDetails": has_bank_details,
        "mode": mode(&state),
    })))
}
