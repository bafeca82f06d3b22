//! The daily post email: once a day, from `daily_mail.hour_utc`, every verified user who has not
//! unsubscribed gets the previous day's new public posts from the authors they follow, the
//! series they follow and the categories they chose (leaving out authors whose alerts they turned off and posts emailed to
//! them already when they came out) (nothing when there is nothing new), with a one-click unsubscribe link
//! that works without signing in (a signed token).
//!
//! Exactly one process sends a day's email: the run takes the lease document
//! `daily-post-email:{date}` in `job_leases` (an atomic `_id` insert), renews it while it works,
//! and another process may take it over only when it went silent for `LEASE_STALE`. Each
//! recipient is claimed in `daily_mail_logs` under a unique (date, user) index before the mail
//! goes out, so nobody gets a day's email twice, whether two runs overlap, a run is taken over,
//! or an operator runs it again by hand (`scripts/cli mail daily --date YYYY-MM-DD`).

use std::collections::HashSet;
use std::time::Duration;

use actix_web::web;
use chrono::{NaiveDate, Timelike, Utc};
use hmac::{Hmac, Mac};
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use serde::Serialize;
use sha2::Sha256;

use crate::config::Settings;
use crate::mail::{MailKind, Mailer, Outgoing};
use crate::persistence::daily_mail::{self, DailyMailLog, Lease, Status};
use crate::persistence::posts::Post;
use crate::persistence::users::User;
use crate::persistence::{
    categories, follows, graph, now, post_mail, posts, user_directory, users, Db, DbResult,
};
use crate::state::AppState;

/// How often the server checks whether today's email is due.
pub const CHECK_INTERVAL: Duration = Duration::from_secs(60);
/// A run that has not renewed its lease for this long is taken to be dead.
pub const LEASE_STALE_MS: i64 = 10 * 60 * 1000;
/// Recipients read from the database at a time.
const RECIPIENT_BATCH: usize = 200;
/// Most posts of one day considered.
const MAX_DAY_POSTS: i64 = 5000;
/// Purpose of the unsubscribe token's signature.
const UNSUBSCRIBE_PURPOSE: &str = "daily-post-email:unsubscribe:";

/// How a run went.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RunSummary {
    pub date: String,
    /// `sent` (this run sent the day's email), `busy` (another process is sending it) or `done`
    /// (it was sent already).
    pub outcome: String,
    pub recipients: u64,
    pub sent: u64,
    pub failed: u64,
    /// Recipients with nothing new, and recipients someone else already took care of.
    pub nothing_new: u64,
    pub already_claimed: u64,
}

/// What a run needs: the database, the mailer and the settings (the CLI builds it without a
/// server).
pub struct DailyMailer<'a> {
    pub db: &'a Db,
    pub mailer: &'a Mailer,
    pub settings: &'a Settings,
}

/// The lease key of a day's run.
pub fn lease_key(date: NaiveDate) -> String {
    format!("daily-post-email:{date}")
}

fn signature(secret: &[u8], user: &str) -> Option<String> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).ok()?;
    mac.update(UNSUBSCRIBE_PURPOSE.as_bytes());
    mac.update(user.as_bytes());
    Some(hex::encode(mac.finalize().into_bytes()))
}

/// The token of `user`'s unsubscribe link: their id and a signature of it with the server
/// secret. It does not expire: an old email's link keeps working.
pub fn unsubscribe_token(secret: &[u8], user: ObjectId) -> String {
    let id = user.to_hex();
    format!("{id}.{}", signature(secret, &id).unwrap_or_default())
}

/// The user an unsubscribe token names, when its signature is right.
pub fn verify_unsubscribe_token(secret: &[u8], token: &str) -> Option<ObjectId> {
    let (id, given) = token.trim().split_once('.')?;
    let user = ObjectId::parse_str(id).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).ok()?;
    mac.update(UNSUBSCRIBE_PURPOSE.as_bytes());
    mac.update(id.as_bytes());
    mac.verify_slice(&hex::decode(given).ok()?).ok()?;
    Some(user)
}

fn day_start(date: NaiveDate) -> DateTime {
    let millis = date
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc().timestamp_millis())
        .unwrap_or_default();
    DateTime::from_millis(millis)
}

/// The posts a user is told about, newest first: by authors they follow or in categories they
/// chose, not their own, nobody on either side of a block with them.
async fn posts_for(db: &Db, user: &User, day: &[Post]) -> DbResult<Vec<Post>> {
    let followed: HashSet<ObjectId> = graph::followed(db, user.id).await?.into_iter().collect();
    let chosen: HashSet<ObjectId> = categories::selected_ids(db, user.id)
        .await?
        .into_iter()
        .collect();
    // Parts of the series the reader follows (alerts not off), whoever wrote them.
    let series: HashSet<ObjectId> = crate::persistence::series::heard_by(db, user.id)
        .await?
        .into_iter()
        .collect();
    if followed.is_empty() && chosen.is_empty() && series.is_empty() {
        return Ok(Vec::new());
    }
    let hidden: HashSet<ObjectId> = graph::hidden_from(db, user.id).await?.into_iter().collect();
    // Authors whose alerts the reader turned off are left out; so is a post already emailed to
    // the reader when it came out (instant alerts).
    let silenced: HashSet<ObjectId> = follows::silenced_by(db, user.id)
        .await?
        .into_iter()
        .collect();
    let picked: Vec<Post> = day
        .iter()
        .filter(|p| p.author != user.id && !hidden.contains(&p.author))
        .filter(|p| {
            let in_series = p.series_id.is_some_and(|s| series.contains(&s));
            in_series
                || (!silenced.contains(&p.author)
                    && (followed.contains(&p.author)
                        || p.category.is_some_and(|c| chosen.contains(&c))))
        })
        .cloned()
        .collect();
    let ids: Vec<ObjectId> = picked.iter().map(|p| p.id).collect();
    let emailed: HashSet<ObjectId> = post_mail::emailed_among(db, &user.email, &ids)
        .await?
        .into_iter()
        .collect();
    Ok(picked
        .into_iter()
        .filter(|p| !emailed.contains(&p.id))
        .collect())
}

impl DailyMailer<'_> {
    /// Sends the email of `date` (it lists the posts of the day before). `by_hand` runs it even
    /// when that day's run finished (nobody gets it twice).
    pub async fn run(&self, date: NaiveDate, by_hand: bool) -> anyhow::Result<RunSummary> {
        let key = lease_key(date);
        let owner = ObjectId::new().to_hex();
        let mut summary = RunSummary {
            date: date.to_string(),
            ..RunSummary::default()
        };
        match daily_mail::acquire(self.db, &key, &owner, LEASE_STALE_MS, by_hand).await? {
            Lease::Acquired => {}
            Lease::Busy => {
                summary.outcome = "busy".into();
                return Ok(summary);
            }
            Lease::Done => {
                summary.outcome = "done".into();
                return Ok(summary);
            }
        }
        let to = day_start(date);
        let from = DateTime::from_millis(to.timestamp_millis() - 86_400_000);
        let day = posts::listable_between(self.db, from, to, MAX_DAY_POSTS).await?;
        // The recipients are listed in one pass, then read and mailed a batch at a time.
        let recipients = users::daily_post_recipient_ids(self.db).await?;
        for ids in recipients.chunks(RECIPIENT_BATCH) {
            let batch = users::daily_post_recipients_among(self.db, ids).await?;
            for user in &batch {
                summary.recipients += 1;
                self.send_to(user, date, &day, &mut summary).await?;
            }
            if !daily_mail::heartbeat(self.db, &key, &owner, LEASE_STALE_MS).await? {
                anyhow::bail!("the lease of {key} was taken over; stopping");
            }
        }
        let figures = mongodb::bson::to_document(&summary).unwrap_or_default();
        daily_mail::finish(self.db, &key, &owner, figures).await?;
        summary.outcome = "sent".into();
        tracing::info!(date = %date, sent = summary.sent, failed = summary.failed, "daily post email sent");
        Ok(summary)
    }

    async fn send_to(
        &self,
        user: &User,
        date: NaiveDate,
        day: &[Post],
        summary: &mut RunSummary,
    ) -> anyhow::Result<()> {
        let picked = posts_for(self.db, user, day).await?;
        if picked.is_empty() {
            summary.nothing_new += 1;
            return Ok(());
        }
        let log = DailyMailLog {
            id: ObjectId::new(),
            date: date.to_string(),
            user_id: user.id,
            email: user.email.clone(),
            post_count: picked.len() as i64,
            post_ids: picked.iter().map(|p| p.id).collect(),
            status: Status::Sending,
            error: None,
            email_log_id: None,
            created_at: now(),
            sent_at: None,
        };
        if !daily_mail::claim(self.db, &log).await? {
            summary.already_claimed += 1;
            return Ok(());
        }
        let (subject, body, unsubscribe) = self.compose(user, date, &picked).await?;
        let mut mail =
            Outgoing::new(MailKind::DailyPost, &user.email, &subject, body).for_user(user.id);
        mail.unsubscribe_url = Some(unsubscribe);
        let record = self.mailer.send_mail(mail).await;
        daily_mail::record_outcome(
            self.db,
            log.id,
            record.success,
            record.error.clone(),
            record.id,
        )
        .await?;
        if record.success {
            summary.sent += 1;
        } else {
            summary.failed += 1;
        }
        Ok(())
    }

    /// The subject, the text and the unsubscribe address of a user's email.
    async fn compose(
        &self,
        user: &User,
        date: NaiveDate,
        picked: &[Post],
    ) -> anyhow::Result<(String, String, String)> {
        let max = self.settings.daily_mail.max_posts;
        let mut authors: Vec<ObjectId> = picked.iter().take(max).map(|p| p.author).collect();
        authors.sort();
        authors.dedup();
        let names = user_directory::authors(self.db, &authors).await?;
        let yesterday = date.pred_opt().unwrap_or(date);
        let mut lines = Vec::new();
        for post in picked.iter().take(max) {
            let by = names
                .get(&post.author)
                .map_or(crate::post_view::DELETED_AUTHOR, |a| a.name.as_str());
            lines.push(format!(
                "- {} by {by}\n  {}",
                post.title,
                self.settings.public_link(&format!("/post/{}", post.slug))
            ));
        }
        if picked.len() > max {
            lines.push(format!(
                "...and {} more on {}",
                picked.len() - max,
                self.settings.public_link("/")
            ));
        }
        let secret = secrecy::ExposeSecret::expose_secret(&self.settings.auth.jwt_secret);
        let token = unsubscribe_token(secret.as_bytes(), user.id);
        let unsubscribe = self
            .settings
            .public_link(&format!("/api/dailyMail/unsubscribe?token={token}"));
        let count = picked.len();
        let subject = format!(
            "{count} new post{} for you on Pressroom",
            if count == 1 { "" } else { "s" }
        );
        let body = format!(
            "Hello {},\n\nNew on Pressroom on {} from the authors you follow and the categories you chose:\n\n{}\n\n--\nYou get this email once a day when there is something new for you.\nTo stop it, open this link (no sign-in needed):\n{unsubscribe}\n",
            user.name,
            yesterday.format("%A %e %B %Y"),
            lines.join("\n"),
        );
        Ok((subject, body, unsubscribe))
    }
}

/// Checks every `CHECK_INTERVAL` whether today's email is due (from `daily_mail.hour_utc`) and
/// sends it; the lease makes every process but one skip it.
pub fn spawn(state: web::Data<AppState>) {
    if !state.settings.daily_mail.enabled {
        return;
    }
    crate::metrics::job_declared("daily-mail", CHECK_INTERVAL);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(CHECK_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let now = Utc::now();
            if now.time().hour() < state.settings.daily_mail.hour_utc {
                // Not due yet today: the check itself is the run.
                crate::metrics::job_ran("daily-mail", CHECK_INTERVAL, true);
                continue;
            }
            let job = DailyMailer {
                db: &state.db,
                mailer: &state.mailer,
                settings: &state.settings,
            };
            let result = job.run(now.date_naive(), false).await;
            crate::metrics::job_ran("daily-mail", CHECK_INTERVAL, result.is_ok());
            if let Err(e) = result {
                tracing::warn!(error = %format!("{e:#}"), "the daily post email did not finish");
            }
        }
    });
}
