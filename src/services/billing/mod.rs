//! The money path: eligibility, subscribing, the life of a subscription (settling charges,
//! renewals, cancellation, refunds, expiry), the earnings ledger and payouts, and the provider's
//! webhook events. Handlers and jobs call these; every provider call goes through
//! `state.payments` with an idempotency key derived from its purpose.

pub mod accounts;
pub mod earnings;
pub mod eligibility;
pub mod ledger;
pub mod lifecycle;
pub mod payouts;
pub mod renewals;
pub mod subscribe;
pub mod tip_admin;
pub mod tip_refunds;
pub mod tip_view;
pub mod tips;
pub mod webhook;

use chrono::{DateTime as ChronoTime, Utc};
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;

use crate::error::{ApiError, ApiResult};
use crate::payments::{CustomerRequest, ProviderError};
use crate::persistence::notifications::Kind;
use crate::persistence::subscription_events::{self, SubscriptionEvent};
use crate::persistence::subscriptions::Subscription;
use crate::persistence::users::User;
use crate::persistence::{now, payment_customers, users};
use crate::services::notify::{notify, NotificationInput};
use crate::state::AppState;

/// Message when the provider cannot be reached.
pub const MSG_PROVIDER_DOWN: &str =
    "The payment provider could not be reached. Nothing was charged twice; please try again shortly.";

/// `test` or `live`, as every money response says.
pub fn mode(state: &AppState) -> &'static str {
    state.payments.mode().as_str()
}

pub fn to_chrono(at: DateTime) -> ChronoTime<Utc> {
    at.to_chrono()
}

pub fn from_chrono(at: ChronoTime<Utc>) -> DateTime {
    DateTime::from_chrono(at)
}

/// `at` plus whole days.
pub fn plus_days(at: DateTime, days: i64) -> DateTime {
    DateTime::from_millis(at.timestamp_millis() + days * 86_400_000)
}

/// What the client hears of a provider failure.
pub fn provider_error(err: ProviderError) -> ApiError {
    match err {
        ProviderError::Declined(message) => ApiError::PaymentRequired(message),
        ProviderError::Invalid(message) => ApiError::invalid("payment_invalid", message),
        ProviderError::Unavailable(cause) => ApiError::BadGateway {
            message: MSG_PROVIDER_DOWN.into(),
            cause: anyhow::anyhow!(cause),
        },
    }
}

/// The user's customer at the provider, made on first need.
pub async fn customer_for(state: &AppState, user: &User) -> ApiResult<String> {
    let provider = state.payments.name();
    if let Some(id) = payment_customers::find(&state.db, user.id, provider).await? {
        return Ok(id);
    }
    let id = state
        .payments
        .create_customer(CustomerRequest {
            user_id: user.id.to_hex(),
            email: user.email.clone(),
            name: user.name.clone(),
        })
        .await
        .map_err(provider_error)?;
    payment_customers::save(&state.db, user.id, provider, &id).await?;
    // Another request may have stored one first; that one is the customer.
    Ok(payment_customers::find(&state.db, user.id, provider)
        .await?
        .unwrap_or(id))
}

/// A subscription event to record.
pub struct Event<'a> {
    pub kind: &'static str,
    /// Makes the event unique with the subscription and kind (a payment id, a period).
    pub discriminator: String,
    pub amount: Option<i64>,
    pub actor: Option<ObjectId>,
    pub details: Option<String>,
    pub sub: &'a Subscription,
}

/// Records a subscription event once and tells the author of the ones they care about (a new
/// subscriber, a cancellation, a refund). A failure to notify is logged, never fails the act.
pub async fn record_event(state: &AppState, event: Event<'_>) -> ApiResult<()> {
    let sub = event.sub;
    let stored = SubscriptionEvent {
        id: ObjectId::new(),
        key: format!("{}:{}:{}", sub.id, event.kind, event.discriminator),
        subscription_id: sub.id,
        plan_id: sub.plan_id,
        author_id: sub.author_id,
        subscriber_id: sub.subscriber_id,
        kind: event.kind.to_string(),
        amount: event.amount,
        currency: event.amount.map(|_| sub.currency.clone()),
        actor_id: event.actor,
        details: event.details,
        created_at: now(),
    };
    if !subscription_events::record(&state.db, &stored).await? {
        return Ok(());
    }
    let webhook = match event.kind {
        "subscribed" => Some("subscription.created"),
        "cancelled" => Some("subscription.cancelled"),
        _ => None,
    };
    if let Some(kind) = webhook {
        let data = serde_json::json!({
            "id": sub.id.to_hex(),
            "planId": sub.plan_id.to_hex(),
            "planName": sub.plan_name,
            "subscriberId": sub.subscriber_id.to_hex(),
            "authorId": sub.author_id.to_hex(),
            "price": sub.price,
            "currency": sub.currency,
        });
        crate::services::webhooks::emit(state, kind, Some(sub.author_id), data);
    }
    let reader = users::find_by_id(&state.db, sub.subscriber_id)
        .await?
        .map(|u| u.name)
        .unwrap_or_else(|| "A reader".into());
    let text = match event.kind {
        "subscribed" => format!("{reader} subscribed to your plan \"{}\"", sub.plan_name),
        "cancelled" => format!(
            "{reader} cancelled their subscription to \"{}\"",
            sub.plan_name
        ),
        "refunded" => format!(
            "{reader}'s subscription to \"{}\" was refunded",
            sub.plan_name
        ),
        _ => return Ok(()),
    };
    let mut input = NotificationInput::new(
        sub.author_id,
        Some(sub.subscriber_id),
        Kind::Subscription,
        &text,
    );
    input.navigate_to = Some(format!("/plans/{}", sub.author_id.to_hex()));
    if let Err(e) = notify(state, input).await {
        tracing::warn!(error = %e, "could not notify the author of a subscription event");
    }
    Ok(())
}
