//! What happens to money when an administrator deletes an account (called by
//! `accounts::remove_account` before the user document goes). The books stay: ledger entries,
//! payments, refunds, payouts and subscriptions keep their amounts and the account's id (no
//! personal fields are copied into them). What is live is settled:
//! - the account's own subscriptions end at once (no renewal will charge a deleted account);
//! - as an author, their plans are deleted, and every subscription still giving access to their
//!   (now removed) posts is refunded its latest charge (the refund window does not apply: the
//!   readers lose what they paid for), or ended when nothing is refundable;
//! - the messages of the tips they gave go (the tips stay);
//! - their bank details go, at the provider too. An unpaid balance stays in the books, visible to
//!   administrators, and cannot be paid out without bank details.

use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;

use super::lifecycle::{expire, refund};
use crate::error::ApiResult;
use crate::persistence::plans;
use crate::persistence::subscriptions::{self, SubStatus};
use crate::persistence::{bank_details, now};

pub use crate::persistence::bank_details::ContactData;
use crate::state::AppState;

/// Why subscriptions end with an account.
pub const REASON: &str = "account deleted";

/// Settles the money of the account `user` (removed by administrator `by`); returns how many
/// records it changed.
pub async fn settle_removed_account(
    state: &AppState,
    user: ObjectId,
    by: ObjectId,
) -> ApiResult<u64> {
    let db = &state.db;
    let mut changed = 0;
    let live = doc! { "status": { "$in": ["incomplete", "active", "past_due", "cancelled"] } };

    // Tips stay in the books; the reader's public words and name on supporters lists go.
    changed += crate::persistence::tips::clear_messages_of(db, user).await?;

    let mut own = live.clone();
    own.insert("subscriberId", user);
    for sub in subscriptions::find(db, own).await? {
        expire(state, &sub, REASON).await?;
        changed += 1;
    }

    for plan in plans::by_author(db, user, false).await? {
        plans::mark_deleted(db, plan.id).await?;
        changed += 1;
    }
    let mut theirs = live;
    theirs.insert("authorId", user);
    for sub in subscriptions::find(db, theirs).await? {
        let refundable = matches!(
            sub.status,
            SubStatus::Active | SubStatus::Cancelled | SubStatus::PastDue
        ) && sub.gives_access(now());
        let refunded = refundable && refund(state, &sub, by, REASON, false).await.is_ok();
        if !refunded {
            expire(state, &sub, REASON).await?;
        }
        changed += 1;
    }

    if let Some(details) = bank_details::find_by_user(db, user).await? {
        if let Err(e) = state
            .payments
            .delete_destination(details.payment_id.clone())
            .await
        {
            tracing::warn!(error = %e, "could not remove a deleted account's payout destination");
        }
        bank_details::delete(db, details.id).await?;
        changed += 1;
    }
    Ok(changed)
}
