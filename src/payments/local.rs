//! The local payment provider: test mode, for development and the two-command run. Charges
//! succeed at once unless the payment method is one of Stripe's declining test methods
//! ([`DECLINING_METHODS`]); refunds and payouts succeed. Every answer is recorded under its
//! idempotency key (`local_payments`), so replays answer the first result and nothing is counted
//! twice. No money is real: the provider's mode is always `test`.

use futures_util::future::BoxFuture;
use mongodb::bson::{doc, Document};

use super::{
    Charge, ChargeRequest, ChargeStatus, CustomerRequest, Destination, DestinationRequest, Mode,
    PaymentProvider, Payout, PayoutRequest, ProviderError, ProviderResult, Refund, RefundRequest,
    RefundStatus,
};
use crate::persistence::local_payments::{self, LocalRecord};
use crate::persistence::{now, Db};

/// Stripe's test payment methods whose charges are declined; the local provider declines them
/// too, so failure paths (a declined subscription, a failed renewal) can be tried locally.
pub const DECLINING_METHODS: &[&str] = &[
    "pm_card_chargeDeclined",
    "pm_card_visa_chargeDeclined",
    "pm_card_chargeDeclinedInsufficientFunds",
    "pm_card_chargeCustomerFail",
];
/// What a declined local charge says.
pub const DECLINE_MESSAGE: &str = "Your card was declined.";
/// The payment method a local charge uses when none is given.
pub const DEFAULT_METHOD: &str = "pm_card_visa";

pub struct LocalProvider {
    db: Db,
}

impl LocalProvider {
    pub fn new(db: Db) -> Self {
        LocalProvider { db }
    }

    fn new_id(prefix: &str) -> String {
        format!("local_{prefix}_{}", uuid::Uuid::new_v4().simple())
    }

    async fn once(
        &self,
        key: &str,
        kind: &str,
        object_id: String,
        result: Document,
    ) -> ProviderResult<LocalRecord> {
        local_payments::record_once(
            &self.db,
            LocalRecord {
                key: key.to_string(),
                kind: kind.to_string(),
                object_id,
                result,
                created_at: now(),
            },
        )
        .await
        .map_err(|e| ProviderError::Unavailable(e.to_string()))
    }
}

fn charge_of(record: &LocalRecord) -> Charge {
    let r = &record.result;
    let status = match r.get_str("status").unwrap_or("failed") {
        "succeeded" => ChargeStatus::Succeeded,
        _ => ChargeStatus::Failed {
            reason: r.get_str("reason").unwrap_or(DECLINE_MESSAGE).to_string(),
        },
    };
    Charge {
        id: record.object_id.clone(),
        status,
        payment_method: r.get_str("paymentMethod").ok().map(str::to_string),
    }
}

impl PaymentProvider for LocalProvider {
    fn name(&self) -> &'static str {
        "local"
    }

    fn mode(&self) -> Mode {
        Mode::Test
    }

    fn create_customer(&self, req: CustomerRequest) -> BoxFuture<'_, ProviderResult<String>> {
        Box::pin(async move {
            let id = format!("local_cus_{}", req.user_id);
            let key = format!("customer:{}", req.user_id);
            let record = self
                .once(&key, "customer", id, doc! { "email": req.email })
                .await?;
            Ok(record.object_id)
        })
    }

    fn charge(&self, req: ChargeRequest) -> BoxFuture<'_, ProviderResult<Charge>> {
        Box::pin(async move {
            if req.amount <= 0 {
                return Err(ProviderError::Invalid("Amount must be positive".into()));
            }
            let method = req
                .payment_method
                .clone()
                .unwrap_or_else(|| DEFAULT_METHOD.to_string());
            let declined = DECLINING_METHODS.contains(&method.as_str());
            let result = if declined {
                doc! { "status": "failed", "reason": DECLINE_MESSAGE, "paymentMethod": &method,
                "amount": req.amount, "currency": &req.currency }
            } else {
                doc! { "status": "succeeded", "paymentMethod": &method,
                "amount": req.amount, "currency": &req.currency, "refunded": 0_i64 }
            };
            let record = self
                .once(&req.idempotency_key, "charge", Self::new_id("pi"), result)
                .await?;
            Ok(charge_of(&record))
        })
    }

    fn retrieve_charge(&self, id: String) -> BoxFuture<'_, ProviderResult<Charge>> {
        Box::pin(async move {
            let record = local_payments::find_object(&self.db, &id)
                .await
                .map_err(|e| ProviderError::Unavailable(e.to_string()))?
                .ok_or_else(|| ProviderError::Invalid(format!("No such payment: {id}")))?;
            Ok(charge_of(&record))
        })
    }

    fn refund(&self, req: RefundRequest) -> BoxFuture<'_, ProviderResult<Refund>> {
        Box::pin(async move {
            if let Some(done) = local_payments::find(&self.db, &req.idempotency_key)
                .await
                .map_err(|e| ProviderError::Unavailable(e.to_string()))?
            {
                return Ok(Refund {
                    id: done.object_id,
                    status: RefundStatus::Succeeded,
                });
            }
            let charge = local_payments::find_object(&self.db, &req.charge_id)
                .await
                .map_err(|e| ProviderError::Unavailable(e.to_string()))?
                .ok_or_else(|| {
                    ProviderError::Invalid(format!("No such payment: {}", req.charge_id))
                })?;
            let amount = charge.result.get_i64("amount").unwrap_or(0);
            let refunded = charge.result.get_i64("refunded").unwrap_or(0);
            if charge.result.get_str("status") != Ok("succeeded") {
                return Err(ProviderError::Invalid(
                    "This payment did not succeed".into(),
                ));
            }
            if req.amount <= 0 || refunded + req.amount > amount {
                return Err(ProviderError::Invalid(
                    "The refund is larger than what is left of the payment".into(),
                ));
            }
            let record = self
                .once(
                    &req.idempotency_key,
                    "refund",
                    Self::new_id("re"),
                    doc! { "charge": &req.charge_id, "amount": req.amount, "status": "succeeded" },
                )
                .await?;
            let mut result = charge.result.clone();
            result.insert("refunded", refunded + req.amount);
            local_payments::set_result(&self.db, &req.charge_id, result)
                .await
                .map_err(|e| ProviderError::Unavailable(e.to_string()))?;
            Ok(Refund {
                id: record.object_id,
                status: RefundStatus::Succeeded,
            })
        })
    }

    fn create_destination(
        &self,
        req: DestinationRequest,
    ) -> BoxFuture<'_, ProviderResult<Destination>> {
        Box::pin(async move {
            let record = self
                .once(
                    &req.idempotency_key,
                    "destination",
                    Self::new_id("ba"),
                    doc! { "userId": &req.user_id, "country": &req.country, "currency": &req.currency },
                )
                .await?;
            Ok(Destination {
                id: record.object_id,
            })
        })
    }

    fn update_destination(
        &self,
        id: String,
        req: DestinationRequest,
    ) -> BoxFuture<'_, ProviderResult<Destination>> {
        Box::pin(async move {
            self.once(
                &req.idempotency_key,
                "destination_update",
                Self::new_id("bau"),
                doc! { "destination": &id, "country": &req.country },
            )
            .await?;
            Ok(Destination { id })
        })
    }

    fn delete_destination(&self, _id: String) -> BoxFuture<'_, ProviderResult<()>> {
        Box::pin(async { Ok(()) })
    }

    fn payout(&self, req: PayoutRequest) -> BoxFuture<'_, ProviderResult<Payout>> {
        Box::pin(async move {
            if req.amount <= 0 {
                return Err(ProviderError::Invalid("Amount must be positive".into()));
            }
            let record = self
                .once(
                    &req.idempotency_key,
                    "payout",
                    Self::new_id("po"),
                    doc! { "destination": &req.destination, "amount": req.amount,
                    "currency": &req.currency },
                )
                .await?;
            Ok(Payout {
                id: record.object_id,
            })
        })
    }
}
