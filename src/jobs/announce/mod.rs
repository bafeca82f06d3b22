//! Telling readers of a new post: a `new_post` notice to each follower who may read it and an
//! email to those who chose `instant` alerts and to the author's confirmed email-only
//! subscribers.
//!
//! The publish request (or the scheduled-publishing job) only stores the post's announcement
//! ([`post_mail::announce`], once per post) and wakes this worker. The worker of any node takes
//! the announcement's lease, goes through the followers and then the subscribers in batches of
//! [`BATCH`], and records a cursor after each batch: a node that dies mid-send leaves the lease to
//! expire and another node (or the same one restarted) goes on from the last finished batch.
//! Every notice and email is claimed in `post_deliveries` under a unique index first, so the
//! batch that was cut short sends nobody anything twice.
//!
//! Emails are claimed [`IN_FLIGHT`] at a time, just before they are sent (claim a chunk, send
//! it, settle it), so a node that dies leaves at most one chunk claimed and unsettled. The node
//! that takes the announcement over records each of those as a failed email (an email log entry
//! saying it was interrupted and may not have arrived, counted in the post's failed figure), so
//! the administrators see it and their retry can send it: at most once by the worker, and never
//! lost silently.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;
use std::time::Duration;

use actix_web::web;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use hmac::{Hmac, Mac};
use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;
use pressroom_actors::events::ServerEvent;
use serde_json::json;
use sha2::Sha256;
use tokio::sync::Notify;

use crate::domain::blocks::plain_text_of;
use crate::domain::post::Audience;
use crate::mail::{MailKind, Outgoing};
use crate::pages::html::escape;
use crate::pages::model::PublicPost;
use crate::pages::syndication::content_html;
use crate::pages::view::Site;
use crate::persistence::follows::{self, Alerts};
use crate::persistence::notifications::{self, Kind, Notification};
use crate::persistence::post_mail::{self, Announcement, Channel, Phase};
use crate::persistence::posts::{self, Post};
use crate::persistence::users::User;
use crate::persistence::{graph, now, subscriptions, users};
use crate::state::AppState;

mod batch;
mod choices;
mod compose;
pub use batch::*;
pub use choices::*;
pub use compose::*;

/// How often unfinished announcements are looked for (besides being woken by a publish).
pub const POLL_INTERVAL: Duration = Duration::from_secs(1);
/// A worker that has not finished a batch for this long is taken to be dead.
pub const LEASE_MS: i64 = 30_000;
/// Followers (or subscribers) handled per batch.
pub const BATCH: i64 = 200;
/// Followers read ahead with one query (a pass over the follows in FerretDB).
const FOLLOWER_PAGE: i64 = 5_000;
/// Emails claimed and sent at once (over the mailer's pooled SMTP connections); a worker that
/// dies leaves at most this many claimed and unsettled.
const IN_FLIGHT: usize = 32;
/// Name of the live event the author's tabs hear while a post goes out.
pub const DELIVERY_EVENT: &str = "postDeliveryUpdated";

static WAKE: LazyLock<Notify> = LazyLock::new(Notify::new);

/// Wakes the workers of this process (a post was announced).
pub fn wake() {
    WAKE.notify_waiters();
}

/// A post became visible to its audience: announces it unless it was announced before. Errors
/// are logged: the post is published whatever happens here.
pub async fn post_became_visible(state: &AppState, post: &Post, send_email: Option<bool>) {
    if !post.is_listable() {
        return;
    }
    let send = match send_email {
        Some(s) => s,
        None => email_choice(state, post.id).await,
    };
    match post_mail::announce(&state.db, post.id, post.author, send).await {
        Ok(true) => wake(),
        Ok(false) => {}
        Err(e) => tracing::warn!(error = %e, post = %post.id, "could not announce a post"),
    }
}

struct Run<'a> {
    state: &'a AppState,
    owner: String,
    /// Whether the announcement was taken from a worker whose lease expired.
    taken_over: bool,
    post: Post,
    announcement: Announcement,
    composed: Composed,
    notice: Notification,
    hidden: HashSet<ObjectId>,
    /// The author's paying subscribers (read once per run, for a subscribers-only post).
    paying: HashSet<ObjectId>,
    secret: Vec<u8>,
    manage: String,
}

/// The error of an email whose worker stopped while sending it (its log entry, failed and open
/// to the administrators' retry).
pub const INTERRUPTED: &str =
    "Interrupted: the server stopped while sending this email; it may not have been delivered";

/// The error left on an interrupted email's entry when the stalled worker delivered it after
/// all (it is then not sent again).
pub const DELIVERED_AFTER_ALL: &str =
    "Delivered after all: the server taken to have stopped sent it late; not sent again";

impl Run<'_> {
    /// The email for one candidate.
    fn compose(&self, c: &Candidate) -> Outgoing {
        let token = unsubscribe_token(&self.secret, self.post.author, c.who);
        let unsubscribe = self
            .state
            .settings
            .public_link(&format!("/api/newsletter/unsubscribe?token={token}"));
        let why = match c.who {
            Recipient::Follower(_) => format!(
                "You get this because you follow {} on Pressroom.",
                self.composed.author_name
            ),
            Recipient::Subscriber(_) => format!(
                "You get this because you subscribed to {} on Pressroom by email.",
                self.composed.author_name
            ),
        };
        let (subject, body, html) = self
            .composed
            .message(c.full, &why, &unsubscribe, &self.manage);
        let mut mail = Outgoing::new(MailKind::NewPost, &c.address, &subject, body);
        mail.user_id = c.user;
        mail.unsubscribe_url = Some(unsubscribe);
        mail.html = Some(html);
        mail
    }

    /// Sends one claimed email.
    async fn send(&self, c: &Candidate) -> Sent {
        let record = self.state.mailer.send_unrecorded(self.compose(c)).await;
        Sent {
            address: c.address.clone(),
            success: record.success,
            permanent: !record.success && record.stop_email_attempts,
            error: record.error.clone(),
            log: record,
        }
    }

    /// Emails a batch's candidates, suppressed addresses left out, [`IN_FLIGHT`] at a time: each
    /// chunk is claimed just before it is sent (those claimed before left out), sent, and its
    /// outcomes settled, logged and counted before the next chunk is claimed. A worker that dies
    /// leaves at most one chunk claimed and unsettled ([`Run::settle_interrupted`]).
    async fn emails(&mut self, mut candidates: Vec<Candidate>) -> anyhow::Result<()> {
        let db = &self.state.db;
        let mut seen = HashSet::new();
        candidates.retain(|c| seen.insert(c.address.clone()));
        let addresses: Vec<String> = candidates.iter().map(|c| c.address.clone()).collect();
        let suppressed = post_mail::suppressed_among(db, &addresses).await?;
        candidates.retain(|c| !suppressed.contains(&c.address));
        for chunk in candidates.chunks(IN_FLIGHT) {
            if !post_mail::renew(db, self.post.id, &self.owner, LEASE_MS).await? {
                anyhow::bail!(
                    "the announcement of {} was taken over; stopping",
                    self.post.id
                );
            }
            // Each claim's id is its email's log entry's id, so a takeover finds the outcome of
            // an email logged but not settled when its worker stopped.
            let ids: HashMap<&str, ObjectId> = chunk
                .iter()
                .map(|c| (c.address.as_str(), ObjectId::new()))
                .collect();
            let claims: Vec<(String, mongodb::bson::Document)> = chunk
                .iter()
                .map(|c| {
                    let mut fields = c.claim_fields(&self.owner);
                    fields.insert("_id", ids[c.address.as_str()]);
                    (c.address.clone(), fields)
                })
                .collect();
            let claimed =
                post_mail::claim_many_with(db, self.post.id, Channel::Email, &claims).await?;
            let work: Vec<BoxFuture<'_, Sent>> = chunk
                .iter()
                .filter(|c| claimed.contains(&c.address))
                .map(|c| self.send(c).boxed())
                .collect();
            if work.is_empty() {
                continue;
            }
            let mut outcomes: Vec<Sent> = futures_util::future::join_all(work).await;
            for o in &mut outcomes {
                if let Some(id) = ids.get(o.address.as_str()) {
                    o.log.id = *id;
                }
            }
            let logs: Vec<_> = outcomes.iter().map(|o| o.log.clone()).collect();
            crate::persistence::email_logs::record_many(db, &logs).await?;
            let mut tally = Tally::default();
            let mut by_status: HashMap<&str, Vec<ObjectId>> = HashMap::new();
            for o in &outcomes {
                let status = if o.success {
                    tally.sent += 1;
                    "sent"
                } else if o.permanent {
                    tally.failed += 1;
                    post_mail::suppress(db, &o.address, "hard_bounce", o.error.as_deref()).await?;
                    "suppressed"
                } else {
                    tally.failed += 1;
                    "failed"
                };
                if let Some(id) = ids.get(o.address.as_str()) {
                    by_status.entry(status).or_default().push(*id);
                }
            }
            let delivered = by_status.get("sent").cloned().unwrap_or_default();
            let mut delivered_settled = 0;
            for (status, claims) in &by_status {
                let n = post_mail::settle_many(db, claims, status).await?;
                if *status == "sent" {
                    delivered_settled = n;
                }
            }
            // A worker stalled past its lease may find some of its emails recorded as
            // interrupted by the worker that took over (their claims were no longer `sending`):
            // those it delivered are not sent again.
            if usize::try_from(delivered_settled).unwrap_or(0) < delivered.len() {
                post_mail::close_interrupted(db, &delivered, DELIVERED_AFTER_ALL).await?;
            }
            self.record(tally).await?;
        }
        Ok(())
    }

    /// Records the emails a stopped worker claimed and never settled: each gets a failed email
    /// log entry saying it was interrupted (under its claim's id, with the email's text and
    /// HTML so the administrators' retry can send it), its claim is settled `failed`, and it is
    /// counted in the post's failed figure. Only claims older than half a lease are taken: a
    /// live worker renews its lease before each chunk, so its claims are younger than that.
    async fn settle_interrupted(&mut self) -> anyhow::Result<()> {
        let db = &self.state.db;
        let before = mongodb::bson::DateTime::from_millis(
            now().timestamp_millis().saturating_sub(LEASE_MS / 2),
        );
        let claims = post_mail::unsettled_emails(db, self.post.id, &self.owner, before).await?;
        if claims.is_empty() {
            return Ok(());
        }
        let mut ids = Vec::new();
        let mut logs = Vec::new();
        for claim in &claims {
            let Ok(id) = claim.get_object_id("_id") else {
                continue;
            };
            let at = claim
                .get_datetime("createdAt")
                .copied()
                .unwrap_or_else(|_| now());
            let (address, subject, body, html, user, unsubscribe) = match Candidate::of_claim(claim)
            {
                Some(c) => {
                    let m = self.compose(&c);
                    (
                        m.to,
                        m.subject,
                        Some(m.body),
                        m.html,
                        m.user_id,
                        m.unsubscribe_url,
                    )
                }
                // A claim without its recipient: logged all the same, without its text.
                None => (
                    claim.get_str("to").unwrap_or_default().to_string(),
                    format!("{}: {}", self.composed.author_name, self.composed.title),
                    None,
                    None,
                    None,
                    None,
                ),
            };
            ids.push(id);
            logs.push(crate::persistence::email_logs::EmailLog {
                id,
                email: address,
                kind: MailKind::NewPost.as_str().to_string(),
                subject,
                success: false,
                error: Some(INTERRUPTED.to_string()),
                attempts: 1,
                stop_email_attempts: false,
                created_at: at,
                body,
                user_id: user,
                unsubscribe_url: unsubscribe,
                html,
                retries: 0,
                last_attempt_at: Some(at),
                sent_at: None,
                retrying_at: None,
            });
        }
        // The entries first: a takeover that stops between the two steps leaves the claims
        // unsettled, and the next one stores nothing twice (the ids are the claims'). An email
        // whose worker logged it before stopping keeps that entry, and its claim that outcome.
        post_mail::record_interrupted_logs(db, &logs).await?;
        let outcomes = post_mail::logged_outcomes(db, &ids).await?;
        let (mut delivered, mut interrupted, mut refused) = (Vec::new(), Vec::new(), Vec::new());
        for claim in &claims {
            let Ok(id) = claim.get_object_id("_id") else {
                continue;
            };
            match outcomes.get(&id) {
                Some(o) if o.success => delivered.push(id),
                Some(o) if o.stop_email_attempts && o.error.as_deref() != Some(INTERRUPTED) => {
                    post_mail::suppress(
                        db,
                        claim.get_str("to").unwrap_or_default(),
                        "hard_bounce",
                        o.error.as_deref(),
                    )
                    .await?;
                    refused.push(id);
                }
                _ => interrupted.push(id),
            }
        }
        let sent = post_mail::settle_claims(db, &delivered, "sent", false).await?;
        let failed = post_mail::settle_claims(db, &refused, "suppressed", false).await?
            + post_mail::settle_claims(db, &interrupted, "failed", true).await?;
        if sent + failed > 0 {
            crate::metrics::MAIL
                .with_label_values(&["failed"])
                .inc_by(failed);
            tracing::warn!(post = %self.post.id, sent, failed, "new-post emails left unsettled by a stopped server recorded (those not known to be delivered as failed)");
            self.record(Tally {
                sent: i64::try_from(sent).unwrap_or(0),
                failed: i64::try_from(failed).unwrap_or(0),
                ..Tally::default()
            })
            .await?;
        }
        Ok(())
    }

    /// Stores and pushes the notices of a batch (to those not told before).
    async fn notices(&self, people: &[&User]) -> anyhow::Result<i64> {
        let db = &self.state.db;
        let claims: Vec<(String, mongodb::bson::Document)> = people
            .iter()
            .map(|u| (u.id.to_hex(), doc! { "_id": ObjectId::new() }))
            .collect();
        let claim_ids: HashMap<&str, ObjectId> = claims
            .iter()
            .filter_map(|(to, d)| Some((to.as_str(), d.get_object_id("_id").ok()?)))
            .collect();
        let claimed =
            post_mail::claim_many_with(db, self.post.id, Channel::Notice, &claims).await?;
        let at = now();
        let notes: Vec<Notification> = people
            .iter()
            .filter(|u| claimed.contains(&u.id.to_hex()))
            .map(|u| {
                let mut n = self.notice.clone();
                n.id = ObjectId::new();
                n.user_id = u.id;
                n.created_at = at;
                n
            })
            .collect();
        notifications::insert_many(db, &notes).await?;
        let told: Vec<ObjectId> = notes
            .iter()
            .filter_map(|n| claim_ids.get(n.user_id.to_hex().as_str()).copied())
            .collect();
        post_mail::settle_many(db, &told, "sent").await?;
        // The new unread count goes to those with a tab open (anywhere in the cluster): the
        // others read it when they next open one. Counting costs a query per reader.
        let online: HashSet<String> = if notes.is_empty() {
            HashSet::new()
        } else {
            self.state
                .realtime
                .online()
                .await
                .user_ids
                .into_iter()
                .collect()
        };
        for n in &notes {
            let user = n.user_id.to_hex();
            crate::live::notification_created(
                &self.state.realtime,
                &user,
                crate::services::notifications::view(n),
            );
            if online.contains(&user) {
                let count = notifications::count_unread(db, n.user_id).await?;
                crate::live::unread_count_changed(&self.state.realtime, &user, count);
            }
        }
        Ok(i64::try_from(notes.len()).unwrap_or(0))
    }

    async fn record(&mut self, tally: Tally) -> anyhow::Result<()> {
        if let Some(a) = post_mail::count(
            &self.state.db,
            self.post.id,
            tally.notices,
            tally.sent,
            tally.failed,
        )
        .await?
        {
            self.announcement.notices = a.notices;
            self.announcement.emails_sent = a.emails_sent;
            self.announcement.emails_failed = a.emails_failed;
            push_figures(self.state, &self.announcement);
        }
        Ok(())
    }

    /// One batch of followers; `None` when there are no more.
    /// `followers`: the followers read ahead (a page of [`FOLLOWER_PAGE`] at a time) and not
    /// yet handled; `read_all`: whether the last page has been read.
    async fn follower_batch(
        &mut self,
        followers: &mut std::collections::VecDeque<(ObjectId, Alerts)>,
        read_all: &mut bool,
    ) -> anyhow::Result<Option<ObjectId>> {
        let db = &self.state.db;
        let batch_size = usize::try_from(BATCH).unwrap_or(200);
        if followers.len() < batch_size && !*read_all {
            let after = followers
                .back()
                .map(|(id, _)| *id)
                .or(self.announcement.cursor);
            let page = follows::followers_page(db, self.post.author, after, FOLLOWER_PAGE).await?;
            *read_all = i64::try_from(page.len()).unwrap_or(0) < FOLLOWER_PAGE;
            followers.extend(page);
        }
        let batch: Vec<(ObjectId, Alerts)> =
            followers.drain(..batch_size.min(followers.len())).collect();
        let Some(last) = batch.last().map(|(id, _)| *id) else {
            return Ok(None);
        };
        let ids: Vec<ObjectId> = batch.iter().map(|(id, _)| *id).collect();
        let people: HashMap<ObjectId, User> =
            post_mail::find_each::<User, _>(db, users::COLLECTION, ids.iter().copied())
                .await?
                .into_iter()
                .map(|u| (u.id, u))
                .collect();
        // Who may hear of it: not `off`, not blocked by an administrator, no block either way.
        let told: Vec<(&User, Alerts)> = batch
            .iter()
            .filter_map(|(id, alerts)| people.get(id).map(|u| (u, *alerts)))
            .filter(|(u, alerts)| {
                *alerts != Alerts::Off && !u.blocked && !self.hidden.contains(&u.id)
            })
            .collect();
        let tally = Tally {
            notices: self
                .notices(&told.iter().map(|(u, _)| *u).collect::<Vec<_>>())
                .await?,
            ..Tally::default()
        };
        self.record(tally).await?;
        if self.announcement.send_email {
            let candidates: Vec<Candidate> = told
                .iter()
                .filter(|(u, alerts)| *alerts == Alerts::Instant && u.is_account_verified)
                .map(|(u, _)| Candidate {
                    address: u.email.trim().to_lowercase(),
                    who: Recipient::Follower(u.id),
                    full: self.paying.contains(&u.id),
                    user: Some(u.id),
                })
                .collect();
            self.emails(candidates).await?;
        }
        Ok(Some(last))
    }

    /// One batch of email-only subscribers; `None` when there are no more.
    async fn subscriber_batch(&mut self) -> anyhow::Result<Option<ObjectId>> {
        let batch = post_mail::confirmed_after(
            &self.state.db,
            self.post.author,
            self.announcement.cursor,
            BATCH,
        )
        .await?;
        let Some(last) = batch.last().map(|s| s.id) else {
            return Ok(None);
        };
        if self.announcement.send_email {
            let candidates = batch
                .iter()
                .map(|s| Candidate {
                    address: s.email.trim().to_lowercase(),
                    who: Recipient::Subscriber(s.id),
                    full: false,
                    user: None,
                })
                .collect();
            self.emails(candidates).await?;
        }
        Ok(Some(last))
    }

    async fn go(&mut self) -> anyhow::Result<()> {
        self.settle_interrupted().await?;
        if self.taken_over {
            // The stopped worker may have settled a chunk without counting it: the figures are
            // counted again from the claims.
            if let Some(a) = post_mail::recount(&self.state.db, self.post.id).await? {
                self.announcement.notices = a.notices;
                self.announcement.emails_sent = a.emails_sent;
                self.announcement.emails_failed = a.emails_failed;
                push_figures(self.state, &self.announcement);
            }
        }
        let mut followers = std::collections::VecDeque::new();
        let mut read_all = false;
        loop {
            let (phase, next) = match self.announcement.phase {
                Phase::Followers => match self.follower_batch(&mut followers, &mut read_all).await?
                {
                    Some(last) => (Phase::Followers, Some(last)),
                    None => (Phase::Subscribers, None),
                },
                Phase::Subscribers => match self.subscriber_batch().await? {
                    Some(last) => (Phase::Subscribers, Some(last)),
                    None => (Phase::Done, None),
                },
                Phase::Done => return Ok(()),
            };
            if !post_mail::advance(
                &self.state.db,
                self.post.id,
                &self.owner,
                LEASE_MS,
                phase,
                next,
            )
            .await?
            {
                anyhow::bail!(
                    "the announcement of {} was taken over; stopping",
                    self.post.id
                );
            }
            self.announcement.phase = phase;
            self.announcement.cursor = next;
            if phase == Phase::Done {
                push_figures(self.state, &self.announcement);
                tracing::info!(
                    post = %self.post.id,
                    notices = self.announcement.notices,
                    sent = self.announcement.emails_sent,
                    failed = self.announcement.emails_failed,
                    "new post announced"
                );
            }
        }
    }
}

/// Takes and works through one unfinished announcement; `false` when there was none.
pub async fn run_once(state: &AppState) -> anyhow::Result<bool> {
    let owner = ObjectId::new().to_hex();
    let Some(mut announcement) = post_mail::take(&state.db, &owner, LEASE_MS).await? else {
        return Ok(false);
    };
    // Its last worker's lease expired: that worker stopped, perhaps mid-chunk. (A lease still
    // running is another live worker that took it at the same moment: FerretDB's
    // `findAndModify` is not atomic against it.)
    let taken_over = announcement.lease_owner.is_some()
        && announcement.lease_until.is_some_and(|until| until < now());
    announcement.lease_owner = Some(owner.clone());
    let post = posts::find_by_id(&state.db, announcement.id).await?;
    let Some(post) = post.filter(|p| p.is_listable()) else {
        // Deleted or hidden again before it went out: nobody is told.
        post_mail::advance(
            &state.db,
            announcement.id,
            &owner,
            LEASE_MS,
            Phase::Done,
            None,
        )
        .await?;
        return Ok(true);
    };
    let author = users::find_by_id(&state.db, post.author).await?;
    let author_name = author
        .as_ref()
        .map_or(crate::post_view::DELETED_AUTHOR, |a| a.name.as_str())
        .to_string();
    let composed = Composed::of(state, &post, &author_name).await?;
    let notice = Notification {
        id: ObjectId::new(),
        user_id: post.author,
        kind: Kind::NewPost,
        content: format!("{author_name} published \"{}\"", post.title),
        read: false,
        navigate_to: Some(format!("/post/{}", post.slug)),
        sender_id: Some(post.author),
        sender_name: Some(author_name.clone()),
        sender_avatar: author.and_then(|a| a.avatar),
        post_id: Some(post.id),
        post_title: Some(post.title.clone()),
        reply_to: None,
        created_at: now(),
    };
    let hidden: HashSet<ObjectId> = graph::hidden_from(&state.db, post.author)
        .await?
        .into_iter()
        .collect();
    let paying: HashSet<ObjectId> = if post.audience == Audience::Subscribers {
        subscriptions::find(
            &state.db,
            doc! { "$and": [
                { "authorId": post.author },
                subscriptions::access_filter(now()),
            ] },
        )
        .await?
        .into_iter()
        .map(|s| s.subscriber_id)
        .collect()
    } else {
        HashSet::new()
    };
    let secret = secrecy::ExposeSecret::expose_secret(&state.settings.auth.jwt_secret)
        .as_bytes()
        .to_vec();
    let mut run = Run {
        state,
        owner,
        taken_over,
        manage: state.settings.public_link("/user-setting"),
        post,
        announcement,
        composed,
        notice,
        hidden,
        paying,
        secret,
    };
    run.go().await?;
    Ok(true)
}

/// Works through announcements as they come (woken by a publish, and every
/// [`POLL_INTERVAL`]).
pub fn spawn(state: web::Data<AppState>) {
    crate::metrics::job_declared("new-post-announcements", POLL_INTERVAL);
    tokio::spawn(async move {
        loop {
            let woken = WAKE.notified();
            loop {
                match run_once(&state).await {
                    Ok(true) => continue,
                    Ok(false) => {
                        crate::metrics::job_ran("new-post-announcements", POLL_INTERVAL, true);
                        break;
                    }
                    Err(e) => {
                        crate::metrics::job_ran("new-post-announcements", POLL_INTERVAL, false);
                        tracing::warn!(error = %format!("{e:#}"), "announcing a new post stopped");
                        break;
                    }
                }
            }
            let _ = tokio::time::timeout(POLL_INTERVAL, woken).await;
        }
    });
}
