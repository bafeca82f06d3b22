//! Writing to and reading from the earnings ledger: appends go at the end of the author's chain
//! (retrying when another writer took the position), balances are sums of entries.

use std::collections::BTreeMap;
use std::time::Duration;

use mongodb::bson::oid::ObjectId;
use rand::Rng;

use crate::error::{ApiError, ApiResult};
use crate::persistence::ledger::{self, AppendRefused, Entry, EntryKind};
use crate::persistence::{now, Db};

/// How often an append retries after losing its position to another writer.
pub const MAX_APPEND_TRIES: u32 = 200;

/// An entry to append (its position is found here).
#[derive(Debug, Clone)]
pub struct NewEntry {
    pub author_id: ObjectId,
    pub kind: EntryKind,
    pub source: String,
    pub currency: String,
    pub gross: i64,
    pub fee: i64,
    pub amount: i64,
    pub plan_id: Option<ObjectId>,
    pub subscription_id: Option<ObjectId>,
    pub post_id: Option<ObjectId>,
    pub tip_id: Option<ObjectId>,
}

impl NewEntry {
    fn at(&self, seq: i64) -> Entry {
        Entry {
            id: ObjectId::new(),
            author_id: self.author_id,
            seq,
            kind: self.kind,
            source: self.source.clone(),
            currency: self.currency.clone(),
            gross: self.gross,
            fee: self.fee,
            amount: self.amount,
            plan_id: self.plan_id,
            subscription_id: self.subscription_id,
            post_id: self.post_id,
            tip_id: self.tip_id,
            created_at: now(),
        }
    }
}

/// A short random pause before trying again, growing with the attempts.
pub async fn back_off(attempt: u32) {
    let ms = rand::thread_rng().gen_range(1..=(5 + u64::from(attempt.min(20)) * 5));
    tokio::time::sleep(Duration::from_millis(ms)).await;
}

/// Appends `new` at the end of its author's chain; a source already written answers its
/// existing entry.
pub async fn append(db: &Db, new: NewEntry) -> ApiResult<Entry> {
    for attempt in 0..MAX_APPEND_TRIES {
        let seq = ledger::last_seq(db, new.author_id).await? + 1;
        let entry = new.at(seq);
        match ledger::append_at(db, &entry).await? {
            Ok(()) => return Ok(entry),
            Err(AppendRefused::AlreadyRecorded(existing)) => return Ok(*existing),
            Err(AppendRefused::PositionTaken) => back_off(attempt).await,
        }
    }
    Err(ledger::unexpected("too many concurrent writers").into())
}

/// Appends `new` exactly at `seq` (the position after what the caller read); `None` when that
/// position was taken meanwhile.
pub async fn append_exactly(db: &Db, new: &NewEntry, seq: i64) -> ApiResult<Option<Entry>> {
    let entry = new.at(seq);
    match ledger::append_at(db, &entry).await? {
        Ok(()) => Ok(Some(entry)),
        Err(AppendRefused::PositionTaken) => Ok(None),
        Err(AppendRefused::AlreadyRecorded(_)) => Err(ApiError::internal(anyhow::anyhow!(
            "a new ledger source was already recorded"
        ))),
    }
}

/// An author's earnings in one currency.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Balance {
    /// What readers paid.
    pub gross: i64,
    /// The platform's share, net of refunded fees.
    pub fees: i64,
    /// What was refunded to readers.
    pub refunds: i64,
    /// What was paid out to the author.
    pub paid_out: i64,
    /// What is left to pay: gross - fees - refunds - paid out.
    pub available: i64,
}

/// Balances per (author, currency) of `entries`, and each author's last position.
pub fn balances(entries: &[Entry]) -> BTreeMap<(ObjectId, String), Balance> {
    let mut out: BTreeMap<(ObjectId, String), Balance> = BTreeMap::new();
    for e in entries {
        let b = out.entry((e.author_id, e.currency.clone())).or_default();
        match e.kind {
            EntryKind::Charge => b.gross += e.gross,
            EntryKind::Refund | EntryKind::RefundReversal => b.refunds -= e.gross,
            EntryKind::Payout | EntryKind::PayoutReversal => b.paid_out -= e.amount,
        }
        b.fees += e.fee;
        b.available += e.amount;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kind: EntryKind, gross: i64, fee: i64, amount: i64) -> Entry {
        Entry {
            id: ObjectId::new(),
            author_id: ObjectId::from_bytes([1; 12]),
            seq: 1,
            kind,
            source: String::new(),
            currency: "usd".into(),
            gross,
            fee,
            amount,
            plan_id: None,
            subscription_id: None,
            post_id: None,
            tip_id: None,
            created_at: now(),
        }
    }

    #[test]
    fn balances_are_sums_of_the_entries() {
        let entries = vec![
            entry(EntryKind::Charge, 1000, 100, 900),
            entry(EntryKind::Charge, 1000, 100, 900),
            entry(EntryKind::Refund, -1000, -100, -900),
            entry(EntryKind::Payout, 0, 0, -500),
            entry(EntryKind::Payout, 0, 0, -400),
            entry(EntryKind::PayoutReversal, 0, 0, 400),
        ];
        let b = balances(&entries).into_values().next().unwrap();
        assert_eq!(
            b,
            Balance {
                gross: 2000,
                fees: 100,
                refunds: 1000,
                paid_out: 500,
                available: 400
            }
        );
        assert_eq!(b.available, b.gross - b.fees - b.refunds - b.paid_out);
    }
}
