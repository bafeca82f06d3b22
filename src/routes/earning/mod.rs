//! `/api/earning/*`: authors' earnings from the ledger (every author's for administrators, the
//! caller's own in `my-earnings`), and payouts. The sums and the views are `billing::earnings`.

pub mod earnings;
pub mod my_earnings;
pub mod payouts;
