//! What tells readers of a new post, in four collections:
//!
//! - `post_announcements`: one document per post (`_id` is the post's id), created the first time
//!   the post becomes visible to its audience. Inserting it is the only thing the publish request
//!   does; the job worker ([`crate::jobs::announce`]) then takes its lease and works through the
//!   followers and the newsletter subscribers in batches, keeping a cursor so a run taken over
//!   after a crash goes on where the last one stopped. Its counters are the post's delivery
//!   figures. Because the `_id` is the post's, publishing again or editing creates nothing.
//! - `post_deliveries`: one claim per (post, channel, recipient) under a unique index, taken
//!   before a notice is stored or an email goes out, so nobody hears of a post twice whatever
//!   runs twice (two nodes, a crash, a retry). An email's recipient is its lower-cased address, so
//!   a follower who also subscribed by email gets one email. An email claim keeps who it is for
//!   and the worker that took it (`owner`); one left `sending` by a worker that stopped is
//!   settled `failed` (`interrupted`) by the next, with a failed email log entry under the
//!   claim's `_id`, so the administrators' retry can send it.
//! - `email_suppressions`: addresses that refused mail permanently (SMTP 5xx) or complained;
//!   new-post emails skip them.
//! - `newsletter_subscribers`: email-only subscribers of an author, pending until they confirm.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbResult};

pub const ANNOUNCEMENTS: &str = "post_announcements";
pub const DELIVERIES: &str = "post_deliveries";
pub const SUPPRESSIONS: &str = "email_suppressions";
pub const NEWSLETTER: &str = "newsletter_subscribers";

/// Where an announcement is: `followers` (going through the author's followers), `subscribers`
/// (through the newsletter subscribers), `done`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Followers,
    Subscribers,
    Done,
}

/// A post's announcement to its readers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Announcement {
    /// The post.
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub author: ObjectId,
    /// Whether the author chose to email followers and subscribers.
    pub send_email: bool,
    pub phase: Phase,
    /// The last follower (or subscriber, in that phase) whose batch was finished.
    #[serde(default)]
    pub cursor: Option<ObjectId>,
    #[serde(default)]
    pub lease_owner: Option<String>,
    #[serde(default)]
    pub lease_until: Option<DateTime>,
    #[serde(default)]
    pub notices: i64,
    #[serde(default)]
    pub emails_sent: i64,
    #[serde(default)]
    pub emails_failed: i64,
    pub created_at: DateTime,
    #[serde(default)]
    pub finished_at: Option<DateTime>,
}

fn announcements(db: &Db) -> Collection<Announcement> {
    db.database().collection(ANNOUNCEMENTS)
}

fn deliveries(db: &Db) -> Collection<Document> {
    db.database().collection(DELIVERIES)
}

fn suppressions(db: &Db) -> Collection<Document> {
    db.database().collection(SUPPRESSIONS)
}

fn newsletter(db: &Db) -> Collection<NewsletterSubscriber> {
    db.database().collection(NEWSLETTER)
}

pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &announcements(db),
        [index(doc! { "phase": 1, "leaseUntil": 1 }, "phase_lease")],
        "creating announcement indexes",
    )
    .await?;
    super::create_indexes(
        &deliveries(db),
        [
            unique_index(
                doc! { "postId": 1, "channel": 1, "to": 1 },
                "post_channel_to_unique",
            ),
            index(doc! { "to": 1, "channel": 1 }, "to_channel"),
        ],
        "creating delivery indexes",
    )
    .await?;
    super::create_indexes(
        &newsletter(db),
        [
            unique_index(doc! { "authorId": 1, "email": 1 }, "author_email_unique"),
            index(doc! { "tokenHash": 1 }, "token_hash"),
        ],
        "creating newsletter indexes",
    )
    .await?;
    Ok(())
}

/// Creates a post's announcement; `false` when it was announced before (republished, edited).
pub async fn announce(
    db: &Db,
    post: ObjectId,
    author: ObjectId,
    send_email: bool,
) -> DbResult<bool> {
    let a = Announcement {
        id: post,
        author,
        send_email,
        phase: Phase::Followers,
        cursor: None,
        lease_owner: None,
        lease_until: None,
        notices: 0,
        emails_sent: 0,
        emails_failed: 0,
        created_at: now(),
        finished_at: None,
    };
    match announcements(db).insert_one(&a).await {
        Ok(_) => Ok(true),
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("announcing a post"),
    }
}

/// A post's announcement, when it has one.
pub async fn find(db: &Db, post: ObjectId) -> DbResult<Option<Announcement>> {
    announcements(db)
        .find_one(doc! { "_id": post })
        .await
        .db_context("reading an announcement")
}

/// Takes the lease of an unfinished announcement nobody holds (or whose holder went silent):
/// the oldest first. Returns it as it was before: a `leaseOwner` there names the worker whose
/// lease expired (it is taken over).
pub async fn take(db: &Db, owner: &str, lease_ms: i64) -> DbResult<Option<Announcement>> {
    let at = now();
    let until = DateTime::from_millis(at.timestamp_millis() + lease_ms);
    announcements(db)
        .find_one_and_update(
            doc! {
                "phase": { "$ne": "done" },
                "$or": [ { "leaseUntil": null }, { "leaseUntil": { "$lt": at } } ],
            },
            doc! { "$set": { "leaseOwner": owner, "leaseUntil": until } },
        )
        .sort(doc! { "createdAt": 1 })
        .return_document(ReturnDocument::Before)
        .await
        .db_context("taking an announcement")
}

/// Sets a post's figures from its claims (emails `sent`; `failed` or `suppressed`; notices
/// `sent`), after a worker that stopped may have settled a chunk without counting it.
pub async fn recount(db: &Db, post: ObjectId) -> DbResult<Option<Announcement>> {
    let count = |channel: &'static str, statuses: Vec<&'static str>| async move {
        let n = deliveries(db)
            .count_documents(doc! {
                "postId": post,
                "channel": channel,
                "status": { "$in": statuses },
            })
            .await
            .db_context("counting deliveries")?;
        DbResult::Ok(i64::try_from(n).unwrap_or(i64::MAX))
    };
    let notices = count("notice", vec!["sent"]).await?;
    let sent = count("email", vec!["sent"]).await?;
    let failed = count("email", vec!["failed", "suppressed"]).await?;
    announcements(db)
        .find_one_and_update(
            doc! { "_id": post },
            doc! { "$set": { "notices": notices, "emailsSent": sent, "emailsFailed": failed } },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("counting deliveries")
}

/// Records a finished batch: the new phase and cursor, the counts to add, a renewed lease.
/// `false` when the lease was taken over (the caller stops).
#[allow(clippy::too_many_arguments)]
pub async fn advance(
    db: &Db,
    post: ObjectId,
    owner: &str,
    lease_ms: i64,
    phase: Phase,
    cursor: Option<ObjectId>,
) -> DbResult<bool> {
    let at = now();
    let mut set = doc! {
        "phase": mongodb::bson::to_bson(&phase).unwrap_or_default(),
        "cursor": cursor,
        "leaseUntil": DateTime::from_millis(at.timestamp_millis() + lease_ms),
    };
    if phase == Phase::Done {
        set.insert("finishedAt", at);
        set.insert("leaseOwner", mongodb::bson::Bson::Null);
        set.insert("leaseUntil", mongodb::bson::Bson::Null);
    }
    let r = announcements(db)
        .update_one(
            doc! { "_id": post, "leaseOwner": owner },
            doc! { "$set": set },
        )
        .await
        .db_context("advancing an announcement")?;
    Ok(r.matched_count == 1)
}

/// Adds to an announcement's counters; returns them after.
pub async fn count(
    db: &Db,
    post: ObjectId,
    notices: i64,
    sent: i64,
    failed: i64,
) -> DbResult<Option<Announcement>> {
    announcements(db)
        .find_one_and_update(
            doc! { "_id": post },
            doc! { "$inc": { "notices": notices, "emailsSent": sent, "emailsFailed": failed } },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("counting deliveries")
}

/// The channel of a delivery claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Notice,
    Email,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Notice => "notice",
            Channel::Email => "email",
        }
    }
}

/// Claims the delivery of `post` to `to` (a user id for a notice, a lower-cased address for an
/// email); `false` when it was claimed before.
pub async fn claim(db: &Db, post: ObjectId, channel: Channel, to: &str) -> DbResult<bool> {
    match deliveries(db)
        .insert_one(doc! {
            "postId": post,
            "channel": channel.as_str(),
            "to": to,
            "status": "sending",
            "createdAt": now(),
        })
        .await
    {
        Ok(_) => Ok(true),
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("claiming a delivery"),
    }
}

/// Records how a claimed delivery went (`sent`, `failed`, `suppressed`).
pub async fn settle(
    db: &Db,
    post: ObjectId,
    channel: Channel,
    to: &str,
    status: &str,
    email_log: Option<ObjectId>,
) -> DbResult<()> {
    deliveries(db)
        .update_one(
            doc! { "postId": post, "channel": channel.as_str(), "to": to },
            doc! { "$set": { "status": status, "emailLogId": email_log, "settledAt": now() } },
        )
        .await
        .db_context("settling a delivery")?;
    Ok(())
}

/// Of `posts`, those emailed (or being emailed) to `address` already.
pub async fn emailed_among(db: &Db, address: &str, posts: &[ObjectId]) -> DbResult<Vec<ObjectId>> {
    if posts.is_empty() {
        return Ok(Vec::new());
    }
    let docs: Vec<Document> = deliveries(db)
        .find(doc! {
            "to": address.trim().to_lowercase(),
            "channel": "email",
            "postId": { "$in": posts },
        })
        .projection(doc! { "postId": 1 })
        .await
        .db_context("reading deliveries")?
        .try_collect()
        .await
        .db_context("reading deliveries")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("postId").ok())
        .collect())
}

/// Suppresses an address for `reason` (`hard_bounce`, `complaint`).
pub async fn suppress(db: &Db, address: &str, reason: &str, detail: Option<&str>) -> DbResult<()> {
    let address = address.trim().to_lowercase();
    deliveries_touch_suppression(db, &address, reason, detail).await
}

async fn deliveries_touch_suppression(
    db: &Db,
    address: &str,
    reason: &str,
    detail: Option<&str>,
) -> DbResult<()> {
    suppressions(db)
        .update_one(
            doc! { "_id": address },
            doc! {
                "$set": { "reason": reason, "detail": detail, "updatedAt": now() },
                "$setOnInsert": { "createdAt": now() },
            },
        )
        .upsert(true)
        .await
        .db_context("suppressing an address")?;
    Ok(())
}

/// Whether an address is suppressed.
pub async fn is_suppressed(db: &Db, address: &str) -> DbResult<bool> {
    Ok(suppressions(db)
        .find_one(doc! { "_id": address.trim().to_lowercase() })
        .await
        .db_context("reading a suppression")?
        .is_some())
}

/// A suppressed address as administrators see it.
#[derive(Debug, Clone)]
pub struct Suppression {
    pub email: String,
    pub reason: String,
    pub detail: Option<String>,
    pub created_at: DateTime,
}

/// One page of suppressed addresses, newest first, and their total.
pub async fn suppressions_page(
    db: &Db,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<Suppression>, u64)> {
    let total = suppressions(db)
        .count_documents(doc! {})
        .await
        .db_context("counting suppressions")?;
    let docs: Vec<Document> = suppressions(db)
        .find(doc! {})
        .sort(doc! { "createdAt": -1, "_id": 1 })
        .skip(skip)
        .limit(limit)
        .await
        .db_context("listing suppressions")?
        .try_collect()
        .await
        .db_context("reading suppressions")?;
    let list = docs
        .iter()
        .map(|d| Suppression {
            email: d.get_str("_id").unwrap_or_default().to_string(),
            reason: d.get_str("reason").unwrap_or_default().to_string(),
            detail: d.get_str("detail").ok().map(str::to_string),
            created_at: d.get_datetime("createdAt").copied().unwrap_or(now()),
        })
        .collect();
    Ok((list, total))
}

/// An email-only subscriber of an author.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewsletterSubscriber {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub author_id: ObjectId,
    /// Lower-cased.
    pub email: String,
    /// `pending` until the address is confirmed, then `confirmed`; `unsubscribed` after.
    pub status: String,
    /// SHA-256 of the confirmation token in the link (the token itself is never stored).
    #[serde(default)]
    pub token_hash: Option<String>,
    #[serde(default)]
    pub token_expires_at: Option<DateTime>,
    pub created_at: DateTime,
    #[serde(default)]
    pub confirmed_at: Option<DateTime>,
}

/// Reads an author's subscriber by address.
pub async fn subscriber(
    db: &Db,
    author: ObjectId,
    email: &str,
) -> DbResult<Option<NewsletterSubscriber>> {
    newsletter(db)
        .find_one(doc! { "authorId": author, "email": email })
        .await
        .db_context("reading a newsletter subscriber")
}

/// Stores a pending subscription's new token (creating the subscriber when new). A confirmed
/// subscriber is left alone (`false`).
pub async fn start_pending(
    db: &Db,
    author: ObjectId,
    email: &str,
    token_hash: &str,
    expires: DateTime,
) -> DbResult<bool> {
    let r = newsletter(db)
        .update_one(
            doc! { "authorId": author, "email": email, "status": { "$ne": "confirmed" } },
            doc! {
                "$set": { "status": "pending", "tokenHash": token_hash, "tokenExpiresAt": expires },
                "$setOnInsert": { "_id": ObjectId::new(), "createdAt": now() },
            },
        )
        .upsert(true)
        .await;
    match r {
        Ok(_) => Ok(true),
        // The address is confirmed already: the upsert's insert met the unique index.
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("storing a newsletter subscriber"),
    }
}

/// The outcome of a confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    Confirmed(ObjectId),
    Expired,
    Unknown,
}

/// Confirms the pending subscriber whose token hashes to `token_hash`; the token is used up.
pub async fn confirm(db: &Db, token_hash: &str) -> DbResult<Confirmation> {
    let at = now();
    let found = newsletter(db)
        .find_one_and_update(
            doc! { "tokenHash": token_hash, "status": "pending" },
            doc! {
                "$set": { "tokenHash": mongodb::bson::Bson::Null },
            },
        )
        .await
        .db_context("confirming a newsletter subscriber")?;
    let Some(sub) = found else {
        return Ok(Confirmation::Unknown);
    };
    if sub.token_expires_at.is_none_or(|e| e < at) {
        return Ok(Confirmation::Expired);
    }
    newsletter(db)
        .update_one(
            doc! { "_id": sub.id },
            doc! { "$set": { "status": "confirmed", "confirmedAt": at } },
        )
        .await
        .db_context("confirming a newsletter subscriber")?;
    Ok(Confirmation::Confirmed(sub.author_id))
}

/// Ends a subscriber's subscription.
pub async fn unsubscribe_subscriber(db: &Db, id: ObjectId) -> DbResult<bool> {
    let r = newsletter(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": { "status": "unsubscribed", "tokenHash": mongodb::bson::Bson::Null } },
        )
        .await
        .db_context("unsubscribing")?;
    Ok(r.matched_count == 1)
}

/// The next batch of an author's confirmed subscribers after `after`, by id.
pub async fn confirmed_after(
    db: &Db,
    author: ObjectId,
    after: Option<ObjectId>,
    limit: i64,
) -> DbResult<Vec<NewsletterSubscriber>> {
    let mut filter = doc! { "authorId": author, "status": "confirmed" };
    if let Some(a) = after {
        filter.insert("_id", doc! { "$gt": a });
    }
    newsletter(db)
        .find(filter)
        .sort(doc! { "_id": 1 })
        .limit(limit)
        .await
        .db_context("listing newsletter subscribers")?
        .try_collect()
        .await
        .db_context("reading newsletter subscribers")
}

/// Moves a pending subscriber's token expiry (tests and operators).
pub async fn set_token_expiry(
    db: &Db,
    author: ObjectId,
    email: &str,
    at: DateTime,
) -> DbResult<()> {
    newsletter(db)
        .update_one(
            doc! { "authorId": author, "email": email },
            doc! { "$set": { "tokenExpiresAt": at } },
        )
        .await
        .db_context("moving a token's expiry")?;
    Ok(())
}

/// Claims the deliveries of `post` to each of `tos` at once; returns those this call claimed
/// (the others were claimed before).
pub async fn claim_many(
    db: &Db,
    post: ObjectId,
    channel: Channel,
    tos: &[String],
) -> DbResult<std::collections::HashSet<String>> {
    let claims: Vec<(String, Document)> = tos.iter().map(|t| (t.clone(), doc! {})).collect();
    claim_many_with(db, post, channel, &claims).await
}

/// [`claim_many`] with more fields stored on each claim (who an email is for, which worker
/// claimed it), so an email whose claim is left unsettled can be recorded for a retry.
pub async fn claim_many_with(
    db: &Db,
    post: ObjectId,
    channel: Channel,
    claims: &[(String, Document)],
) -> DbResult<std::collections::HashSet<String>> {
    use mongodb::error::ErrorKind;
    if claims.is_empty() {
        return Ok(Default::default());
    }
    let at = now();
    let tos: Vec<String> = claims.iter().map(|(to, _)| to.clone()).collect();
    let docs: Vec<Document> = claims
        .iter()
        .map(|(to, extra)| {
            let mut d = doc! {
                "postId": post,
                "channel": channel.as_str(),
                "to": to,
                "status": "sending",
                "createdAt": at,
            };
            d.extend(extra.clone());
            d
        })
        .collect();
    let mut claimed: std::collections::HashSet<String> = tos.iter().cloned().collect();
    match deliveries(db).insert_many(docs).ordered(false).await {
        Ok(_) => {}
        Err(e) => {
            let ErrorKind::InsertMany(ref failure) = *e.kind else {
                return Err(e).db_context("claiming deliveries");
            };
            if failure.write_concern_error.is_some() {
                return Err(e).db_context("claiming deliveries");
            }
            for w in failure.write_errors.iter().flatten() {
                if w.code != 11000 {
                    return Err(e.clone()).db_context("claiming deliveries");
                }
                if let Some(to) = tos.get(w.index) {
                    claimed.remove(to);
                }
            }
        }
    }
    Ok(claimed)
}

/// Runs `statements` (filter, update) on `collection` one `updateOne` at a time, each filter a
/// lookup by `_id`, the one FerretDB's SQLite backend answers from an index: it reads the whole
/// collection for `$in` and for equality on other fields, and one `update` command carrying
/// many statements can stall it. Returns how many documents were modified.
pub async fn update_each(
    db: &Db,
    collection: &str,
    statements: Vec<(Document, Document)>,
) -> DbResult<u64> {
    let coll: Collection<Document> = db.database().collection(collection);
    let mut modified = 0;
    for (q, u) in statements {
        modified += coll
            .update_one(q, u)
            .await
            .db_context("updating a document by id")?
            .modified_count;
    }
    Ok(modified)
}

/// Records how the claims `ids` went, all with one status (one update per claim, by `_id`).
/// Only claims still `sending` are settled. Returns how many were settled.
pub async fn settle_many(db: &Db, ids: &[ObjectId], status: &str) -> DbResult<u64> {
    let at = now();
    let statements = ids
        .iter()
        .map(|id| {
            (
                doc! { "_id": id, "status": "sending" },
                doc! { "$set": { "status": status, "settledAt": at } },
            )
        })
        .collect();
    update_each(db, DELIVERIES, statements).await
}

/// Lookups by `_id` in flight at once (see [`update_each`] for why not `$in`).
const LOOKUPS: usize = 8;

/// The documents of `collection` under each of `ids`, looked up one by one by `_id` (an index
/// lookup), [`LOOKUPS`] at a time.
pub async fn find_each<T, I>(db: &Db, collection: &str, ids: I) -> DbResult<Vec<T>>
where
    T: serde::de::DeserializeOwned + Send + Sync + Unpin,
    I: IntoIterator,
    I::Item: Into<mongodb::bson::Bson>,
{
    use futures_util::StreamExt;
    let coll: Collection<T> = db.database().collection(collection);
    let found: Vec<Option<T>> = futures_util::stream::iter(ids.into_iter().map(Into::into))
        .map(|id| {
            let coll = coll.clone();
            async move {
                coll.find_one(doc! { "_id": id })
                    .await
                    .db_context("reading a document by id")
            }
        })
        .buffer_unordered(LOOKUPS)
        .try_collect()
        .await?;
    Ok(found.into_iter().flatten().collect())
}

/// Of `addresses` (lower-cased), the suppressed ones (each looked up by `_id`).
pub async fn suppressed_among(
    db: &Db,
    addresses: &[String],
) -> DbResult<std::collections::HashSet<String>> {
    let docs: Vec<Document> = find_each(db, SUPPRESSIONS, addresses.iter().cloned()).await?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_str("_id").ok().map(str::to_string))
        .collect())
}

/// The email claims of `post` still `sending` that were taken before `before` by a worker other
/// than `owner`: emails of a worker that stopped (its lease expired) while sending them.
pub async fn unsettled_emails(
    db: &Db,
    post: ObjectId,
    owner: &str,
    before: DateTime,
) -> DbResult<Vec<Document>> {
    deliveries(db)
        .find(doc! {
            "postId": post,
            "channel": "email",
            "status": "sending",
            "createdAt": { "$lt": before },
            "owner": { "$ne": owner },
        })
        .sort(doc! { "_id": 1 })
        .await
        .db_context("reading unsettled deliveries")?
        .try_collect()
        .await
        .db_context("reading unsettled deliveries")
}

/// Stores the email log entries of interrupted emails, each under its claim's id, so storing
/// them again (a second takeover) adds nothing.
pub async fn record_interrupted_logs(
    db: &Db,
    logs: &[super::email_logs::EmailLog],
) -> DbResult<()> {
    use mongodb::error::ErrorKind;
    if logs.is_empty() {
        return Ok(());
    }
    let r = db
        .database()
        .collection::<super::email_logs::EmailLog>(super::email_logs::COLLECTION)
        .insert_many(logs)
        .ordered(false)
        .await;
    match r {
        Ok(_) => Ok(()),
        Err(e) => {
            let ErrorKind::InsertMany(ref failure) = *e.kind else {
                return Err(e).db_context("recording interrupted emails");
            };
            let only_duplicates = failure.write_concern_error.is_none()
                && failure
                    .write_errors
                    .iter()
                    .flatten()
                    .all(|w| w.code == 11000);
            if only_duplicates {
                Ok(())
            } else {
                Err(e).db_context("recording interrupted emails")
            }
        }
    }
}

/// Settles the claims `ids` still `sending` with `status` (`interrupted`: the worker stopped
/// while sending them); returns how many this call settled.
pub async fn settle_claims(
    db: &Db,
    ids: &[ObjectId],
    status: &str,
    interrupted: bool,
) -> DbResult<u64> {
    let at = now();
    let statements = ids
        .iter()
        .map(|id| {
            (
                doc! { "_id": id, "status": "sending" },
                doc! { "$set": { "status": status, "interrupted": interrupted, "settledAt": at } },
            )
        })
        .collect();
    update_each(db, DELIVERIES, statements).await
}

/// The email log entries stored under `ids` (claims' ids), by id.
pub async fn logged_outcomes(
    db: &Db,
    ids: &[ObjectId],
) -> DbResult<std::collections::HashMap<ObjectId, super::email_logs::EmailLog>> {
    let logs: Vec<super::email_logs::EmailLog> =
        find_each(db, super::email_logs::COLLECTION, ids.iter().copied()).await?;
    Ok(logs.into_iter().map(|l| (l.id, l)).collect())
}

/// Renews the lease of `owner` on an announcement; `false` when it was taken over.
pub async fn renew(db: &Db, post: ObjectId, owner: &str, lease_ms: i64) -> DbResult<bool> {
    let until = DateTime::from_millis(now().timestamp_millis() + lease_ms);
    let r = announcements(db)
        .update_one(
            doc! { "_id": post, "leaseOwner": owner },
            doc! { "$set": { "leaseUntil": until } },
        )
        .await
        .db_context("renewing an announcement's lease")?;
    Ok(r.matched_count == 1)
}

/// Of the email claims `delivered` (just delivered, by id), those recorded as interrupted by
/// another worker meanwhile: their log entries are closed with `reason`, so the administrators'
/// retry does not send them again, and the claims are settled `sent`.
pub async fn close_interrupted(db: &Db, delivered: &[ObjectId], reason: &str) -> DbResult<()> {
    let claims: Vec<Document> = find_each(db, DELIVERIES, delivered.iter().copied()).await?;
    let ids: Vec<ObjectId> = claims
        .iter()
        .filter(|d| d.get_bool("interrupted").unwrap_or(false))
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    update_each(
        db,
        super::email_logs::COLLECTION,
        ids.iter()
            .map(|id| {
                (
                    doc! { "_id": id, "success": false },
                    doc! { "$set": { "stopEmailAttempts": true, "error": reason } },
                )
            })
            .collect(),
    )
    .await?;
    update_each(
        db,
        DELIVERIES,
        ids.iter()
            .map(|id| (doc! { "_id": id }, doc! { "$set": { "status": "sent" } }))
            .collect(),
    )
    .await?;
    Ok(())
}
