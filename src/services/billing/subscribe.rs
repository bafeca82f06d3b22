//! Subscribing: one running subscription per reader and author (a claim inserted under a unique
//! id before anything is charged), one charge per subscription (the payment's idempotency key
//! `charge:<subscription>` goes to the provider), then the outcome applied.

use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;

use super::lifecycle::{self, apply_charge};
use super::renewals;
use super::{customer_for, from_chrono, mode, provider_error, to_chrono};
use crate::domain::money::PlanStatus;
use crate::error::{ApiError, ApiResult};
use crate::payments::{ChargeRequest, ChargeStatus, ProviderError};
use crate::persistence::payments::{self, PaymentKind};

pub use crate::persistence::payments::{Payment, PaymentStatus};
use crate::persistence::plans::Plan;
use crate::persistence::subscription_claims::{self, STALE_CLAIM_SECONDS};
use crate::persistence::subscriptions::{self, SubStatus, Subscription};
use crate::persistence::users::User;
use crate::persistence::{now, users};
use crate::state::AppState;

pub const MSG_OWN_PLAN: &str = "You cannot subscribe to your own plan";
pub const MSG_PLAN_INACTIVE: &str = "This plan is not available for new subscribers";
pub const MSG_ALREADY_SUBSCRIBED: &str = "You are already subscribed to this author";

/// A first payment without the provider's answer this long after it began has lost its answer
/// (longer than one Stripe call may take): subscribing again replays the call with its key.
pub const ANSWER_LOST_AFTER_MS: i64 = crate::payments::stripe::TIMEOUT.as_millis() as i64 + 10_000;

/// What subscribing gave.
pub struct Subscribed {
    pub subscription: Subscription,
    pub payment: Payment,
    /// Set when the reader must confirm the payment in the browser (the `stripe` provider).
    pub client_secret: Option<String>,
}

/// Takes the (reader, author) slot, taking over one left behind by a subscription that has
/// ended or never came to exist.
async fn claim_slot(
    state: &AppState,
    reader: ObjectId,
    author: ObjectId,
    sub: ObjectId,
    plan: ObjectId,
) -> ApiResult<Option<Subscription>> {
    let db = &state.db;
    for _ in 0..3 {
        let held = match subscription_claims::claim(db, reader, author, sub).await? {
            Ok(()) => return Ok(None),
            Err(held) => held,
        };
        let holder = subscriptions::find_by_id(db, held.subscription_id).await?;
        // The same plan's first payment still waits for the reader: carry on with that one
        // (a second click, a reload of the checkout) instead of charging again.
        if let Some(s) = holder
            .as_ref()
            .filter(|s| s.status == SubStatus::Incomplete && s.plan_id == plan)
        {
            return Ok(Some(s.clone()));
        }
        let stale = match &holder {
            None => {
                now().timestamp_millis() - held.created_at.timestamp_millis()
                    > STALE_CLAIM_SECONDS * 1000
            }
            Some(s) if s.status.is_ended() => true,
            Some(s)
                if matches!(s.status, SubStatus::Cancelled | SubStatus::PastDue)
                    && !s.gives_access(now()) =>
            {
                lifecycle::expire(state, s, "access ended").await?;
                true
            }
            Some(_) => false,
        };
        if !stale {
            return Err(ApiError::conflict(MSG_ALREADY_SUBSCRIBED));
        }
        subscription_claims::release(db, reader, author, held.subscription_id).await?;
    }
    Err(ApiError::conflict(MSG_ALREADY_SUBSCRIBED))
}

/// Where a subscription whose first payment is pending stands now: still waiting (its client
/// secret again), or settled meanwhile (applied here).
async fn resume(state: &AppState, sub: Subscription) -> ApiResult<Subscribed> {
    let db = &state.db;
    let payment = payments::find_one(db, doc! { "subscriptionId": sub.id, "kind": "initial" })
        .await?
        .ok_or_else(|| ApiError::conflict(MSG_ALREADY_SUBSCRIBED))?;
    let charge = match payment.provider_payment_id.clone() {
        Some(provider_id) => state
            .payments
            .retrieve_charge(provider_id)
            .await
            .map_err(provider_error)?,
        // The first call may still be on its way (a double click): one charge at a time.
        None if now().timestamp_millis() - payment.created_at.timestamp_millis()
            < ANSWER_LOST_AFTER_MS =>
        {
            return Err(ApiError::conflict(MSG_ALREADY_SUBSCRIBED));
        }
        // Its answer was lost (the provider was away): the same call again, under the same
        // idempotency key, answers the charge it made or makes it now — never a second one.
        None => renewals::charge(state, &sub, &payment)
            .await
            .ok_or_else(|| {
                provider_error(ProviderError::Unavailable(
                    "the provider is still unreachable".into(),
                ))
            })?,
    };
    let subscription = match &charge.status {
        ChargeStatus::Pending { .. } if payment.provider_payment_id.is_some() => sub,
        // Settled meanwhile, or the replay's waiting charge whose id is recorded now.
        _ => apply_charge(state, &payment, &charge).await?,
    };
    if let ChargeStatus::Failed { reason } = &charge.status {
        return Err(ApiError::PaymentRequired(reason.clone()));
    }
    let payment = payments::find_one(db, doc! { "_id": payment.id })
        .await?
        .unwrap_or(payment);
    let client_secret = match charge.status {
        ChargeStatus::Pending { client_secret } => client_secret,
        _ => None,
    };
    Ok(Subscribed {
        subscription,
        payment,
        client_secret,
    })
}

/// Subscribes `reader` to `plan`, charging the first period through the provider.
pub async fn subscribe(
    state: &AppState,
    reader: &User,
    plan: &Plan,
    payment_method: Option<String>,
) -> ApiResult<Subscribed> {
    let db = &state.db;
    if plan.author_id == reader.id {
        return Err(ApiError::bad_request(MSG_OWN_PLAN));
    }
    if plan.is_deleted || plan.status != PlanStatus::Active {
        return Err(ApiError::conflict(MSG_PLAN_INACTIVE));
    }
    let author = users::find_by_id(db, plan.author_id).await?;
    if author.as_ref().is_none_or(|a| a.blocked) {
        return Err(ApiError::conflict(MSG_PLAN_INACTIVE));
    }
    let id = ObjectId::new();
    if let Some(pending) = claim_slot(state, reader.id, plan.author_id, id, plan.id).await? {
        return resume(state, pending).await;
    }
    let customer = match customer_for(state, reader).await {
        Ok(c) => c,
        Err(e) => {
            subscription_claims::release(db, reader.id, plan.author_id, id).await?;
            return Err(e);
        }
    };
    let start = now();
    let end = from_chrono(plan.interval.period_end(to_chrono(start)));
    let sub = Subscription {
        id,
        subscriber_id: reader.id,
        author_id: plan.author_id,
        plan_id: plan.id,
        plan_name: plan.name.clone(),
        price: plan.price,
        currency: plan.currency.clone(),
        interval: plan.interval,
        status: SubStatus::Incomplete,
        current_period_start: Some(start),
        current_period_end: Some(end),
        grace_ends_at: None,
        cancelled_at: None,
        refunded_at: None,
        ended_at: None,
        end_reason: None,
        customer_id: customer.clone(),
        payment_method: payment_method.clone(),
        last_payment_id: None,
        mode: mode(state).into(),
        created_at: start,
        updated_at: start,
    };
    subscriptions::insert(db, &sub).await?;
    let payment = Payment {
        id: ObjectId::new(),
        subscription_id: id,
        subscriber_id: reader.id,
        author_id: plan.author_id,
        plan_id: plan.id,
        kind: PaymentKind::Initial,
        amount: plan.price,
        currency: plan.currency.clone(),
        status: PaymentStatus::Pending,
        idempotency_key: format!("charge:{id}"),
        provider_payment_id: None,
        failure_reason: None,
        period_start: start,
        period_end: end,
        refunded: false,
        mode: mode(state).into(),
        created_at: start,
        updated_at: start,
    };
    if let Err(existing) = payments::insert_once(db, &payment).await? {
        return Err(ApiError::internal(anyhow::anyhow!(
            "a new subscription already had a payment {}",
            existing.id
        )));
    }
    let answer = state
        .payments
        .charge(ChargeRequest {
            customer,
            amount: plan.price,
            currency: plan.currency.clone(),
            payment_method,
            off_session: false,
            description: format!("Subscription to {}", plan.name),
            metadata: vec![
                ("subscriptionId".into(), id.to_hex()),
                ("paymentId".into(), payment.id.to_hex()),
                ("planId".into(), plan.id.to_hex()),
            ],
            idempotency_key: payment.idempotency_key.clone(),
        })
        .await;
    let charge = match answer {
        Ok(charge) => charge,
        Err(ProviderError::Unavailable(cause)) => {
            // Unknown outcome: the payment stays pending with its key, and the billing job asks
            // the provider again with the same key (a charge already made is answered, not
            // repeated). The slot stays taken meanwhile.
            return Err(provider_error(ProviderError::Unavailable(cause)));
        }
        Err(e) => {
            let reason = e.to_string();
            lifecycle::apply_charge(
                state,
                &payment,
                &crate::payments::Charge {
                    id: String::new(),
                    status: ChargeStatus::Failed { reason },
                    payment_method: None,
                },
            )
            .await?;
            return Err(provider_error(e));
        }
    };
    let subscription = apply_charge(state, &payment, &charge).await?;
    if let ChargeStatus::Failed { reason } = &charge.status {
        return Err(ApiError::PaymentRequired(reason.clone()));
    }
    let payment = payments::find_one(db, doc! { "_id": payment.id })
        .await?
        .unwrap_or(payment);
    let client_secret = match charge.status {
        ChargeStatus::Pending { client_secret } => client_secret,
        _ => None,
    };
    Ok(Subscribed {
        subscription,
        payment,
        client_secret,
    })
}
