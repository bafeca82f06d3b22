//! What tells readers of a new post, in four collections:
//!
//! - `post_announcements`: one document per post (`_id` is the post's id), created the first time
//!   the post becomes visible to its audience. Inserting it is the only thing the publish request
//!   does; the job worker ([`crate::services::jobs::announce`]) then takes its lease and works through the
//!   followers and the newsletter subscribers in batches, keeping a cursor so a run taken over
//!   after a crash goes on where the last one stopped. Its counters are the post's delivery
//!   figures, and `inFlight` names the email claims of the chunk being sent. Because the `_id` is
//!   the post's, publishing again or editing creates nothing.
//! - `post_deliveries`: one claim per (post, `email`, lower-cased address) under a unique index,
//!   inserted just before the email goes out, so nobody is emailed about a post twice whatever
//!   runs twice (two nodes, a crash, a retry), and a follower who also subscribed by email gets
//!   one email. A claim keeps who it is for and the worker that took it, and is never updated:
//!   the email's outcome is its email log entry, stored under the claim's `_id`. A worker that
//!   takes over from a stopped one reads the claims still in flight and records each that has no
//!   log entry as failed (interrupted), so the administrators' retry can send it. (New-post
//!   notices need no claim: a notification's `_id` is made of the post's and the reader's, so it
//!   is stored once whatever runs twice.)
//! - `email_suppressions`: addresses that refused mail permanently (SMTP 5xx) or complained;
//!   new-post emails skip them.
//! - `newsletter_subscribers`: email-only subscribers of an author, pending until they confirm.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, insert_new, is_duplicate_key, now, unique_index, Db, DbContext, DbResult};

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
/// (through the newsletter subscribers), `series` (through the followers of the post's series),
/// `held` (waiting, then emailing those held back because they were pushed the post and had
/// not opened it), `done`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Followers,
    Subscribers,
    Series,
    Held,
    Done,
}

impl Phase {
    /// The stored names of the phases before `done`.
    pub const UNFINISHED: [&'static str; 4] = ["followers", "subscribers", "series", "held"];
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
    /// The email claims of the chunk being sent (their ids, taken before they are claimed): a
    /// worker that takes the announcement over from a stopped one finds here the emails whose
    /// outcome may not be recorded.
    #[serde(default)]
    pub in_flight: Vec<ObjectId>,
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
    let a = Announcement::new(post, author, send_email, Phase::Followers);
    match announcements(db).insert_one(&a).await {
        Ok(_) => Ok(true),
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("announcing a post"),
    }
}

/// The author's choice stored with a post: whether its announcement emails (`emailOnPublish`,
/// yes when unset or unreadable).
pub async fn email_choice(db: &Db, post: ObjectId) -> bool {
    let found = db
        .database()
        .collection::<Document>(super::posts::COLLECTION)
        .find_one(doc! { "_id": post })
        .projection(doc! { "emailOnPublish": 1 })
        .await;
    match found {
        Ok(Some(d)) => d.get_bool("emailOnPublish").unwrap_or(true),
        _ => true,
    }
}

impl Announcement {
    /// A new announcement of `post`, starting at `phase`.
    fn new(post: ObjectId, author: ObjectId, send_email: bool, phase: Phase) -> Self {
        Announcement {
            id: post,
            author,
            send_email,
            phase,
            cursor: None,
            lease_owner: None,
            lease_until: None,
            notices: 0,
            emails_sent: 0,
            emails_failed: 0,
            in_flight: Vec::new(),
            created_at: now(),
            finished_at: None,
        }
    }
}

/// A post already out joined a series: its announcement goes on to the series' followers (a
/// finished one is opened again at `series`; one under way reaches that phase by itself). With
/// `or_new`, a post without an announcement gets one that starts there (emailing as the author
/// chose for the post). Whether the worker has something to do.
pub async fn announce_to_series(
    db: &Db,
    post: ObjectId,
    author: ObjectId,
    or_new: bool,
) -> DbResult<bool> {
    let reopened = announcements(db)
        .update_one(
            doc! { "_id": post, "phase": "done" },
            doc! {
                "$set": { "phase": "series", "cursor": null, "finishedAt": null,
                          "leaseOwner": null, "leaseUntil": null },
            },
        )
        .await
        .db_context("announcing a post to a series")?;
    if reopened.matched_count == 1 {
        return Ok(true);
    }
    if !or_new {
        return Ok(false);
    }
    // The author's choice stored with the post holds for its series' followers too.
    let send_email = email_choice(db, post).await;
    let a = Announcement::new(post, author, send_email, Phase::Series);
    match announcements(db).insert_one(&a).await {
        Ok(_) => Ok(true),
        // Announced meanwhile: under way, it reaches the series' followers by itself.
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("announcing a post to a series"),
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
///
/// FerretDB applies a `findAndModify` as a read and then a write, so two workers could both take
/// one announcement. As for the other leases (`leases::take_with`), the takeover of this version
/// of the lease (its holder and `leaseUntil`) is claimed first with an `_id` insert: of the
/// workers that read that version exactly one goes on, and it takes the lease only if it is
/// still that version (the update's filter names it). The claim is dropped once that update is
/// done: a worker that claims the same version later finds the lease moved on and takes nothing.
pub async fn take(db: &Db, owner: &str, lease_ms: i64) -> DbResult<Option<Announcement>> {
    let at = now();
    let Some(stale) = announcements(db)
        .find_one(doc! {
            // The unfinished phases, named: an equality the `phase_lease` index serves.
            "phase": { "$in": Phase::UNFINISHED.to_vec() },
            "$or": [ { "leaseUntil": null }, { "leaseUntil": { "$lt": at } } ],
        })
        .sort(doc! { "createdAt": 1 })
        .await
        .db_context("finding an announcement to take")?
    else {
        return Ok(None);
    };
    let marker = format!(
        "{ANNOUNCEMENTS}/{}/{}/{}",
        stale.id,
        stale.lease_owner.as_deref().unwrap_or("-"),
        stale
            .lease_until
            .map_or("-".to_string(), |u| u.timestamp_millis().to_string()),
    );
    if !super::leases::claim_takeover(db, &marker).await? {
        return Ok(None);
    }
    let same_version = doc! {
        "_id": stale.id,
        "leaseOwner": stale.lease_owner.as_deref(),
        "leaseUntil": stale.lease_until,
    };
    let set = doc! {
        "leaseOwner": owner,
        "leaseUntil": DateTime::from_millis(at.timestamp_millis() + lease_ms),
    };
    let taken = announcements(db)
        .find_one_and_update(same_version, doc! { "$set": set })
        .return_document(ReturnDocument::Before)
        .await
        .db_context("taking an announcement");
    let _ = super::leases::drop_claim(db, super::leases::TAKEOVERS, marker).await;
    taken
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
    let res = announcements(db)
        .update_one(
            doc! { "_id": post, "leaseOwner": owner },
            doc! { "$set": set },
        )
        .await
        .db_context("recording a batch of an announcement")?;
    Ok(res.matched_count == 1)
}

/// The owner a deferred announcement's lease names: nobody works on it until the lease ends.
pub const DEFERRED: &str = "deferred";

/// Moves an announcement to `phase` (cursor reset) and lets it rest until `until`: its lease
/// passes to nobody ([`DEFERRED`]) and ends then, when any node's worker takes it. `false`
/// when `owner`'s lease was taken over.
pub async fn defer(
    db: &Db,
    post: ObjectId,
    owner: &str,
    phase: Phase,
    until: DateTime,
) -> DbResult<bool> {
    let res = announcements(db)
        .update_one(
            doc! { "_id": post, "leaseOwner": owner },
            doc! { "$set": {
                "phase": mongodb::bson::to_bson(&phase).unwrap_or_default(),
                "cursor": mongodb::bson::Bson::Null,
                "leaseOwner": DEFERRED,
                "leaseUntil": until,
            } },
        )
        .await
        .db_context("deferring an announcement")?;
    Ok(res.matched_count == 1)
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

/// Starts a chunk of emails: renews the lease of `owner` and adds the chunk's claim ids to the
/// announcement's `inFlight` (one write by `_id`). `false` when the lease was taken over (the
/// caller stops; nothing is left written).
pub async fn start_chunk(
    db: &Db,
    post: ObjectId,
    owner: &str,
    lease_ms: i64,
    ids: &[ObjectId],
) -> DbResult<bool> {
    let set = doc! { "leaseUntil": DateTime::from_millis(now().timestamp_millis() + lease_ms) };
    let res = announcements(db)
        .update_one(
            doc! { "_id": post, "leaseOwner": owner },
            doc! { "$set": set, "$push": { "inFlight": { "$each": ids } } },
        )
        .await
        .db_context("starting a chunk of emails")?;
    Ok(res.matched_count == 1)
}

/// Ends a chunk of emails: takes `outcomes`' claim ids off the announcement's `inFlight` and
/// counts those it took (`true`: delivered) in its figures, with one write by `_id`. A claim id
/// no longer in flight was counted by the worker that took the chunk over; it is not counted
/// again. Returns the announcement's figures after.
pub async fn finish_chunk(
    db: &Db,
    post: ObjectId,
    ids: &[ObjectId],
    outcomes: &std::collections::HashMap<ObjectId, bool>,
) -> DbResult<Option<Announcement>> {
    let tally = |keep: &dyn Fn(&ObjectId) -> bool| {
        outcomes
            .iter()
            .filter(|(id, _)| keep(id))
            .fold(
                (0i64, 0i64),
                |(s, f), (_, ok)| {
                    if *ok {
                        (s + 1, f)
                    } else {
                        (s, f + 1)
                    }
                },
            )
    };
    let (sent, failed) = tally(&|_| true);
    let before = announcements(db)
        .find_one_and_update(
            doc! { "_id": post },
            doc! {
                "$pullAll": { "inFlight": ids },
                "$inc": { "emailsSent": sent, "emailsFailed": failed },
            },
        )
        .return_document(ReturnDocument::Before)
        .await
        .db_context("ending a chunk of emails")?;
    let Some(mut a) = before else {
        return Ok(None);
    };
    let was: std::collections::HashSet<ObjectId> = a.in_flight.iter().copied().collect();
    let (not_sent, not_failed) = tally(&|id| !was.contains(id));
    if not_sent + not_failed > 0 {
        // Counted by the worker that took the chunk over: taken back off.
        announcements(db)
            .update_one(
                doc! { "_id": post },
                doc! { "$inc": { "emailsSent": -not_sent, "emailsFailed": -not_failed } },
            )
            .await
            .db_context("ending a chunk of emails")?;
    }
    a.in_flight.retain(|id| !ids.contains(id));
    a.emails_sent += sent - not_sent;
    a.emails_failed += failed - not_failed;
    Ok(Some(a))
}

/// Closes the email log entries `ids` (recorded as interrupted by the worker that took their
/// chunk over, then delivered by the stalled one after all) with `reason`, so the
/// administrators' retry does not send them again.
pub async fn close_interrupted(db: &Db, ids: &[ObjectId], reason: &str) -> DbResult<()> {
    db.database()
        .collection::<Document>(super::email_logs::COLLECTION)
        .update_many(
            doc! { "_id": { "$in": ids }, "success": false },
            doc! { "$set": { "stopEmailAttempts": true, "error": reason } },
        )
        .await
        .db_context("closing interrupted emails")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Phase;

    #[test]
    fn the_unfinished_phases_are_every_phase_but_done() {
        let stored = |p: Phase| {
            mongodb::bson::to_bson(&p)
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        };
        let unfinished: Vec<String> = [
            Phase::Followers,
            Phase::Subscribers,
            Phase::Series,
            Phase::Held,
        ]
        .into_iter()
        .map(stored)
        .collect();
        assert_eq!(unfinished, Phase::UNFINISHED);
        assert_eq!(stored(Phase::Done), "done");
    }
}
