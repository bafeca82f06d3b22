//! Authors' earnings from the ledger (`/api/earning/*`): every author's balances for the
//! administrators, and an author's own balances and ledger. (The sums are
//! `ledger::balances`.)

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::ApiResult;
use crate::persistence::ledger::{Entry, EntryKind};
use crate::persistence::{bank_details, ledger, posts, user_directory};
use crate::post_view::{iso, DELETED_AUTHOR};
use crate::services::billing::ledger::{balances, Balance};
use crate::state::AppState;

/// An author's earnings in one currency (minor units): sums of the ledger.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrencyEarnings {
    pub currency: String,
    /// What readers paid.
    pub gross: i64,
    /// The platform's share, net of refunded fees.
    pub fees: i64,
    /// What was refunded to readers.
    pub refunds: i64,
    /// What was paid out to the author.
    pub paid_out: i64,
    /// What is left to pay.
    pub available_balance: i64,
}

impl CurrencyEarnings {
    pub fn of(currency: &str, b: &Balance) -> Self {
        CurrencyEarnings {
            currency: currency.to_string(),
            gross: b.gross,
            fees: b.fees,
            refunds: b.refunds,
            paid_out: b.paid_out,
            available_balance: b.available,
        }
    }
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

/// One page of every author's earnings per currency, largest balance first, and how many rows
/// there are.
pub async fn authors_page(
    state: &AppState,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<AuthorEarnings>, u64)> {
    let entries = ledger::all(&state.db).await?;
    let mut rows: Vec<_> = balances(&entries).into_iter().collect();
    rows.sort_by(|a, b| b.1.available.cmp(&a.1.available).then(a.0.cmp(&b.0)));
    let total = rows.len() as u64;
    let shown: Vec<_> = rows
        .into_iter()
        .skip(usize::try_from(skip).unwrap_or(usize::MAX))
        .take(usize::try_from(limit).unwrap_or(0))
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
    Ok((user_earnings, total))
}

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

/// An author's own earnings: one balance per currency, a page of their ledger (newest first),
/// the ledger's size and whether they gave bank details.
pub struct OwnEarnings {
    pub earnings: Vec<CurrencyEarnings>,
    pub entries: Vec<EntryView>,
    pub total: u64,
    pub has_bank_details: bool,
}

/// `author`'s own earnings, with `limit` ledger entries from `skip`.
pub async fn of_author(
    state: &AppState,
    author: ObjectId,
    skip: u64,
    limit: i64,
) -> ApiResult<OwnEarnings> {
    let entries = ledger::for_author(&state.db, author).await?;
    let earnings: Vec<CurrencyEarnings> = balances(&entries)
        .iter()
        .map(|((_, currency), b)| CurrencyEarnings::of(currency, b))
        .collect();
    let total = entries.len() as u64;
    let shown: Vec<&Entry> = entries
        .iter()
        .rev()
        .skip(usize::try_from(skip).unwrap_or(usize::MAX))
        .take(usize::try_from(limit).unwrap_or(0))
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
    Ok(OwnEarnings {
        earnings,
        entries: page,
        total,
        has_bank_details,
    })
}
