//! `/api/earning/*`: authors' earnings from the ledger (every author's for administrators, the
//! caller's own in `my-earnings`), and payouts.

pub mod earnings;
pub mod my_earnings;
pub mod payouts;

use serde::Serialize;

use crate::billing::ledger::Balance;

/// An author's earnings in one currency (minor units): sums of the ledger.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrencyEarnings {
    pub currency: String,
    /// What readers paid.
    pub gross: i64,
    /// The platform's share, net of refunded fees.
    pub fees: i64,
    /// What was refunded to readers.
    pub refunds: i64,
    /// What was paid out to the author.
    pub paid_out: i64,
    /// What is left to pay.
    pub available_balance: i64,
}

impl CurrencyEarnings {
    pub fn of(currency: &str, b: &Balance) -> Self {
        CurrencyEarnings {
            currency: currency.to_string(),
            gross: b.gross,
            fees: b.fees,
            refunds: b.refunds,
            paid_out: b.paid_out,
            available_balance: b.available,
        }
    }
}
