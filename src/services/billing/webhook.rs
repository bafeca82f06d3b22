//! Provider events (Stripe webhooks), each processed once: a payment that settled later (the
//! reader confirmed it, a renewal cleared), a payment that failed, and a refund that settled or
//! failed. The event id is recorded before processing; a failure forgets it again so the
//! provider's retry is processed. A delivery arriving while another processes the same event is
//! answered 409 (so the provider retries it, and then finds it done); an event whose processing
//! stopped halfway (the process died) is taken over after [`STALE_AFTER_MS`].

use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;
use serde_json::Value;

use super::ledger::{append, NewEntry};
use super::lifecycle::apply_charge;
use crate::error::{ApiError, ApiResult};
use crate::payments::stripe::{charge_of, refund_of};
use crate::payments::{ChargeStatus, RefundStatus};
use crate::persistence::ledger::{self as ledger_store, EntryKind};
use crate::persistence::tips::{self, Tip};
use crate::persistence::webhook_events::{self, Begin};
use crate::persistence::{payments, refunds};
use crate::state::AppState;

pub const MSG_IN_FLIGHT: &str =
    "This event is being processed by another delivery; send it again later";

/// An event left `processing` this long (its processor stopped) is processed again by the next
/// delivery. Every step of processing is safe to repeat.
pub const STALE_AFTER_MS: i64 = 120_000;

/// What became of an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handled {
    Processed,
    /// A type or object this server does not act on.
    Ignored,
    /// Seen before: nothing done.
    Duplicate,
}

impl Handled {
    pub fn as_str(self) -> &'static str {
        match self {
            Handled::Processed => "processed",
            Handled::Ignored => "ignored",
            Handled::Duplicate => "duplicate",
        }
    }
}

/// Processes a verified event once.
pub async fn handle(state: &AppState, event: &Value) -> ApiResult<Handled> {
    let (Some(id), Some(kind)) = (event["id"].as_str(), event["type"].as_str()) else {
        return Err(ApiError::bad_request(
            "Malformed event: id and type are required",
        ));
    };
    if id.is_empty() || id.len() > 255 || !event["data"]["object"].is_object() {
        return Err(ApiError::bad_request(
            "Malformed event: id and data.object are required",
        ));
    }
    match webhook_events::begin(&state.db, id, kind, STALE_AFTER_MS).await? {
        Begin::Started => {}
        Begin::Done => return Ok(Handled::Duplicate),
        // Not acknowledged: the provider delivers it again, and by then it is done (or, if its
        // processor died, taken over).
        Begin::InFlight => return Err(ApiError::conflict(MSG_IN_FLIGHT)),
    }
    match process(state, kind, &event["data"]["object"]).await {
        Ok(handled) => {
            webhook_events::finish(&state.db, id, handled.as_str()).await?;
            Ok(handled)
        }
        Err(e) => {
            webhook_events::forget(&state.db, id).await?;
            Err(e)
        }
    }
}

async fn process(state: &AppState, kind: &str, object: &Value) -> ApiResult<Handled> {
    let db = &state.db;
    match kind {
        "payment_intent.succeeded"
        | "payment_intent.payment_failed"
        | "payment_intent.canceled" => {
            let Ok(mut charge) = charge_of(object) else {
                return Ok(Handled::Ignored);
            };
            if kind == "payment_intent.payment_failed"
                && !matches!(charge.status, ChargeStatus::Failed { .. })
            {
                charge.status = ChargeStatus::Failed {
                    reason: object["last_payment_error"]["message"]
                        .as_str()
                        .unwrap_or("The payment failed")
                        .to_string(),
                };
            }
            if let Some(tip) = tip_of(state, &charge.id, object).await? {
                super::tips::settle(state, &tip, &charge).await?;
                return Ok(Handled::Processed);
            }
            let by_metadata = object["metadata"]["paymentId"]
                .as_str()
                .and_then(|id| ObjectId::parse_str(id).ok());
            let mut payment =
                payments::find_one(db, doc! { "providerPaymentId": &charge.id }).await?;
            if payment.is_none() {
                if let Some(id) = by_metadata {
                    payment = payments::find_one(db, doc! { "_id": id }).await?;
                }
            }
            let Some(payment) = payment else {
                return Ok(Handled::Ignored);
            };
            apply_charge(state, &payment, &charge).await?;
            Ok(Handled::Processed)
        }
        "refund.updated" | "refund.failed" | "charge.refund.updated" => {
            let Ok(refund) = refund_of(object) else {
                return Ok(Handled::Ignored);
            };
            let Some(record) = refunds::find_by_provider_id(db, &refund.id).await? else {
                let Some(tip) = tips::find_one(db, doc! { "providerRefundId": &refund.id }).await?
                else {
                    return Ok(Handled::Ignored);
                };
                if kind == "refund.failed" || refund.status == RefundStatus::Failed {
                    super::tip_refunds::refund_failed(state, &tip).await?;
                } else if refund.status == RefundStatus::Succeeded {
                    tips::set(db, tip.id, doc! { "refundStatus": "succeeded" }).await?;
                }
                return Ok(Handled::Processed);
            };
            let status = if kind == "refund.failed" {
                RefundStatus::Failed
            } else {
                refund.status
            };
            let before = refunds::set_status(db, record.id, status, None).await?;
            let was_failed = before.is_some_and(|b| b.status == "failed");
            if status == RefundStatus::Failed && !was_failed {
                // The reader did not get the money back: the author's debit is reversed.
                if let Some(debit) =
                    ledger_store::find_source(db, EntryKind::Refund, &record.id.to_hex()).await?
                {
                    append(
                        db,
                        NewEntry {
                            author_id: debit.author_id,
                            kind: EntryKind::RefundReversal,
                            source: record.id.to_hex(),
                            currency: debit.currency,
                            gross: -debit.gross,
                            fee: -debit.fee,
                            amount: -debit.amount,
                            plan_id: debit.plan_id,
                            subscription_id: debit.subscription_id,
                            post_id: debit.post_id,
                            tip_id: debit.tip_id,
                        },
                    )
                    .await?;
                }
            }
            Ok(Handled::Processed)
        }
        _ => Ok(Handled::Ignored),
    }
}

/// The tip a payment event is about: by the provider's id, else by the `tipId` the charge was
/// made with.
async fn tip_of(state: &AppState, intent: &str, object: &Value) -> ApiResult<Option<Tip>> {
    if !intent.is_empty() {
        if let Some(tip) = tips::find_one(&state.db, doc! { "providerPaymentId": intent }).await? {
            return Ok(Some(tip));
        }
    }
    let Some(id) = object["metadata"]["tipId"]
        .as_str()
        .and_then(|id| ObjectId::parse_str(id).ok())
    else {
        return Ok(None);
    };
    Ok(tips::find_by_id(&state.db, id).await?)
}
