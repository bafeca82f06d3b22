//! The payment provider boundary. Everything that moves money (charges, refunds, payouts) and the
//! payout destinations go through [`PaymentProvider`]; two implementations are chosen by
//! configuration (`payments.provider`):
//!
//! - [`local::LocalProvider`]: test mode, the embedded default. Charges succeed at once (Stripe's
//!   test payment method names decide a decline), results are recorded per idempotency key in
//!   MongoDB so a replay answers the first result, and every money response says
//!   `"mode": "test"`. Nothing real is charged or paid.
//! - [`stripe::StripeProvider`]: the Stripe API over HTTPS (form-encoded requests with plain
//!   reqwest), an `Idempotency-Key` on every call that creates or moves money.
//!
//! Callers always pass an idempotency key derived from what the call is for (a subscription
//! period, a refund of one payment, a payout at one ledger position), so a retry after a crash or
//! a concurrent duplicate never moves money twice.

pub mod local;
pub mod metered;
pub mod signature;
pub mod stripe;

use std::sync::Arc;

use futures_util::future::BoxFuture;
use secrecy::ExposeSecret;
use serde::Serialize;

use crate::config::{PaymentProviderKind, PaymentSettings};
use crate::persistence::Db;

/// Whether money is real. Every response that involves money carries it as `mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Test,
    Live,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Test => "test",
            Mode::Live => "live",
        }
    }
}

/// A failure of the provider, classified for the client.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ProviderError {
    /// The payment method was refused (402).
    #[error("{0}")]
    Declined(String),
    /// The provider refused the request as invalid (400): details the reader or author can fix.
    #[error("{0}")]
    Invalid(String),
    /// The provider could not be reached or failed (503); the outcome is unknown, so the same
    /// call must be retried with the same idempotency key.
    #[error("payment provider unavailable: {0}")]
    Unavailable(String),
}

/// Who pays: the provider's customer for a user.
#[derive(Debug, Clone)]
pub struct CustomerRequest {
    pub user_id: String,
    pub email: String,
    pub name: String,
}

/// A charge of `amount` minor units.
#[derive(Debug, Clone)]
pub struct ChargeRequest {
    pub customer: String,
    pub amount: i64,
    pub currency: String,
    /// The payment method to charge (`pm_...`); `None` lets the reader confirm it in the browser.
    pub payment_method: Option<String>,
    /// A renewal, charged without the reader present.
    pub off_session: bool,
    pub description: String,
    pub metadata: Vec<(String, String)>,
    pub idempotency_key: String,
}

/// Where a charge stands.
#[derive(Debug, Clone, PartialEq)]
pub enum ChargeStatus {
    Succeeded,
    /// Waiting for the reader (confirmation, authentication) or the bank; a webhook settles it.
    Pending {
        client_secret: Option<String>,
    },
    Failed {
        reason: String,
    },
}

/// The provider's answer to a charge.
#[derive(Debug, Clone)]
pub struct Charge {
    /// The provider's id (`pi_...`, `local_pi_...`).
    pub id: String,
    pub status: ChargeStatus,
    /// The payment method used, kept for renewals.
    pub payment_method: Option<String>,
}

/// A refund of (part of) a charge.
#[derive(Debug, Clone)]
pub struct RefundRequest {
    pub charge_id: String,
    pub amount: i64,
    pub metadata: Vec<(String, String)>,
    pub idempotency_key: String,
}

pub use crate::domain::money::RefundStatus;

#[derive(Debug, Clone)]
pub struct Refund {
    pub id: String,
    pub status: RefundStatus,
}

/// A bank account to pay an author into.
#[derive(Debug, Clone)]
pub struct DestinationRequest {
    pub user_id: String,
    pub email: String,
    pub holder_name: String,
    pub account_number: String,
    pub bank_code: String,
    /// ISO country of the bank (IN for an IFSC code, US for a routing number).
    pub country: String,
    pub currency: String,
    pub idempotency_key: String,
}

/// A payout destination: `id` is the `paymentId` clients see.
#[derive(Debug, Clone)]
pub struct Destination {
    pub id: String,
}

/// A payout of `amount` minor units to a destination.
#[derive(Debug, Clone)]
pub struct PayoutRequest {
    pub destination: String,
    pub amount: i64,
    pub currency: String,
    pub metadata: Vec<(String, String)>,
    pub idempotency_key: String,
}

#[derive(Debug, Clone)]
pub struct Payout {
    pub id: String,
}

pub type ProviderResult<T> = Result<T, ProviderError>;

/// What the server needs from a payment provider.
pub trait PaymentProvider: Send + Sync {
    /// `local` or `stripe`.
    fn name(&self) -> &'static str;
    /// Test or live money.
    fn mode(&self) -> Mode;
    /// The provider's customer for a user (created once per user: the key is the user id).
    fn create_customer(&self, req: CustomerRequest) -> BoxFuture<'_, ProviderResult<String>>;
    /// Charges a customer.
    fn charge(&self, req: ChargeRequest) -> BoxFuture<'_, ProviderResult<Charge>>;
    /// Where an earlier charge stands now.
    fn retrieve_charge(&self, id: String) -> BoxFuture<'_, ProviderResult<Charge>>;
    /// Refunds a charge.
    fn refund(&self, req: RefundRequest) -> BoxFuture<'_, ProviderResult<Refund>>;
    /// Registers a bank account as a payout destination.
    fn create_destination(
        &self,
        req: DestinationRequest,
    ) -> BoxFuture<'_, ProviderResult<Destination>>;
    /// Replaces the bank account of a destination.
    fn update_destination(
        &self,
        id: String,
        req: DestinationRequest,
    ) -> BoxFuture<'_, ProviderResult<Destination>>;
    /// Removes a destination.
    fn delete_destination(&self, id: String) -> BoxFuture<'_, ProviderResult<()>>;
    /// Pays money out to a destination.
    fn payout(&self, req: PayoutRequest) -> BoxFuture<'_, ProviderResult<Payout>>;
}

/// The configured provider, shared by every handler and job.
pub type Provider = Arc<dyn PaymentProvider>;

/// Builds the provider named by the settings.
pub fn build(settings: &PaymentSettings, db: Db) -> anyhow::Result<Provider> {
    let provider: Provider = match settings.provider {
        PaymentProviderKind::Local => Arc::new(local::LocalProvider::new(db)),
        PaymentProviderKind::Stripe => Arc::new(stripe::StripeProvider::new(
            &settings.stripe_api_base,
            settings.stripe_secret_key.expose_secret(),
        )?),
    };
    Ok(Arc::new(metered::Metered(provider)))
}
