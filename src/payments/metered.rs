//! The configured provider with every call counted (`pressroom_payment_provider_calls_total`
//! and `..._failures_total`, by operation).

use futures_util::future::BoxFuture;
use futures_util::FutureExt;

use super::{
    Charge, ChargeRequest, CustomerRequest, Destination, DestinationRequest, Mode, PaymentProvider,
    Payout, PayoutRequest, Provider, ProviderResult, Refund, RefundRequest,
};

/// Wraps a provider; answers exactly as it does.
pub struct Metered(pub Provider);

fn counted<'a, T: Send + 'a>(
    operation: &'static str,
    call: BoxFuture<'a, ProviderResult<T>>,
) -> BoxFuture<'a, ProviderResult<T>> {
    call.map(move |result| {
        crate::metrics::payment_call(operation, result.is_ok());
        result
    })
    .boxed()
}

impl PaymentProvider for Metered {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn mode(&self) -> Mode {
        self.0.mode()
    }

    fn create_customer(&self, req: CustomerRequest) -> BoxFuture<'_, ProviderResult<String>> {
        counted("create_customer", self.0.create_customer(req))
    }

    fn charge(&self, req: ChargeRequest) -> BoxFuture<'_, ProviderResult<Charge>> {
        counted("charge", self.0.charge(req))
    }

    fn retrieve_charge(&self, id: String) -> BoxFuture<'_, ProviderResult<Charge>> {
        counted("retrieve_charge", self.0.retrieve_charge(id))
    }

    fn refund(&self, req: RefundRequest) -> BoxFuture<'_, ProviderResult<Refund>> {
        counted("refund", self.0.refund(req))
    }

    fn create_destination(
        &self,
        req: DestinationRequest,
    ) -> BoxFuture<'_, ProviderResult<Destination>> {
        counted("create_destination", self.0.create_destination(req))
    }

    fn update_destination(
        &self,
        id: String,
        req: DestinationRequest,
    ) -> BoxFuture<'_, ProviderResult<Destination>> {
        counted("update_destination", self.0.update_destination(id, req))
    }

    fn delete_destination(&self, id: String) -> BoxFuture<'_, ProviderResult<()>> {
        counted("delete_destination", self.0.delete_destination(id))
    }

    fn payout(&self, req: PayoutRequest) -> BoxFuture<'_, ProviderResult<Payout>> {
        counted("payout", self.0.payout(req))
    }
}
