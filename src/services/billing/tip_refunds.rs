//! Refunding a tip: once (the `succeeded` → `refunding` move is the claim simultaneous requests
//! race for), by the reader within the refund window and the refund policy's once-per-writer
//! rule (which counts subscription and tip refunds alike), or by an administrator at any time;
//! the writer's credit is reversed once, and reversed back if the provider fails the refund later.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};

use super::ledger::{append, NewEntry};
use super::tips::{credit_source, load, refund_source, MSG_TIP_NOT_FOUND};
use super::{plus_days, provider_error};
use crate::domain::money::format_amount;
use crate::error::{ApiError, ApiResult};
use crate::payments::{RefundRequest, RefundStatus};
use crate::persistence::ledger::{self as ledger_store, EntryKind};
use crate::persistence::notifications::Kind;
use crate::persistence::tips::{self, Tip, TipStatus};
use crate::persistence::users::User;
use crate::persistence::{leases, now, refunds, subscriptions, users};
use crate::services::notify::{notify, NotificationInput};
use crate::state::AppState;

pub const MSG_NOT_YOURS: &str = "Only the reader who tipped or an administrator can do this";
pub const MSG_ALREADY_REFUNDED: &str = "This tip has already been refunded";
pub const MSG_REFUND_UNDER_WAY: &str = "A refund of this tip is already under way";
pub const MSG_NOT_REFUNDABLE: &str = "Only a paid tip can be refunded";
pub const MSG_TIP_REFUNDED: &str = "Tip refunded";

/// Claims of tip refunds, `{_id: tipId, at}`: of simultaneous refunds of one tip, the one whose
/// insert makes the claim goes on (a unique `_id` insert is atomic on the embedded store, where a
/// conditional update under load can let two through). Dropped when the refund does not happen
/// (the provider refused it, or failed it later), kept once it did.
pub const REFUND_CLAIMS: &str = "tip_refund_claims";
/// Seconds after which a claim whose tip is still only paid is taken over (its holder died
/// between the claim and the tip's own change).
const STALE_CLAIM_SECONDS: i64 = 120;

/// Claims the refund of `tip`: true when this call holds it.
async fn claim_refund(db: &crate::persistence::Db, tip: &Tip) -> ApiResult<bool> {
    let claim = doc! { "_id": tip.id, "at": now() };
    if leases::claim(db, REFUND_CLAIMS, &claim).await? {
        return Ok(true);
    }
    // A claim left by a holder that never changed the tip: taken over once it is old.
    let stale = DateTime::from_millis(now().timestamp_millis() - STALE_CLAIM_SECONDS * 1000);
    let removed = db
        .database()
        .collection::<mongodb::bson::Document>(REFUND_CLAIMS)
        .delete_one(doc! { "_id": tip.id, "at": { "$lt": stale } })
        .await
        .map_err(|e| ApiError::internal(anyhow::anyhow!("taking over a refund claim: {e}")))?;
    if removed.deleted_count == 1 && tip.status == TipStatus::Succeeded {
        return Ok(leases::claim(db, REFUND_CLAIMS, &claim).await?);
    }
    Ok(false)
}

/// When `reader` was last refunded anything by `author` (a subscription or a tip) after
/// `since`, for the refund policy's once-per-author rule.
async fn last_refund_from(
    state: &AppState,
    reader: ObjectId,
    author: ObjectId,
    since: DateTime,
    except_tip: ObjectId,
) -> ApiResult<Option<DateTime>> {
    let mut latest = tips::last_refund(&state.db, reader, author, since, Some(except_tip)).await?;
    let theirs: Vec<ObjectId> = subscriptions::find(
        &state.db,
        doc! { "subscriberId": reader, "authorId": author },
    )
    .await?
    .iter()
    .map(|s| s.id)
    .collect();
    for r in refunds::of_subscriptions(&state.db, &theirs).await? {
        if r.created_at > since {
            latest = latest.max(Some(r.created_at));
        }
    }
    Ok(latest)
}

/// Refunds a paid tip once: the reader within `payments.refund_window_days` and the refund
/// policy's once-per-author rule, an administrator at any time. The provider refunds under
/// `refund:tip:<id>`; the writer's credit is reversed (their balance may go below zero after a
/// payout, and later earnings make it up, as for subscriptions).
pub async fn refund(
    state: &AppState,
    id: ObjectId,
    caller: &User,
    is_admin: bool,
    reason: &str,
) -> ApiResult<Tip> {
    let db = &state.db;
    let tip = load(state, id).await?;
    let own = tip.sender_id == caller.id;
    if !own && !is_admin {
        return Err(if tip.author_id == caller.id {
            ApiError::forbidden(MSG_NOT_YOURS)
        } else {
            ApiError::not_found(MSG_TIP_NOT_FOUND)
        });
    }
    match tip.status {
        TipStatus::Succeeded => {}
        TipStatus::Refunded => return Err(ApiError::conflict(MSG_ALREADY_REFUNDED)),
        TipStatus::Refunding => return Err(ApiError::conflict(MSG_REFUND_UNDER_WAY)),
        _ => return Err(ApiError::conflict(MSG_NOT_REFUNDABLE)),
    }
    let enforce = !is_admin;
    if enforce {
        let window = state.settings.payments.refund_window_days;
        if now().timestamp_millis() > plus_days(tip.created_at, window).timestamp_millis() {
            return Err(ApiError::conflict(format!(
                "The refund window has closed: a payment can be refunded within {window} days"
            )));
        }
        let days = state.settings.payments.refund_per_author_days;
        let since = DateTime::from_millis(now().timestamp_millis() - days * 86_400_000);
        if let Some(at) =
            last_refund_from(state, tip.sender_id, tip.author_id, since, tip.id).await?
        {
            let day = |at: DateTime| at.to_chrono().format("%Y-%m-%d").to_string();
            return Err(ApiError::conflict(format!(
                "You were refunded a payment to this writer on {}: refunds are limited to one per writer every {days} days, so the next is possible from {}",
                day(at),
                day(plus_days(at, days))
            )));
        }
    }
    // The claim: of simultaneous refunds, one goes on and moves the tip on.
    let refused = |status: TipStatus| {
        ApiError::conflict(match status {
            TipStatus::Refunded => MSG_ALREADY_REFUNDED,
            _ => MSG_REFUND_UNDER_WAY,
        })
    };
    if !claim_refund(db, &tip).await? {
        return Err(refused(load(state, id).await?.status));
    }
    let Some(claimed) = tips::transition(
        db,
        tip.id,
        &[TipStatus::Succeeded],
        doc! { "status": TipStatus::Refunding.as_str(), "refundReason": reason, "refundedBy": caller.id },
    )
    .await?
    else {
        leases::drop_claim(db, REFUND_CLAIMS, tip.id).await?;
        return Err(refused(load(state, id).await?.status));
    };
    let answer = state
        .payments
        .refund(RefundRequest {
            charge_id: claimed.provider_payment_id.clone().unwrap_or_default(),
            amount: claimed.amount,
            metadata: vec![
                ("kind".into(), "tip".into()),
                ("tipId".into(), claimed.id.to_hex()),
            ],
            idempotency_key: format!("refund:tip:{}", claimed.id),
        })
        .await;
    let back = || async {
        tips::transition(
            db,
            claimed.id,
            &[TipStatus::Refunding],
            doc! { "status": TipStatus::Succeeded.as_str() },
        )
        .await?;
        leases::drop_claim(db, REFUND_CLAIMS, claimed.id).await
    };
    let answer = match answer {
        Ok(a) if a.status != RefundStatus::Failed => a,
        Ok(_) => {
            back().await?;
            return Err(ApiError::BadGateway {
                message: "The payment provider refused the refund".into(),
                cause: anyhow::anyhow!("tip refund failed at the provider"),
            });
        }
        Err(e) => {
            // Not taken (or the answer was lost): the same key makes a retry safe.
            back().await?;
            return Err(provider_error(e));
        }
    };
    let status = match answer.status {
        RefundStatus::Succeeded => "succeeded",
        _ => "pending",
    };
    let refunded = tips::transition(
        db,
        claimed.id,
        &[TipStatus::Refunding],
        doc! { "status": TipStatus::Refunded.as_str(), "refundedAt": now(),
        "providerRefundId": &answer.id, "refundStatus": status },
    )
    .await?;
    let refunded = match refunded {
        Some(t) => t,
        None => load(state, id).await?,
    };
    if let Some(charge) =
        ledger_store::find_source(db, EntryKind::Charge, &credit_source(tip.id)).await?
    {
        append(
            db,
            NewEntry {
                author_id: tip.author_id,
                kind: EntryKind::Refund,
                source: refund_source(tip.id),
                currency: charge.currency,
                gross: -charge.gross,
                fee: -charge.fee,
                amount: -charge.amount,
                plan_id: None,
                subscription_id: None,
                post_id: Some(tip.post_id),
                tip_id: Some(tip.id),
            },
        )
        .await?;
    }
    let reader = users::find_by_id(db, tip.sender_id)
        .await?
        .map(|u| u.name)
        .unwrap_or_else(|| "A reader".into());
    let text = format!(
        "{reader}'s tip of {} on '{}' was refunded",
        format_amount(tip.amount, &tip.currency),
        tip.post_title
    );
    let mut input = NotificationInput::new(tip.author_id, Some(tip.sender_id), Kind::Tip, &text);
    input.post_id = Some(tip.post_id);
    if let Err(e) = notify(state, input).await {
        tracing::warn!(error = %e, "could not notify the writer of a tip refund");
    }
    Ok(refunded)
}

/// A refund of a tip the provider failed after it was booked: the writer's debit is reversed
/// (once) and the tip counts as paid again.
pub async fn refund_failed(state: &AppState, tip: &Tip) -> ApiResult<()> {
    let db = &state.db;
    if tip.refund_status.as_deref() == Some("failed") {
        return Ok(());
    }
    tips::set(
        db,
        tip.id,
        doc! { "refundStatus": "failed", "status": TipStatus::Succeeded.as_str(), "refundedAt": null },
    )
    .await?;
    // Paid again: it may be refunded again.
    leases::drop_claim(db, REFUND_CLAIMS, tip.id).await?;
    if let Some(debit) =
        ledger_store::find_source(db, EntryKind::Refund, &refund_source(tip.id)).await?
    {
        append(
            db,
            NewEntry {
                author_id: debit.author_id,
                kind: EntryKind::RefundReversal,
                source: refund_source(tip.id),
                currency: debit.currency,
                gross: -debit.gross,
                fee: -debit.fee,
                amount: -debit.amount,
                plan_id: None,
                subscription_id: None,
                post_id: debit.post_id,
                tip_id: debit.tip_id,
            },
        )
        .await?;
    }
    Ok(())
}
