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

mod deliveries;
mod newsletter;
mod suppressions;
pub use deliveries::*;
pub use newsletter::*;
pub use suppressions::*;

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
    // By `_id` (see `update_each`): the condition on the owner is checked on the document.
    let matched = update_each(
        db,
        ANNOUNCEMENTS,
        vec![(
            doc! { "_id": post, "leaseOwner": owner },
            doc! { "$set": set },
        )],
    )
    .await?;
    Ok(matched == 1)
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

/// Renews the lease of `owner` on an announcement; `false` when it was taken over.
pub async fn renew(db: &Db, post: ObjectId, owner: &str, lease_ms: i64) -> DbResult<bool> {
    let until = DateTime::from_millis(now().timestamp_millis() + lease_ms);
    // By `_id` (see `update_each`): the condition on the owner is checked on the document.
    let matched = update_each(
        db,
        ANNOUNCEMENTS,
        vec![(
            doc! { "_id": post, "leaseOwner": owner },
            doc! { "$set": { "leaseUntil": until } },
        )],
    )
    .await?;
    Ok(matched == 1)
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
