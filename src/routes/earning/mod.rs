//! `/api/earning/admin/*`: authors' earnings from the ledger, and payouts.

pub mod earnings;
pub mod payouts;
