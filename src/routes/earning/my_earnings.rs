//! `GET /api/earning/my-earnings?page&limit` (signed in) → `{earnings, entries, total, page,
//! totalPages, limit, minPayout, hasBankDetails, mode}`: the caller's own earnings as an author.
//! `earnings` holds one balance per currency (`gross`, `fees`, `refunds`, `paidOut`,
//! `availableBalance`, sums of the ledger as the administrators' list shows them); `entries`
//! is one page (10 by default) of the caller's ledger, newest first: `{_id, kind (charge |
//! refund | refund_reversal | payout | payout_reversal), currency, gross, fee, amount, planId,
//! subscriptionId, source (subscription | tip | payout), postId, postTitle, tipId, createdAt}`, amounts in minor units, `amount` the effect on the balance.

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use super::CurrencyEarnings;

use crate::auth::AuthUser;
use crate::billing::{ledger::balances, mode};
use crate::error::ApiResult;
use crate::persistence::ledger::{Entry, EntryKind};
use crate::persistence::{bank_details, ledger, posts};
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
    /// What the money came from: `subscription`, `tip` or `payout`.
    pub source: String,
    /// The post a tip came for.
    pub post_id: Option<String>,
    /// Its title, while the post exists.
    pub post_title: Option<String>,
    pub tip_id: Option<String>,
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

fn entry_view(e: &Entry, titles: &HashMap<ObjectId, String>) -> EntryView {
    let source = if e.tip_id.is_some() {
        "tip"
    } else if matches!(e.kind, EntryKind::Payout | EntryKind::PayoutReversal) {
        "payout"
    } else {
        "subscription"
    };
    EntryView {
        id: e.id.to_hex(),
        kind: e.kind,
        currency: e.currency.clone(),
        gross: e.gross,
        fee: e.fee,
        amount: e.amount,
        plan_id: e.plan_id.map(|id| id.to_hex()),
        subscription_id: e.subscription_id.map(|id| id.to_hex()),
        source: source.to_string(),
        post_id: e.post_id.map(|id| id.to_hex()),
        post_title: e.post_id.and_then(|id| titles.get(&id).cloned()),
        tip_id: e.tip_id.map(|id| id.to_hex()),
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
    let shown: Vec<&Entry> = entries
        .iter()
        .rev()
        .skip(usize::try_from(paging.skip).unwrap_or(usize::MAX))
        .take(usize::try_from(paging.limit).unwrap_or(0))
        .collect();
    let post_ids: Vec<ObjectId> = shown.iter().filter_map(|e| e.post_id).collect();
    let titles: HashMap<ObjectId, String> = posts::titles(&state.db, &post_ids)
        .await?
        .into_iter()
        .map(|(id, title, _)| (id, title))
        .collect();
    let page: Vec<EntryView> = shown.iter().map(|e| entry_view(e, &titles)).collect();
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
