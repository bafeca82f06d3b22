//! `/api/payment/*`: bank details (payout destinations) and the provider's webhook.

pub mod bank_details;
pub mod webhook;
