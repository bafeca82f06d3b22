//! Telling readers of a new post: a `new_post` notice to each follower who may read it and an
//! email to those who chose `instant` alerts and to the author's confirmed email-only
//! subscribers.
//!
//! The publish request (or the scheduled-publishing job) only stores the post's announcement
//! ([`post_mail::announce`], once per post) and wakes this worker. The worker of any node takes
//! the announcement's lease, goes through the followers and then the subscribers in batches of
//! [`BATCH`], and records a cursor after each batch: a node that dies mid-send leaves the lease to
//! expire and another node (or the same one restarted) goes on from the last finished batch.
//! Every email is claimed in `post_deliveries` under a unique index first, and every notice is
//! stored under an `_id` made of the post's and the reader's, so the batch that was cut short
//! sends nobody anything twice.
//!
//! Emails go out [`IN_FLIGHT`] at a time: the chunk's claim ids are put in flight on the
//! announcement, the emails claimed, sent and logged (under the claims' ids), and the chunk
//! taken out of flight and counted; every step is one write for the whole chunk, and nothing is
//! read or written per email (FerretDB reads a collection for each such operation). A node that
//! dies leaves at most one chunk in flight. The node that takes the announcement over records
//! each of its emails without a log entry as a failed email (an entry saying it was interrupted
//! and may not have arrived, counted in the post's failed figure), so the administrators see it
//! and their retry can send it: at most once by the worker, and never lost silently.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use actix_web::web;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use hmac::{Hmac, Mac};
use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;
use pressroom_actors::events::PostDeliveryUpdated;
use sha2::Sha256;

use crate::domain::blocks::plain_text_of;
use crate::domain::post::Audience;
use crate::mail::{MailKind, Outgoing};
use crate::pages::html::escape;
use crate::pages::model::PublicPost;
use crate::pages::syndication::content_html;
use crate::pages::view::Site;
use crate::persistence::follows::{self, Alerts};
use crate::persistence::notifications::{self, Kind, Notification};
use crate::persistence::post_mail::{self, Announcement, Phase};
use crate::persistence::posts::{self, Post};
use crate::persistence::series::{self as series_store, Series};
use crate::persistence::users::User;
use crate::persistence::{email_logs, graph, now, subscriptions, users};
use crate::state::AppState;

mod batch;
mod choices;
mod compose;
mod held;
mod series;
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
/// dies leaves at most this many in flight.
const IN_FLIGHT: usize = 32;
/// A follower read ahead: their id, their alerts, their account (`None` when it is gone).
type Follower = (ObjectId, Alerts, Option<User>);

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
        Ok(true) => state.wakes.announcements.notify_waiters(),
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
    /// The post's series, when it is a part of one.
    series: Option<Series>,
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
        let from = match (c.who, &self.series) {
            (Recipient::SeriesFollower(_), Some(series)) => series.id,
            _ => self.post.author,
        };
        let token = unsubscribe_token(&self.secret, from, c.who);
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
            Recipient::SeriesFollower(_) => format!(
                "You get this because you follow the series \"{}\" on Pressroom.",
                self.series.as_ref().map_or("", |s| s.title.as_str())
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

    /// Emails a batch's candidates, suppressed addresses left out, [`IN_FLIGHT`] at a time. For
    /// each chunk: its claim ids are put in flight on the announcement (with the lease renewed),
    /// the emails are claimed (those claimed before left out), sent, and their log entries
    /// stored under the claims' ids; then the chunk is taken out of flight and counted. Every
    /// step is one write for the whole chunk. A worker that dies leaves at most one chunk in
    /// flight ([`Run::take_over_in_flight`]).
    async fn emails(&mut self, mut candidates: Vec<Candidate>) -> anyhow::Result<()> {
        let db = &self.state.db;
        let mut seen = HashSet::new();
        candidates.retain(|c| seen.insert(c.address.clone()));
        let addresses: Vec<String> = candidates.iter().map(|c| c.address.clone()).collect();
        let suppressed = post_mail::suppressed_among(db, &addresses).await?;
        candidates.retain(|c| !suppressed.contains(&c.address));
        for chunk in candidates.chunks(IN_FLIGHT) {
            let ids: Vec<ObjectId> = chunk.iter().map(|_| ObjectId::new()).collect();
            if !post_mail::start_chunk(db, self.post.id, &self.owner, LEASE_MS, &ids).await? {
                anyhow::bail!(
                    "the announcement of {} was taken over; stopping",
                    self.post.id
                );
            }
            let claims: Vec<(String, mongodb::bson::Document)> = chunk
                .iter()
                .zip(&ids)
                .map(|(c, id)| {
                    let mut fields = c.claim_fields(&self.owner);
                    fields.insert("_id", *id);
                    (c.address.clone(), fields)
                })
                .collect();
            let claimed_before = post_mail::claim_emails(db, self.post.id, &claims).await?;
            let work: Vec<BoxFuture<'_, (ObjectId, Sent)>> = chunk
                .iter()
                .zip(&ids)
                .enumerate()
                .filter(|(i, _)| !claimed_before.contains(i))
                .map(|(_, (c, id))| self.send(c).map(move |sent| (*id, sent)).boxed())
                .collect();
            let mut outcomes: Vec<(ObjectId, Sent)> = futures_util::future::join_all(work).await;
            for (id, o) in &mut outcomes {
                o.log.id = *id;
            }
            let logs: Vec<_> = outcomes.iter().map(|(_, o)| o.log.clone()).collect();
            let logged_before = email_logs::record_many(db, &logs).await?;
            // A worker stalled past its lease finds the emails of its chunk recorded as
            // interrupted by the worker that took over: those it delivered are closed so, and
            // not sent again by a retry.
            let after_all: Vec<ObjectId> = outcomes
                .iter()
                .enumerate()
                .filter(|(i, (_, o))| logged_before.contains(i) && o.success)
                .map(|(_, (id, _))| *id)
                .collect();
            post_mail::close_interrupted(db, &after_all, DELIVERED_AFTER_ALL).await?;
            for (_, o) in outcomes.iter().filter(|(_, o)| o.permanent) {
                post_mail::suppress(db, &o.address, "hard_bounce", o.error.as_deref()).await?;
            }
            let settled: HashMap<ObjectId, bool> =
                outcomes.iter().map(|(id, o)| (*id, o.success)).collect();
            if let Some(a) = post_mail::finish_chunk(db, self.post.id, &ids, &settled).await? {
                self.show_figures(&a);
            }
        }
        Ok(())
    }

    /// Takes over the chunk of emails a stopped worker left in flight: each email claimed and
    /// not logged gets a failed email log entry saying it was interrupted (under its claim's id,
    /// with the email's text and HTML so the administrators' retry can send it); one logged
    /// keeps its outcome (an address that refused it is suppressed). Then the chunk is taken out
    /// of flight and counted, as its worker would have. Ids in flight that were never claimed
    /// (the worker stopped before claiming, or an earlier run had claimed the address) count for
    /// nothing: the batch they belong to is gone through again.
    async fn take_over_in_flight(&mut self) -> anyhow::Result<()> {
        let db = &self.state.db;
        let ids = std::mem::take(&mut self.announcement.in_flight);
        if ids.is_empty() {
            return Ok(());
        }
        let claims = post_mail::claims_among(db, &ids).await?;
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
            logs.push(email_logs::EmailLog {
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
        // Stored unless logged already: an email its worker logged before stopping keeps that
        // entry, and its outcome is read back from it.
        email_logs::record_many(db, &logs).await?;
        let logged: Vec<ObjectId> = logs.iter().map(|l| l.id).collect();
        let outcomes = email_logs::find_many(db, &logged).await?;
        let mut settled = HashMap::new();
        let mut interrupted = 0u64;
        for claim in &claims {
            let Ok(id) = claim.get_object_id("_id") else {
                continue;
            };
            let ok = match outcomes.get(&id) {
                Some(o) if o.success => true,
                Some(o) if o.stop_email_attempts && o.error.as_deref() != Some(INTERRUPTED) => {
                    post_mail::suppress(
                        db,
                        claim.get_str("to").unwrap_or_default(),
                        "hard_bounce",
                        o.error.as_deref(),
                    )
                    .await?;
                    false
                }
                _ => {
                    interrupted += 1;
                    false
                }
            };
            settled.insert(id, ok);
        }
        if let Some(a) = post_mail::finish_chunk(db, self.post.id, &ids, &settled).await? {
            self.show_figures(&a);
        }
        if interrupted > 0 {
            crate::metrics::MAIL
                .with_label_values(&["failed"])
                .inc_by(interrupted);
        }
        tracing::warn!(post = %self.post.id, claimed = settled.len(), interrupted, "the chunk of new-post emails a stopped server left in flight recorded (those not known to be delivered as failed)");
        Ok(())
    }

    /// Stores and pushes the notices of a batch (to those not told before: a notice's `_id` is
    /// made of the post's and the reader's, so a batch gone through again stores nothing twice).
    /// Those in `instant` (their alerts say so) may be pushed to their devices; returns those
    /// pushed.
    async fn notices(
        &mut self,
        people: &[&User],
        instant: &HashSet<ObjectId>,
    ) -> anyhow::Result<HashSet<ObjectId>> {
        let db = &self.state.db;
        let at = now();
        let notes: Vec<Notification> = people
            .iter()
            .map(|u| {
                let mut n = self.notice.clone();
                n.id = notice_id(self.post.id, u.id);
                n.user_id = u.id;
                n.created_at = at;
                n
            })
            .collect();
        let stored_before = notifications::insert_new(db, &notes).await?;
        let told: Vec<&Notification> = notes
            .iter()
            .enumerate()
            .filter(|(i, _)| !stored_before.contains(i))
            .map(|(_, n)| n)
            .collect();
        let pushed = crate::services::notify::delivered(self.state, &told, instant).await;
        let told = i64::try_from(told.len()).unwrap_or(0);
        if told > 0 {
            if let Some(a) = post_mail::count(db, self.post.id, told, 0, 0).await? {
                self.show_figures(&a);
            }
        }
        Ok(pushed)
    }

    /// Keeps the figures the worker last wrote and pushes them to the author's tabs.
    fn show_figures(&mut self, a: &Announcement) {
        self.announcement.notices = a.notices;
        self.announcement.emails_sent = a.emails_sent;
        self.announcement.emails_failed = a.emails_failed;
        push_figures(self.state, &self.announcement);
    }

    /// One batch of followers; `None` when there are no more.
    /// `followers`: the followers read ahead (a page of [`FOLLOWER_PAGE`] at a time, with their
    /// user documents, `None` for a follower whose account is gone) and not yet handled;
    /// `read_all`: whether the last page has been read.
    async fn follower_batch(
        &mut self,
        followers: &mut std::collections::VecDeque<Follower>,
        read_all: &mut bool,
    ) -> anyhow::Result<Option<ObjectId>> {
        let db = &self.state.db;
        let batch_size = usize::try_from(BATCH).unwrap_or(200);
        if followers.len() < batch_size && !*read_all {
            let after = followers
                .back()
                .map(|(id, _, _)| *id)
                .or(self.announcement.cursor);
            let page = follows::followers_page(db, self.post.author, after, FOLLOWER_PAGE).await?;
            *read_all = i64::try_from(page.len()).unwrap_or(0) < FOLLOWER_PAGE;
            // The page's users with one query (one pass over `users`, not one per follower).
            let ids: Vec<ObjectId> = page.iter().map(|(id, _)| *id).collect();
            let mut people: HashMap<ObjectId, User> = users::find_many(db, &ids)
                .await?
                .into_iter()
                .map(|u| (u.id, u))
                .collect();
            followers.extend(
                page.into_iter()
                    .map(|(id, alerts)| (id, alerts, people.remove(&id))),
            );
        }
        let batch: Vec<Follower> = followers.drain(..batch_size.min(followers.len())).collect();
        let Some(last) = batch.last().map(|(id, _, _)| *id) else {
            return Ok(None);
        };
        // Who may hear of it: not `off`, not blocked by an administrator, no block either way.
        let told: Vec<(&User, Alerts)> = batch
            .iter()
            .filter_map(|(_, alerts, user)| user.as_ref().map(|u| (u, *alerts)))
            .filter(|(u, alerts)| {
                *alerts != Alerts::Off && !u.blocked && !self.hidden.contains(&u.id)
            })
            .collect();
        self.tell(&told, Recipient::Follower).await?;
        Ok(Some(last))
    }

    /// Tells readers of the post by their alerts: a notice to each, an email at once to the
    /// verified ones with `instant` alerts (when the author chose to email it); the email of one
    /// who was pushed the post is held back (the `held` phase sends it if they have not opened
    /// the post by then).
    async fn tell(
        &mut self,
        told: &[(&User, Alerts)],
        recipient: fn(ObjectId) -> Recipient,
    ) -> anyhow::Result<()> {
        let instant: HashSet<ObjectId> = told
            .iter()
            .filter(|(_, alerts)| *alerts == Alerts::Instant)
            .map(|(u, _)| u.id)
            .collect();
        let pushed = self
            .notices(&told.iter().map(|(u, _)| *u).collect::<Vec<_>>(), &instant)
            .await?;
        if self.announcement.send_email {
            let hold = self.state.settings.push.email_hold_seconds > 0;
            let (held, candidates): (Vec<Candidate>, Vec<Candidate>) = told
                .iter()
                .filter(|(u, alerts)| *alerts == Alerts::Instant && u.is_account_verified)
                .map(|(u, _)| Candidate {
                    address: u.email.trim().to_lowercase(),
                    who: recipient(u.id),
                    full: self.paying.contains(&u.id),
                    user: Some(u.id),
                })
                .partition(|c| hold && c.user.is_some_and(|u| pushed.contains(&u)));
            if !held.is_empty() {
                let claims: Vec<(String, mongodb::bson::Document)> = held
                    .iter()
                    .map(|c| (c.address.clone(), c.claim_fields(&self.owner)))
                    .collect();
                post_mail::hold_emails(&self.state.db, self.post.id, &claims).await?;
            }
            self.emails(candidates).await?;
        }
        Ok(())
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
        if self.taken_over {
            if self.announcement.phase == Phase::Series {
                self.load_series().await?;
            }
            self.take_over_in_flight().await?;
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
                    None => (Phase::Series, None),
                },
                Phase::Series => match self.series_batch().await? {
                    Some(last) => (Phase::Series, Some(last)),
                    None => (Phase::Held, None),
                },
                Phase::Held => match self.held_batch().await? {
                    Some(last) => (Phase::Held, Some(last)),
                    None => (Phase::Done, None),
                },
                Phase::Done => return Ok(()),
            };
            let phase = if phase == Phase::Held && self.announcement.phase != Phase::Held {
                if self.defer_held().await? {
                    return Ok(());
                }
                Phase::Done
            } else {
                phase
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
        series: None,
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
            let woken = state.wakes.announcements.notified();
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
