//! Locks, leases and claims: how the nodes of a cluster agree that one of them does a piece of
//! work. Two primitives, both keyed by `_id` (FerretDB answers only `_id` from an index, and an
//! `_id` insert is atomic on every MongoDB-compatible store, where partial unique indexes are
//! not; see docs/performance.md "What the worker does now"):
//!
//! - **A lease** ([`take`], [`take_with`], [`renew`], [`release`]): a document
//!   `{_id: key, owner, until}`. Taking it inserts the document; when one is there already, a
//!   conditional `updateOne` on `_id` takes it over only if it is *takeable* — by default
//!   when its `until` has passed (its holder died or stalled). The holder renews it (pushes
//!   `until` on) while it works, and a renewal that does not match `{_id, owner}` tells it that
//!   it lost the lease; releasing deletes `{_id, owner}`, so a holder never removes a lease
//!   another has since taken over.
//! - **A claim** ([`claim`], [`drop_claim`]): a document inserted once under a unique key
//!   (`_id`, or a unique index); the insert that loses the race is told so (`false`) instead of
//!   failing. A claim has no expiry of its own.
//!
//! Every lock, lease and claim in the product:
//!
//! | What | Collection / key | Kind, duration | When the holder dies |
//! |------|------------------|----------------|----------------------|
//! | Post lock: engagement writes and counter recounts of one post, one at a time on every node (`posts::with_post_lock`) | `post_locks`, `_id` = post id | lease on this module, 10 s (`LOCK_STALE_MS`); waiters poll up to 10 s, then write without it | the next writer takes it over once `until` has passed |
//! | Open report: one unreviewed report per reporter and post (`reports::create`) | `report_locks`, `_id` = `{reporterId}:{postId}` | claim on this module, until the report is reviewed (or the post deleted) | none needed: the claim stays with the report, which exists; a failed report insert drops it at once |
//! | A day's daily email run (`daily_mail::acquire`) | `job_leases`, `_id` = `daily-post-email:{date}` | lease on this module, 10 min without a heartbeat (`jobs::daily_mail::LEASE_STALE_MS`) | another node takes the run over after 10 min of silence; the per-recipient claims keep anyone from a second email |
//! | Billing runs and a day's renewal reminders (`jobs::billing`) | `job_leases`, `_id` = `billing-run` / `renewal-reminders:{date}` | the same lease, 5 min (`jobs::billing::LEASE_STALE_MS`) | taken over after 5 min; the work is idempotent |
//! | A recipient's daily email (`daily_mail::claim`) | `daily_mail_logs`, unique (`date`, `userId`) | claim on this module, for good (it is the log) | the claim stays `sending`; that recipient is not mailed again that day (no duplicate is worse than a missed digest) |
//! | A renewal reminder (`renewal_reminders::claim`) | `renewal_reminders`, `_id` = `{subscriptionId}:{periodEnd}` | claim on this module, for good | the reminder of that period is not sent again |
//! | The new-post announcement (`post_mail::take`/`start_chunk`, run by `jobs::announce`) | `post_announcements`, the announcement's `leaseOwner`/`leaseUntil` | lease, 30 s (`jobs::announce::LEASE_MS`), renewed as each chunk of emails starts | another worker takes it over when `leaseUntil` has passed and records the emails of the chunk left in flight (`inFlight`) that have no email log entry as interrupted |
//! | A post's email to one address (`post_mail::claim_emails`) | `post_deliveries`, unique (post, `email`, address) | claim, for good; the outcome is the email log entry under the claim's `_id` | see the announcement |
//! | A new post's notice to one reader (`jobs::announce`, `notifications::insert_new`) | `notifications`, `_id` made of the post's and the reader's ids | the notification is its own claim, for good | a batch gone through again stores only the notices missing |
//! | A subscription slot per reader and author (`subscription_claims::claim`) | `subscription_claims`, `_id` = `{reader}:{author}` | claim (its own insert), until the subscription ends | a claim whose subscription never came to exist is taken over after 2 min (`subscription_claims::STALE_CLAIM_SECONDS`) |
//! | A due account deletion (`account_deletions::claim_due`) | `account_deletions`, the record's `leaseUntil` | lease, 10 min (`jobs::account_deletion::LEASE_SECS`) | another node claims the deletion again after 10 min; each step of the removal is idempotent |
//! | A queued administrator task (`jobs::admin_tasks`) | `admin_jobs`, the job's `status: running` and `updatedAt`, taken with [`take_version`] | lease, `STALE_AFTER` without progress | a running task not updated for that long is claimed again by another worker |
//! | A tip's refund (`billing::tip_refunds`) | `tip_refund_claims`, `_id` = tip id | claim on this module, for good once refunded; dropped when the provider refuses or later fails the refund | a claim whose tip is still only paid is taken over after 2 min (`STALE_CLAIM_SECONDS`) |
//! | A post's one pending appeal (`post_appeals::claim_pending`) | `appeal_pending`, `_id` = post id | claim on this module, while the appeal waits; dropped when it is decided, when recording it fails, and with the post | none needed: the claim is taken and the appeal recorded in one request, and dropped again when recording fails |
//! | An appeal's one decision (`post_appeals::claim_decision`) | `appeal_decisions`, `_id` = appeal id | claim on this module, for good; dropped when the decision fails midway, removed with the post | none needed: the claim is taken and the decision recorded in one request, and dropped again when it fails |
//! | A post's one series (`series::claim_part`) | `series_part_claims`, `_id` = post id | claim on this module, while the post is a part; dropped when it leaves the series or the series goes, removed with the post | none needed: the claim is taken and the part added in one request, and dropped again when adding fails |
//! | A webhook delivery (`webhooks::take_due`, run by `jobs::webhooks`) | `webhook_deliveries`, the delivery's `status: sending` and `nextAttemptAt` | lease, 2 min (`jobs::webhooks::LEASE_MS`) | another worker takes it again once `nextAttemptAt` has passed; the receiver may get the message twice, with the same `webhook-id` (at least once, as the specification says) |
//! | A periodic job's turn (trending, scheduled posts, …: `jobs::take_turn`) | Redis `lease:{job}`, `SET NX PX` | nine tenths of the job's period | expires by itself; without Redis every node runs the (idempotent) job |
//! | A banner's expiry announcement (`live::banners`) | Redis `banner:expired:{id}`, `SET NX PX` | 24 h | the expiry is announced by the first node whose timer fires; the claim only stops the others repeating it |
//!
//! Why some are not on these primitives:
//! - The **announcement** and its deliveries keep their own fields (`leaseOwner`/`leaseUntil` on
//!   the announcement, which the worker finds by a query on `phase` and `leaseUntil`, not by
//!   key); its takeover is claimed with this module's takeover claim (`claim_takeover`), as
//!   [`take_with`]'s is, so one worker takes a given version of it.
//! - The **account deletion** and the **administrator task** are queues: the worker takes *any*
//!   due record matching a query (and, for tasks, the oldest), not a known key, so the lease is
//!   a field of the record itself.
//! - The **subscription slot** answers with the claim that holds it, and takes over orphans by
//!   age of a claim whose subscription is missing, which only the billing code can judge.
//! - A **job's turn** and a **banner's expiry** live in Redis: they must not cost a database
//!   round trip on every node and period, and are worth nothing once Redis is gone (each falls
//!   back to every node doing the idempotent work).
//! - The **daily-email and billing leases** are on [`take_with`], with their own takeable rule:
//!   their documents stay after the run as the record that the run is done (`finishedAt`, with
//!   its figures), so a finished run is not taken over when its `until` passes (only a run by
//!   hand takes it again), and an unfinished one is judged by its `heartbeatAt`.

use mongodb::bson::{doc, Bson, DateTime, Document};
use serde::Serialize;

use super::{is_duplicate_key, now, Db, DbContext, DbResult};

/// Who holds a lease.
pub const OWNER: &str = "owner";
/// Until when a lease holds (a date); past it, another owner may take it over.
pub const UNTIL: &str = "until";
/// One document per takeover of an expired lease in progress (`{collection}/{key}/{owner}/
/// {until}` of the version taken over), so that one taker takes it over (see [`take_with`]);
/// removed once the lease has moved on.
pub const TAKEOVERS: &str = "lease_takeovers";
/// A takeover claim older than this was left by a taker that died mid-way; it is cleared.
pub const TAKEOVER_STALE_MS: i64 = 60_000;

/// The end of a lease of `ttl_ms` taken now.
fn until(ttl_ms: i64) -> DateTime {
    DateTime::from_millis(now().timestamp_millis().saturating_add(ttl_ms))
}

/// Takes the lease `key` of `collection` for `owner` for `ttl_ms`: `true` when it is now
/// `owner`'s — it was free, or its holder let it expire.
pub async fn take(
    db: &Db,
    collection: &str,
    key: impl Into<Bson>,
    owner: &str,
    ttl_ms: i64,
) -> DbResult<bool> {
    // A lease document without `until` (a post lock stored before locks were leases) counts as
    // expired.
    let takeable = doc! { "$or": [ { UNTIL: { "$lt": now() } }, { UNTIL: { "$exists": false } } ] };
    take_with(db, collection, key, owner, ttl_ms, doc! {}, takeable).await
}

/// [`take`] with more `fields` stored on the lease and its own rule for when an existing lease
/// may be taken over: `takeable`, a filter the document must match besides its `_id`.
pub async fn take_with(
    db: &Db,
    collection: &str,
    key: impl Into<Bson>,
    owner: &str,
    ttl_ms: i64,
    fields: Document,
    takeable: Document,
) -> DbResult<bool> {
    let key = key.into();
    let coll = db.database().collection::<Document>(collection);
    let mut held = doc! { OWNER: owner, UNTIL: until(ttl_ms) };
    held.extend(fields);
    let mut fresh = doc! { "_id": key.clone() };
    fresh.extend(held.clone());
    match coll.insert_one(fresh).await {
        Ok(_) => return Ok(true),
        Err(e) if is_duplicate_key(&e) => {}
        Err(e) => return Err(e).db_context("taking a lease"),
    }
    // The lease is there: take it over if it is takeable. FerretDB applies a `findOneAndUpdate`
    // as a read and then a write, so two takers of one expired lease could both "win" it (the
    // test of this module saw it). The takeover of one version of the lease (its holder and
    // `until`) is therefore claimed first, by an `_id` insert into `TAKEOVERS`: of the takers of
    // that version exactly one goes on, and it sets the lease only if it is still that version.
    let mut filter = doc! { "_id": key.clone() };
    filter.extend(takeable);
    let Some(stale) = coll.find_one(filter).await.db_context("reading a lease")? else {
        return Ok(false);
    };
    let version = |field: &str| stale.get(field).cloned();
    let (old_owner, old_until) = (version(OWNER), version(UNTIL));
    let marker = format!(
        "{collection}/{key}/{}/{}",
        old_owner.as_ref().map_or("-".to_string(), Bson::to_string),
        old_until.as_ref().map_or("-".to_string(), Bson::to_string),
    );
    if !claim_takeover(db, &marker).await? {
        return Ok(false);
    }
    let mut same_version = doc! { "_id": key };
    for (field, value) in [(OWNER, old_owner), (UNTIL, old_until)] {
        match value {
            Some(v) => same_version.insert(field, v),
            None => same_version.insert(field, doc! { "$exists": false }),
        };
    }
    let res = coll
        .update_one(same_version, doc! { "$set": held })
        .await
        .db_context("taking over a lease");
    // The lease has moved on from that version (or this taker failed): a taker that claims it
    // now finds its conditional update matching nothing, so the claim is not needed any more.
    let _ = drop_claim(db, TAKEOVERS, marker).await;
    Ok(res?.matched_count == 1)
}

/// Takes one version of a queue's record for this worker: `version` names the record as it was
/// read (its `_id` and the fields that taking it changes), `set` is what taking it writes. One
/// taker of a given version succeeds (`true`); the others are told `false`. The version is
/// claimed first with the takeover claim, as [`take_with`] does, because a find-and-modify is
/// not one step on every store (FerretDB's SQLite handler reads, then writes), so two workers
/// could otherwise both take the same queued record.
pub async fn take_version(
    db: &Db,
    collection: &str,
    version: Document,
    set: Document,
) -> DbResult<bool> {
    let marker = format!("{collection}/{version}");
    if !claim_takeover(db, &marker).await? {
        return Ok(false);
    }
    let res = db
        .database()
        .collection::<Document>(collection)
        .update_one(version, doc! { "$set": set })
        .await
        .db_context("taking a queued record");
    // Once the record has moved on from that version, a later taker's conditional update
    // matches nothing, so the claim is not needed any more.
    let _ = drop_claim(db, TAKEOVERS, marker).await;
    Ok(res?.matched_count == 1)
}

/// Claims the takeover `marker`; one left by a taker that died between its claim and its update
/// (older than [`TAKEOVER_STALE_MS`]) is removed and claimed again, so no lease stays stuck.
pub(super) async fn claim_takeover(db: &Db, marker: &str) -> DbResult<bool> {
    if claim(db, TAKEOVERS, &doc! { "_id": marker, "at": now() }).await? {
        return Ok(true);
    }
    let stale = DateTime::from_millis(now().timestamp_millis() - TAKEOVER_STALE_MS);
    let cleared = db
        .database()
        .collection::<Document>(TAKEOVERS)
        .delete_one(doc! { "_id": marker, "at": { "$lt": stale } })
        .await
        .db_context("clearing an abandoned lease takeover")?;
    if cleared.deleted_count == 0 {
        return Ok(false);
    }
    claim(db, TAKEOVERS, &doc! { "_id": marker, "at": now() }).await
}

/// Pushes `owner`'s lease on to `ttl_ms` from now (setting `fields` as well); `false` when
/// `owner` no longer holds it (it expired and another took it over, or it was released).
pub async fn renew(
    db: &Db,
    collection: &str,
    key: impl Into<Bson>,
    owner: &str,
    ttl_ms: i64,
    fields: Document,
) -> DbResult<bool> {
    let mut set = doc! { UNTIL: until(ttl_ms) };
    set.extend(fields);
    let res = db
        .database()
        .collection::<Document>(collection)
        .update_one(
            doc! { "_id": key.into(), OWNER: owner },
            doc! { "$set": set },
        )
        .await
        .db_context("renewing a lease")?;
    Ok(res.matched_count == 1)
}

/// Gives `owner`'s lease up; `false` when `owner` did not hold it (any more).
pub async fn release(
    db: &Db,
    collection: &str,
    key: impl Into<Bson>,
    owner: &str,
) -> DbResult<bool> {
    let res = db
        .database()
        .collection::<Document>(collection)
        .delete_one(doc! { "_id": key.into(), OWNER: owner })
        .await
        .db_context("releasing a lease")?;
    Ok(res.deleted_count == 1)
}

/// Inserts `claim` into `collection`, whose `_id` or a unique index makes it the only one of its
/// kind: `true` when this insert made it, `false` when it was claimed before.
pub async fn claim<T: Serialize + Send + Sync>(
    db: &Db,
    collection: &str,
    claim: &T,
) -> DbResult<bool> {
    match db
        .database()
        .collection::<T>(collection)
        .insert_one(claim)
        .await
    {
        Ok(_) => Ok(true),
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("taking a claim"),
    }
}

/// Removes the claim `key` of `collection` (whoever made it), so it may be claimed again.
pub async fn drop_claim(db: &Db, collection: &str, key: impl Into<Bson>) -> DbResult<()> {
    db.database()
        .collection::<Document>(collection)
        .delete_one(doc! { "_id": key.into() })
        .await
        .db_context("dropping a claim")?;
    Ok(())
}
