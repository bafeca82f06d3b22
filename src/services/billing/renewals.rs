//! The billing job's work: renewing subscriptions whose period ended (a failed renewal turns the
//! subscription past_due, retried once a day until its grace ends), ending subscriptions whose
//! access is over, settling payments whose outcome was lost, retrying payouts the provider did
//! not answer, and reminding readers of renewals due soon (once per period).

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use serde::Serialize;

use super::lifecycle::{apply_charge, expire};
use super::{from_chrono, mode, plus_days, to_chrono};
use crate::error::ApiResult;
use crate::mail::{MailKind, Outgoing};
use crate::payments::{Charge, ChargeRequest, ChargeStatus, ProviderError};
use crate::persistence::payments::{self, Payment, PaymentKind, PaymentStatus};
use crate::persistence::subscriptions::{self, Subscription};
use crate::persistence::{now, payouts, plans, renewal_reminders, users};
use crate::state::AppState;

/// A payment or payout without an answer for this long is asked about again.
pub const UNANSWERED_AFTER_MS: i64 = 120_000;
/// A first payment the reader has not confirmed within this long fails.
pub const CONFIRMATION_WINDOW_MS: i64 = 24 * 3_600_000;
const DAY_MS: i64 = 86_400_000;

/// What one run did.
#[derive(Debug, Default, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    pub renewed: usize,
    pub renewals_failed: usize,
    /// Charged, the outcome not known yet.
    pub renewals_pending: usize,
    pub expired: usize,
    pub settled: usize,
    pub payouts_retried: usize,
}

/// Renews, expires and settles whatever is due at `at`.
pub async fn run_once(state: &AppState, at: DateTime) -> ApiResult<RunReport> {
    let db = &state.db;
    let mut report = RunReport::default();

    for sub in subscriptions::find(
        db,
        doc! { "status": "cancelled", "currentPeriodEnd": { "$lte": at } },
    )
    .await?
    {
        expire(state, &sub, "cancelled: the paid period ended").await?;
        report.expired += 1;
    }
    for sub in subscriptions::find(
        db,
        doc! { "status": "past_due", "graceEndsAt": { "$lte": at } },
    )
    .await?
    {
        expire(
            state,
            &sub,
            "the renewal payment failed and the grace period ended",
        )
        .await?;
        report.expired += 1;
    }

    let due = subscriptions::find(
        db,
        doc! { "status": { "$in": ["active", "past_due"] }, "currentPeriodEnd": { "$lte": at } },
    )
    .await?;
    for sub in due {
        let plan = plans::find_by_id(db, sub.plan_id).await?;
        if plan.as_ref().is_none_or(|p| p.is_deleted) {
            expire(state, &sub, "the plan was deleted").await?;
            report.expired += 1;
            continue;
        }
        let Some(period_end) = sub.current_period_end else {
            continue;
        };
        let attempt = 1 + (at.timestamp_millis() - period_end.timestamp_millis()).max(0) / DAY_MS;
        match renew(state, &sub, period_end, attempt).await? {
            Some(Renewal::Paid) => report.renewed += 1,
            Some(Renewal::Failed) => report.renewals_failed += 1,
            Some(Renewal::Pending) => report.renewals_pending += 1,
            None => {}
        }
    }

    report.settled = settle_unanswered(state, at).await?;
    report.payouts_retried = retry_payouts(state, at).await?;
    Ok(report)
}

/// How a renewal attempt went.
enum Renewal {
    Paid,
    Failed,
    /// The provider answers later (a webhook), or its answer was lost (asked again later).
    Pending,
}

/// Charges the period after `period_end`; `attempt` counts the days since it ended, so a failed
/// renewal is retried once a day. `None` when this attempt was made before (by another run).
async fn renew(
    state: &AppState,
    sub: &Subscription,
    period_end: DateTime,
    attempt: i64,
) -> ApiResult<Option<Renewal>> {
    let db = &state.db;
    // A charge still waiting for its answer is not doubled by another attempt.
    if payments::find_one(db, doc! { "subscriptionId": sub.id, "status": "pending" })
        .await?
        .is_some()
    {
        return Ok(None);
    }
    let next_end = from_chrono(sub.interval.period_end(to_chrono(period_end)));
    let payment = Payment {
        id: ObjectId::new(),
        subscription_id: sub.id,
        subscriber_id: sub.subscriber_id,
        author_id: sub.author_id,
        plan_id: sub.plan_id,
        kind: PaymentKind::Renewal,
        amount: sub.price,
        currency: sub.currency.clone(),
        status: PaymentStatus::Pending,
        idempotency_key: format!(
            "renew:{}:{}:{attempt}",
            sub.id,
            period_end.timestamp_millis()
        ),
        provider_payment_id: None,
        failure_reason: None,
        period_start: period_end,
        period_end: next_end,
        refunded: false,
        mode: mode(state).into(),
        created_at: now(),
        updated_at: now(),
    };
    if payments::insert_once(db, &payment).await?.is_err() {
        return Ok(None);
    }
    let Some(charge) = charge(state, sub, &payment).await else {
        return Ok(Some(Renewal::Pending));
    };
    let outcome = match charge.status {
        ChargeStatus::Succeeded => Renewal::Paid,
        ChargeStatus::Failed { .. } => Renewal::Failed,
        ChargeStatus::Pending { .. } => Renewal::Pending,
    };
    apply_charge(state, &payment, &charge).await?;
    Ok(Some(outcome))
}

/// Asks the provider for a charge (a renewal off-session with the saved payment method);
/// `None` when the outcome is unknown (the payment stays pending and is asked about again).
pub(super) async fn charge(
    state: &AppState,
    sub: &Subscription,
    payment: &Payment,
) -> Option<Charge> {
    let off_session = payment.kind == PaymentKind::Renewal;
    if off_session && sub.payment_method.is_none() && state.payments.name() != "local" {
        return Some(failed("No saved payment method to renew with"));
    }
    let answer = state
        .payments
        .charge(ChargeRequest {
            customer: sub.customer_id.clone(),
            amount: payment.amount,
            currency: payment.currency.clone(),
            payment_method: sub.payment_method.clone(),
            off_session,
            description: format!("Subscription to {}", sub.plan_name),
            metadata: vec![
                ("subscriptionId".into(), sub.id.to_hex()),
                ("paymentId".into(), payment.id.to_hex()),
                ("planId".into(), sub.plan_id.to_hex()),
            ],
            idempotency_key: payment.idempotency_key.clone(),
        })
        .await;
    match answer {
        Ok(charge) => Some(charge),
        Err(ProviderError::Unavailable(cause)) => {
            tracing::warn!(payment = %payment.id, error = %cause, "charge outcome unknown; will ask again");
            None
        }
        Err(e) => Some(failed(&e.to_string())),
    }
}

fn failed(reason: &str) -> Charge {
    Charge {
        id: String::new(),
        status: ChargeStatus::Failed {
            reason: reason.to_string(),
        },
        payment_method: None,
    }
}

/// Payments still pending after [`UNANSWERED_AFTER_MS`]: asked about again (by id when the
/// provider gave one, else by replaying the call with its key). A first payment waiting for the
/// reader's confirmation fails after [`CONFIRMATION_WINDOW_MS`].
async fn settle_unanswered(state: &AppState, at: DateTime) -> ApiResult<usize> {
    let db = &state.db;
    let before = DateTime::from_millis(at.timestamp_millis() - UNANSWERED_AFTER_MS);
    let mut settled = 0;
    for payment in payments::find(
        db,
        doc! { "status": "pending", "updatedAt": { "$lte": before } },
    )
    .await?
    {
        let Some(sub) = subscriptions::find_by_id(db, payment.subscription_id).await? else {
            continue;
        };
        let answer = match &payment.provider_payment_id {
            Some(id) => match state.payments.retrieve_charge(id.clone()).await {
                Ok(c) => Some(c),
                Err(ProviderError::Unavailable(_)) => None,
                Err(e) => Some(failed(&e.to_string())),
            },
            None => charge(state, &sub, &payment).await,
        };
        let Some(mut answer) = answer else { continue };
        let waited = at.timestamp_millis() - payment.created_at.timestamp_millis();
        if matches!(answer.status, ChargeStatus::Pending { .. }) && waited > CONFIRMATION_WINDOW_MS
        {
            answer.status = ChargeStatus::Failed {
                reason: "The payment was not completed in time".into(),
            };
        }
        if !matches!(answer.status, ChargeStatus::Pending { .. }) {
            apply_charge(state, &payment, &answer).await?;
            settled += 1;
        } else if payment.provider_payment_id.is_none() {
            // The replayed call answered a charge still waiting for the reader: its id is kept,
            // so the reader's next subscribe answers its client secret and the webhook finds it.
            apply_charge(state, &payment, &answer).await?;
        }
    }
    Ok(settled)
}

/// Payouts whose provider answer was lost, sent again with their key.
async fn retry_payouts(state: &AppState, at: DateTime) -> ApiResult<usize> {
    let before = DateTime::from_millis(at.timestamp_millis() - UNANSWERED_AFTER_MS);
    let pending = payouts::find(
        &state.db,
        doc! { "status": "pending", "updatedAt": { "$lte": before } },
    )
    .await?;
    let mut retried = 0;
    for record in pending {
        super::payouts::send(state, &record).await?;
        retried += 1;
    }
    Ok(retried)
}

/// What a reminder run did.
#[derive(Debug, Default, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReminderReport {
    pub sent: usize,
    pub already_sent: usize,
    pub failed: usize,
}

/// A price as text: `12.50 USD`.
pub fn format_amount(amount: i64, currency: &str) -> String {
    format!(
        "{}.{:02} {}",
        amount / 100,
        (amount % 100).abs(),
        currency.to_uppercase()
    )
}

/// Emails every reader whose renewal is due within `payments.reminder_days` of `at`, once per
/// period.
pub async fn send_reminders(state: &AppState, at: DateTime) -> ApiResult<ReminderReport> {
    let db = &state.db;
    let until = plus_days(at, state.settings.payments.reminder_days);
    let due = subscriptions::find(
        db,
        doc! { "status": "active", "currentPeriodEnd": { "$gt": at, "$lte": until } },
    )
    .await?;
    let mut report = ReminderReport::default();
    for sub in due {
        let Some(period_end) = sub.current_period_end else {
            continue;
        };
        if !renewal_reminders::claim(db, sub.id, period_end).await? {
            report.already_sent += 1;
            continue;
        }
        let Some(reader) = users::find_by_id(db, sub.subscriber_id).await? else {
            continue;
        };
        let date = to_chrono(period_end).format("%d %B %Y");
        let test_note = if state.payments.mode() == crate::payments::Mode::Test {
            "\n\n(Test mode: no real money is charged.)"
        } else {
            ""
        };
        let body = format!(
            "Hello {},\n\nYour subscription to \"{}\" renews on {date} for {}. If you do not want it to renew, cancel it from your subscriptions before then; you keep access until the end of the period.{test_note}\n\nPressroom",
            reader.name,
            sub.plan_name,
            format_amount(sub.price, &sub.currency),
        );
        let subject = format!("Your subscription to {} renews on {date}", sub.plan_name);
        // A failed delivery stays in the email log, where the administrators' retry sends it
        // again; the claim stays, so the job does not send a second copy.
        let sent = state
            .mailer
            .send_mail(
                Outgoing::new(MailKind::RenewalReminder, &reader.email, &subject, body)
                    .for_user(reader.id),
            )
            .await;
        if sent.success {
            report.sent += 1;
        } else {
            report.failed += 1;
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_read_as_money() {
        assert_eq!(format_amount(1250, "usd"), "12.50 USD");
        assert_eq!(format_amount(5, "inr"), "0.05 INR");
    }
}
