//! Money: eligibility, plans, subscriptions and renewals, the Stripe adapter and its webhook, bank
//! details, earnings and payouts; who may call each money route, bad input, concurrency and the
//! integrity of counts that pay.

mod access;
mod concurrency;
mod eligibility;
mod input;
mod integrity;
mod lifecycle;
mod plans;
mod posts;
mod renewals;
mod stripe;
mod tips;
