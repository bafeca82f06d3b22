//! Paying authors their available balance. Each payout takes the next position of the author's
//! ledger for its debit before the provider is asked, with the idempotency key
//! `payout:<author>:<currency>:<position>`: the same request sent twice, or two administrators at
//! once, find the balance already debited (or lose the position and read again), so an author is
//! paid once.

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use super::ledger::{append, append_exactly, back_off, balances, NewEntry};
use super::mode;
use crate::error::ApiResult;
use crate::payments::{PayoutRequest, ProviderError};
use crate::persistence::ledger::{self as ledger_store, EntryKind};
use crate::persistence::payouts::{self, PayoutRecord};
use crate::persistence::{bank_details, now};
use crate::state::AppState;

/// How often a payout reads the ledger again after losing its position.
const MAX_TRIES: u32 = 50;

/// The outcome for one author and currency.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutResult {
    pub user_id: String,
    /// `paid`, `skipped` or `failed`.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payout_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl PayoutResult {
    fn skipped(user: ObjectId, currency: Option<&str>, reason: impl Into<String>) -> Self {
        PayoutResult {
            user_id: user.to_hex(),
            status: "skipped",
            amount: None,
            currency: currency.map(str::to_string),
            payout_id: None,
            reason: Some(reason.into()),
            error: None,
        }
    }
}

/// Pays `author` every balance at or above the minimum, one payout per currency.
pub async fn pay_author(
    state: &AppState,
    author: ObjectId,
    admin: ObjectId,
) -> ApiResult<Vec<PayoutResult>> {
    let db = &state.db;
    let entries = ledger_store::for_author(db, author).await?;
    let mut currencies: Vec<String> = entries.iter().map(|e| e.currency.clone()).collect();
    currencies.sort();
    currencies.dedup();
    if currencies.is_empty() {
        return Ok(vec![PayoutResult::skipped(author, None, "No earnings yet")]);
    }
    let Some(bank) = bank_details::find_by_user(db, author).await? else {
        return Ok(vec![PayoutResult::skipped(
            author,
            None,
            "No bank details on file",
        )]);
    };
    let mut results = Vec::new();
    for currency in currencies {
        results.push(pay_currency(state, author, admin, &currency, &bank.payment_id).await?);
    }
    Ok(results)
}

async fn pay_currency(
    state: &AppState,
    author: ObjectId,
    admin: ObjectId,
    currency: &str,
    destination: &str,
) -> ApiResult<PayoutResult> {
    let db = &state.db;
    let min = state.settings.payments.min_payout;
    for attempt in 0..MAX_TRIES {
        let entries = ledger_store::for_author(db, author).await?;
        let last = entries.iter().map(|e| e.seq).max().unwrap_or(0);
        let available = balances(&entries)
            .get(&(author, currency.to_string()))
            .map(|b| b.available)
            .unwrap_or(0);
        if available < min {
            let reason = if available <= 0 {
                "Nothing to pay out".to_string()
            } else {
                format!("Available balance {available} is below the minimum payout of {min}")
            };
            return Ok(PayoutResult::skipped(author, Some(currency), reason));
        }
        let payout_id = ObjectId::new();
        let seq = last + 1;
        let debit = NewEntry {
            author_id: author,
            kind: EntryKind::Payout,
            source: payout_id.to_hex(),
            currency: currency.to_string(),
            gross: 0,
            fee: 0,
            amount: -available,
            plan_id: None,
            subscription_id: None,
            post_id: None,
            tip_id: None,
        };
        if append_exactly(db, &debit, seq).await?.is_none() {
            // Someone wrote to this author's ledger meanwhile (perhaps this very payout): read
            // again.
            back_off(attempt).await;
            continue;
        }
        let key = format!("payout:{author}:{currency}:{seq}");
        let record = PayoutRecord {
            id: payout_id,
            author_id: author,
            amount: available,
            currency: currency.to_string(),
            idempotency_key: key.clone(),
            ledger_seq: seq,
            destination: destination.to_string(),
            status: "pending".into(),
            provider_payout_id: None,
            error: None,
            requested_by: admin,
            mode: mode(state).into(),
            created_at: now(),
            updated_at: now(),
        };
        payouts::insert(db, &record).await?;
        return send(state, &record).await;
    }
    Ok(PayoutResult::skipped(
        author,
        Some(currency),
        "The ledger kept changing; try again",
    ))
}

/// Asks the provider to pay a recorded payout (again, with its key, when an earlier answer was
/// lost) and records the outcome. A refusal gives the money back to the balance.
pub async fn send(state: &AppState, record: &PayoutRecord) -> ApiResult<PayoutResult> {
    let db = &state.db;
    let answer = state
        .payments
        .payout(PayoutRequest {
            destination: record.destination.clone(),
            amount: record.amount,
            currency: record.currency.clone(),
            metadata: vec![
                ("payoutId".into(), record.id.to_hex()),
                ("userId".into(), record.author_id.to_hex()),
            ],
            idempotency_key: record.idempotency_key.clone(),
        })
        .await;
    let mut result = PayoutResult {
        user_id: record.author_id.to_hex(),
        status: "paid",
        amount: Some(record.amount),
        currency: Some(record.currency.clone()),
        payout_id: Some(record.id.to_hex()),
        reason: None,
        error: None,
    };
    match answer {
        Ok(payout) => {
            payouts::finish(db, record.id, "paid", Some(&payout.id), None).await?;
        }
        Err(ProviderError::Unavailable(cause)) => {
            tracing::warn!(payout = %record.id, error = %cause, "payout outcome unknown; will retry");
            payouts::finish(db, record.id, "pending", None, Some("provider unavailable")).await?;
            result.status = "failed";
            result.error = Some(
                "The payment provider could not be reached; the payout is held and retried automatically".into(),
            );
        }
        Err(e) => {
            let message = e.to_string();
            payouts::finish(db, record.id, "failed", None, Some(&message)).await?;
            append(
                db,
                NewEntry {
                    author_id: record.author_id,
                    kind: EntryKind::PayoutReversal,
                    source: record.id.to_hex(),
                    currency: record.currency.clone(),
                    gross: 0,
                    fee: 0,
                    amount: record.amount,
                    plan_id: None,
                    subscription_id: None,
                    post_id: None,
                    tip_id: None,
                },
            )
            .await?;
            result.status = "failed";
            result.error = Some(message);
        }
    }
    Ok(result)
}
