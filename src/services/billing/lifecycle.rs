//! What happens to a subscription: a charge's outcome is applied (activation, renewal, past_due,
//! failure), and subscriptions are cancelled, refunded and expired. Every step is safe to run
//! twice: payments settle only from `pending`, status changes name the statuses they leave, the
//! ledger takes each source once and events are keyed.

use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;

use super::ledger::{append, NewEntry};
use super::{mode, plus_days, provider_error, record_event, Event};
use crate::domain::money::platform_fee;
use crate::error::{ApiError, ApiResult};
use crate::payments::{Charge, ChargeStatus, RefundRequest, RefundStatus};
use crate::persistence::ledger::{self as ledger_store, EntryKind};
use crate::persistence::payments::{self, Payment, PaymentKind, PaymentStatus};
use crate::persistence::refunds::{self, RefundRecord};
use crate::persistence::subscriptions::{self, Subscription};

pub use crate::persistence::subscriptions::SubStatus;
use crate::persistence::{now, subscription_claims};
use crate::state::AppState;

pub const MSG_ALREADY_REFUNDED: &str = "This payment has already been refunded";
pub const MSG_NOT_REFUNDABLE: &str =
    "Only an active or cancelled subscription with a settled payment can be refunded";
pub const MSG_ALREADY_ENDED: &str = "This subscription has already ended";
pub const MSG_PAYMENT_PENDING: &str =
    "This subscription's first payment is still pending; it cannot be cancelled yet";

/// Credits the author for a successful charge (once per payment).
async fn credit(state: &AppState, payment: &Payment) -> ApiResult<()> {
    let fee = platform_fee(payment.amount, state.settings.payments.platform_fee_percent);
    append(
        &state.db,
        NewEntry {
            author_id: payment.author_id,
            kind: EntryKind::Charge,
            source: payment.id.to_hex(),
            currency: payment.currency.clone(),
            gross: payment.amount,
            fee,
            amount: payment.amount - fee,
            plan_id: Some(payment.plan_id),
            subscription_id: Some(payment.subscription_id),
            post_id: None,
            tip_id: None,
        },
    )
    .await?;
    Ok(())
}

/// Applies the provider's answer about `payment` to it, its subscription, the ledger and the
/// history; returns the subscription after it.
pub async fn apply_charge(
    state: &AppState,
    payment: &Payment,
    charge: &Charge,
) -> ApiResult<Subscription> {
    let db = &state.db;
    let provider_id = Some(charge.id.as_str()).filter(|id| !id.is_empty());
    match &charge.status {
        ChargeStatus::Succeeded => {
            payments::settle(db, payment.id, PaymentStatus::Succeeded, provider_id, None).await?;
            let current = payments::find_one(db, doc! { "_id": payment.id })
                .await?
                .unwrap_or_else(|| payment.clone());
            if current.status != PaymentStatus::Succeeded {
                tracing::warn!(payment = %payment.id, "a payment marked failed was reported paid; left for an administrator");
                return load(state, payment.subscription_id).await;
            }
            credit(state, &current).await?;
            let mut set = doc! {
                "status": SubStatus::Active.as_str(),
                "currentPeriodStart": current.period_start,
                "currentPeriodEnd": current.period_end,
                "graceEndsAt": null,
                "lastPaymentId": current.id,
            };
            if let Some(method) = &charge.payment_method {
                set.insert("paymentMethod", method);
            }
            let (from, kind): (&[SubStatus], &str) = match current.kind {
                PaymentKind::Initial => (&[SubStatus::Incomplete], "subscribed"),
                PaymentKind::Renewal => (&[SubStatus::Active, SubStatus::PastDue], "renewed"),
            };
            let sub =
                match subscriptions::transition(db, current.subscription_id, from, set).await? {
                    Some(sub) => sub,
                    None => load(state, current.subscription_id).await?,
                };
            record_event(
                state,
                Event {
                    kind,
                    discriminator: current.id.to_hex(),
                    amount: Some(current.amount),
                    actor: None,
                    details: None,
                    sub: &sub,
                },
            )
            .await?;
            Ok(sub)
        }
        ChargeStatus::Pending { .. } => {
            if let Some(id) = provider_id {
                payments::set_provider_id(db, payment.id, id).await?;
            }
            let sub = load(state, payment.subscription_id).await?;
            record_event(
                state,
                Event {
                    kind: "payment_pending",
                    discriminator: payment.id.to_hex(),
                    amount: Some(payment.amount),
                    actor: None,
                    details: None,
                    sub: &sub,
                },
            )
            .await?;
            Ok(sub)
        }
        ChargeStatus::Failed { reason } => {
            payments::settle(
                db,
                payment.id,
                PaymentStatus::Failed,
                provider_id,
                Some(reason),
            )
            .await?;
            let sub = match payment.kind {
                PaymentKind::Initial => {
                    let ended = subscriptions::transition(
                        db,
                        payment.subscription_id,
                        &[SubStatus::Incomplete],
                        doc! { "status": SubStatus::Failed.as_str(), "endedAt": now(), "endReason": reason },
                    )
                    .await?;
                    let sub = match ended {
                        Some(sub) => sub,
                        None => load(state, payment.subscription_id).await?,
                    };
                    if sub.status.is_ended() {
                        subscription_claims::release(db, sub.subscriber_id, sub.author_id, sub.id)
                            .await?;
                    }
                    sub
                }
                PaymentKind::Renewal => {
                    let grace = plus_days(payment.period_start, state.settings.payments.grace_days);
                    match subscriptions::transition(
                        db,
                        payment.subscription_id,
                        &[SubStatus::Active],
                        doc! { "status": SubStatus::PastDue.as_str(), "graceEndsAt": grace },
                    )
                    .await?
                    {
                        Some(sub) => sub,
                        None => load(state, payment.subscription_id).await?,
                    }
                }
            };
            let kind = match payment.kind {
                PaymentKind::Initial => "payment_failed",
                PaymentKind::Renewal => "renewal_failed",
            };
            record_event(
                state,
                Event {
                    kind,
                    discriminator: payment.id.to_hex(),
                    amount: Some(payment.amount),
                    actor: None,
                    details: Some(reason.clone()),
                    sub: &sub,
                },
            )
            .await?;
            Ok(sub)
        }
    }
}

async fn load(state: &AppState, id: ObjectId) -> ApiResult<Subscription> {
    subscriptions::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("subscription {id} vanished")))
}

/// Cancels a running subscription: it keeps access to the end of the paid period and is not
/// renewed. Cancelling a cancelled subscription answers it as it is.
pub async fn cancel(
    state: &AppState,
    sub: &Subscription,
    actor: ObjectId,
) -> ApiResult<Subscription> {
    let db = &state.db;
    let updated = match sub.status {
        SubStatus::Cancelled => return Ok(sub.clone()),
        SubStatus::Incomplete => return Err(ApiError::conflict(MSG_PAYMENT_PENDING)),
        s if s.is_ended() => return Err(ApiError::conflict(MSG_ALREADY_ENDED)),
        // A renewal already failed: nothing is paid for any more, so access ends now.
        SubStatus::PastDue => {
            let ended = subscriptions::transition(
                db,
                sub.id,
                &[SubStatus::PastDue],
                doc! { "status": SubStatus::Cancelled.as_str(), "cancelledAt": now(),
                "currentPeriodEnd": now(), "graceEndsAt": null },
            )
            .await?;
            subscription_claims::release(db, sub.subscriber_id, sub.author_id, sub.id).await?;
            ended
        }
        _ => {
            subscriptions::transition(
                db,
                sub.id,
                &[SubStatus::Active],
                doc! { "status": SubStatus::Cancelled.as_str(), "cancelledAt": now() },
            )
            .await?
        }
    };
    let updated = match updated {
        Some(s) => s,
        None => load(state, sub.id).await?,
    };
    if updated.status == SubStatus::Cancelled {
        record_event(
            state,
            Event {
                kind: "cancelled",
                discriminator: String::new(),
                amount: None,
                actor: Some(actor),
                details: None,
                sub: &updated,
            },
        )
        .await?;
    }
    Ok(updated)
}

/// The refund policy's frequency rules (docs/refunds.md): a reader is refunded a plan at most
/// once ever, and a subscription to one author at most once in `payments.refund_per_author_days`
/// (rolling). The refusal says which rule and, for the second, from when a refund is possible.
/// Refunds of `payment` itself are left to the once-per-payment rule (simultaneous requests).
async fn refund_frequency(
    state: &AppState,
    sub: &Subscription,
    payment: ObjectId,
) -> ApiResult<()> {
    let db = &state.db;
    let theirs: Vec<ObjectId> = subscriptions::find(db, doc! { "subscriberId": sub.subscriber_id })
        .await?
        .iter()
        .map(|s| s.id)
        .collect();
    let earlier: Vec<RefundRecord> = refunds::of_subscriptions(db, &theirs)
        .await?
        .into_iter()
        .filter(|r| r.payment_id != payment)
        .collect();
    let day = |at: mongodb::bson::DateTime| at.to_chrono().format("%Y-%m-%d").to_string();
    if let Some(same_plan) = earlier.iter().find(|r| r.plan_id == sub.plan_id) {
        return Err(ApiError::conflict(format!(
            "This plan was already refunded to you on {}: a plan is refunded at most once, so this subscription cannot be refunded",
            day(same_plan.created_at)
        )));
    }
    let days = state.settings.payments.refund_per_author_days;
    let since = now().timestamp_millis() - days * 86_400_000;
    let tipped = crate::persistence::tips::last_refund(
        db,
        sub.subscriber_id,
        sub.author_id,
        mongodb::bson::DateTime::from_millis(since),
        None,
    )
    .await?;
    if let Some(at) = tipped {
        return Err(ApiError::conflict(format!(
            "You were refunded a tip to this author on {}: refunds are limited to one per author every {days} days, so the next is possible from {}",
            day(at),
            day(plus_days(at, days))
        )));
    }
    if let Some(recent) = earlier
        .iter()
        .find(|r| r.author_id == sub.author_id && r.created_at.timestamp_millis() > since)
    {
        return Err(ApiError::conflict(format!(
            "You were refunded a subscription to this author on {}: refunds are limited to one per author every {days} days, so the next is possible from {}",
            day(recent.created_at),
            day(plus_days(recent.created_at, days))
        )));
    }
    Ok(())
}

/// The refund of the subscription's latest charge: checks the window, asks the provider once
/// (one refund record per payment, the provider's idempotency key `refund:<payment>`), ends the
/// subscription and debits the author.
pub async fn refund(
    state: &AppState,
    sub: &Subscription,
    actor: ObjectId,
    reason: &str,
    enforce_window: bool,
) -> ApiResult<(Subscription, RefundRecord)> {
    let db = &state.db;
    if !matches!(
        sub.status,
        SubStatus::Active | SubStatus::Cancelled | SubStatus::PastDue
    ) {
        return Err(ApiError::conflict(if sub.status == SubStatus::Refunded {
            MSG_ALREADY_REFUNDED
        } else {
            MSG_NOT_REFUNDABLE
        }));
    }
    let payment = match sub.last_payment_id {
        Some(id) => payments::find_one(db, doc! { "_id": id }).await?,
        None => None,
    }
    .filter(|p| p.status == PaymentStatus::Succeeded)
    .ok_or_else(|| ApiError::conflict(MSG_NOT_REFUNDABLE))?;
    if payment.refunded {
        return Err(ApiError::conflict(MSG_ALREADY_REFUNDED));
    }
    let window = state.settings.payments.refund_window_days;
    if enforce_window
        && now().timestamp_millis() > plus_days(payment.created_at, window).timestamp_millis()
    {
        return Err(ApiError::conflict(format!(
            "The refund window has closed: a payment can be refunded within {window} days"
        )));
    }
    if enforce_window {
        refund_frequency(state, sub, payment.id).await?;
    }
    let record = RefundRecord {
        id: ObjectId::new(),
        payment_id: payment.id,
        subscription_id: sub.id,
        author_id: sub.author_id,
        plan_id: sub.plan_id,
        amount: payment.amount,
        currency: payment.currency.clone(),
        reason: reason.to_string(),
        requested_by: actor,
        status: "pending".into(),
        provider_refund_id: None,
        mode: mode(state).into(),
        created_at: now(),
        updated_at: now(),
    };
    if refunds::insert_once(db, &record).await?.is_err() {
        return Err(ApiError::conflict(MSG_ALREADY_REFUNDED));
    }
    let charge_id = payment.provider_payment_id.clone().unwrap_or_default();
    let answer = state
        .payments
        .refund(RefundRequest {
            charge_id,
            amount: payment.amount,
            metadata: vec![
                ("subscriptionId".into(), sub.id.to_hex()),
                ("paymentId".into(), payment.id.to_hex()),
            ],
            idempotency_key: format!("refund:{}", payment.id),
        })
        .await;
    let answer = match answer {
        Ok(a) if a.status != RefundStatus::Failed => a,
        Ok(_) => {
            refunds::remove(db, record.id).await?;
            return Err(ApiError::BadGateway {
                message: "The payment provider refused the refund".into(),
                cause: anyhow::anyhow!("refund failed at the provider"),
            });
        }
        Err(e) => {
            // The provider did not take it (or its answer was lost): the same idempotency key
            // makes a retry safe, so the record goes and the request may be made again.
            refunds::remove(db, record.id).await?;
            return Err(provider_error(e));
        }
    };
    refunds::set_status(db, record.id, answer.status, Some(&answer.id)).await?;
    payments::mark_refunded(db, payment.id).await?;
    if let Some(charge) =
        ledger_store::find_source(db, EntryKind::Charge, &payment.id.to_hex()).await?
    {
        append(
            db,
            NewEntry {
                author_id: sub.author_id,
                kind: EntryKind::Refund,
                source: record.id.to_hex(),
                currency: charge.currency,
                gross: -charge.gross,
                fee: -charge.fee,
                amount: -charge.amount,
                plan_id: Some(sub.plan_id),
                subscription_id: Some(sub.id),
                post_id: None,
                tip_id: None,
            },
        )
        .await?;
    }
    let ended = subscriptions::transition(
        db,
        sub.id,
        &[SubStatus::Active, SubStatus::Cancelled, SubStatus::PastDue],
        doc! { "status": SubStatus::Refunded.as_str(), "refundedAt": now(), "endedAt": now(),
        "endReason": reason, "graceEndsAt": null },
    )
    .await?;
    let ended = match ended {
        Some(s) => s,
        None => load(state, sub.id).await?,
    };
    subscription_claims::release(db, sub.subscriber_id, sub.author_id, sub.id).await?;
    record_event(
        state,
        Event {
            kind: "refunded",
            discriminator: payment.id.to_hex(),
            amount: Some(payment.amount),
            actor: Some(actor),
            details: Some(reason.to_string()),
            sub: &ended,
        },
    )
    .await?;
    let mut record = record;
    record.status = match answer.status {
        RefundStatus::Succeeded => "succeeded".into(),
        _ => "pending".into(),
    };
    record.provider_refund_id = Some(answer.id);
    Ok((ended, record))
}

/// Ends a subscription whose access is over (cancelled at period end, past its grace, or its
/// plan deleted at period end) and frees the reader to subscribe again.
pub async fn expire(state: &AppState, sub: &Subscription, reason: &str) -> ApiResult<()> {
    let ended = subscriptions::transition(
        &state.db,
        sub.id,
        &[sub.status],
        doc! { "status": SubStatus::Expired.as_str(), "endedAt": now(), "endReason": reason },
    )
    .await?;
    if let Some(ended) = ended {
        subscription_claims::release(&state.db, sub.subscriber_id, sub.author_id, sub.id).await?;
        let period = sub
            .current_period_end
            .map(|e| e.timestamp_millis().to_string())
            .unwrap_or_default();
        record_event(
            state,
            Event {
                kind: "expired",
                discriminator: period,
                amount: None,
                actor: None,
                details: Some(reason.to_string()),
                sub: &ended,
            },
        )
        .await?;
    }
    Ok(())
}

/// Whether `reader` has access to `author`'s subscribers' posts now, with the subscription shown
/// (the one giving access, else the latest): its status and id.
pub async fn access_status(
    state: &AppState,
    reader: ObjectId,
    author: ObjectId,
) -> ApiResult<(bool, Option<SubStatus>, Option<String>)> {
    let subs = subscriptions::of_reader_to_author(&state.db, reader, author).await?;
    let at = now();
    let is_subscribed = subs.iter().any(|s| s.gives_access(at));
    let shown = subs.iter().find(|s| s.gives_access(at)).or(subs.first());
    Ok((
        is_subscribed,
        shown.map(|s| s.status),
        shown.map(|s| s.id.to_hex()),
    ))
}

/// Cancels every running subscription of `reader` to `author` (as `by`); answers those
/// cancelled.
pub async fn cancel_all_to_author(
    state: &AppState,
    by: ObjectId,
    reader: ObjectId,
    author: ObjectId,
) -> ApiResult<Vec<Subscription>> {
    let running = subscriptions::running_of_reader_to_author(&state.db, reader, author).await?;
    let mut cancelled = Vec::new();
    for sub in running {
        let sub = cancel(state, &sub, by).await?;
        if sub.status == SubStatus::Cancelled {
            cancelled.push(sub);
        }
    }
    Ok(cancelled)
}
