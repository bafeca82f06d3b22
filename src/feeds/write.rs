//! Keeping the index: each reported write is applied before the request that made it answers.
//!
//! A post is refreshed from its record: take the next sequence number of the post
//! (`HINCRBY <ns>ix:seq <id> 1`), read the post by `_id`, and apply it with that number; the
//! apply script refuses a number not above the one applied last. A refresh reads only after a
//! number was taken, and numbers are taken after the write that asked for them, so whatever
//! order concurrent refreshes (on any node) reach Redis in, the state left is that of the last
//! read, which saw every earlier write.

use std::time::Duration;

use deadpool_redis::redis::{self, AsyncCommands};
use mongodb::bson::oid::ObjectId;

use super::keys::{self, Gen};
use super::scripts::{APPLY, EDGE, RESCORE};
use super::Feeds;
use crate::persistence::observer::Change;
use crate::persistence::posts::{self, Post};
use crate::redis_pool::RedisFailure;

/// Attempts at applying a change before the index is declared stale.
const APPLY_ATTEMPTS: u32 = 2;
/// Pause between attempts.
const RETRY_PAUSE: Duration = Duration::from_millis(50);
/// Posts refreshed at once when a write changed many.
const REFRESH_CONCURRENCY: usize = 16;

/// Trims the change stream to about this many entries.
pub const CHANGES_KEPT: usize = 100_000;

impl Feeds {
    /// Applies one reported change (with a retry); an error means the index missed it.
    pub(super) async fn apply_change(&self, change: &Change) -> anyhow::Result<()> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.apply_once(change).await {
                Ok(()) => return Ok(()),
                Err(e) if attempt < APPLY_ATTEMPTS && self.inner.redis.is_up() => {
                    tracing::debug!(error = %format!("{e:#}"), "retrying a read index change");
                    tokio::time::sleep(RETRY_PAUSE).await;
                }
                Err(e) => return Err(e),
            }
        }
    }

    async fn apply_once(&self, change: &Change) -> anyhow::Result<()> {
        match change {
            Change::Posts(ids) => {
                use futures_util::stream::{self, StreamExt, TryStreamExt};
                let entries: Vec<String> = stream::iter(ids.iter().copied())
                    .map(|id| async move { self.refresh_post(id, None).await })
                    .buffer_unordered(REFRESH_CONCURRENCY)
                    .try_collect()
                    .await?;
                if let Some(last) = entries
                    .iter()
                    .filter(|e| !e.is_empty())
                    .max_by_key(|e| stream_order(e))
                {
                    self.followed(last).await;
                }
                Ok(())
            }
            Change::TrendingScores(scores) => {
                for chunk in scores.chunks(500) {
                    let mut inv = RESCORE.prepare_invoke();
                    inv.arg(self.namespace());
                    for (id, score) in chunk {
                        inv.arg(id.to_hex()).arg(keys::format_score(*score));
                    }
                    let mut pipe = redis::pipe();
                    pipe.invoke_script(&inv).ignore();
                    self.query::<()>(&pipe).await?;
                }
                Ok(())
            }
            Change::Users(ids) => {
                let ns = self.namespace().to_string();
                let mut pipe = redis::pipe();
                for id in ids {
                    pipe.del(super::cards::author_key(&ns, id)).ignore();
                    pipe.cmd("XADD")
                        .arg(format!("{ns}ix:changes"))
                        .arg("MAXLEN")
                        .arg("~")
                        .arg(CHANGES_KEPT)
                        .arg("*")
                        .arg("u")
                        .arg(id.to_hex());
                }
                let entries: Vec<String> = self.query(&pipe).await?;
                if let Some(last) = entries.last() {
                    self.followed(last).await;
                }
                Ok(())
            }
            Change::Categories(ids) => {
                for id in ids {
                    self.forget_category(id).await?;
                }
                Ok(())
            }
            Change::Follow {
                follower,
                followee,
                on,
            } => {
                let op = if *on { "sadd" } else { "srem" };
                self.edges(&[(op, keys::follows_suffix(follower), followee.to_hex(), 0.0)])
                    .await
            }
            Change::Block {
                blocker,
                blocked,
                on,
            } => {
                let op = if *on { "sadd" } else { "srem" };
                self.edges(&[
                    (op, keys::blocked_by_suffix(blocker), blocked.to_hex(), 0.0),
                    (op, keys::blockers_of_suffix(blocked), blocker.to_hex(), 0.0),
                ])
                .await
            }
            Change::Bookmark {
                user,
                post,
                mark,
                at,
                on,
            } => {
                let op = if *on { "zadd" } else { "zrem" };
                self.edges(&[(
                    op,
                    keys::bookmarks_suffix(user),
                    keys::bookmark_member(mark, post),
                    at.timestamp_millis() as f64,
                )])
                .await
            }
        }
    }

    /// Applies set and sorted-set changes (`(op, key suffix, member, score)`); the key suffix is
    /// also what a rebuild re-reads if it was running.
    async fn edges(&self, ops: &[(&str, String, String, f64)]) -> anyhow::Result<()> {
        let mut inv = EDGE.prepare_invoke();
        inv.arg(self.namespace());
        for (op, suffix, member, score) in ops {
            inv.arg(*op)
                .arg(suffix)
                .arg(member)
                .arg(keys::format_score(*score))
                .arg(suffix);
        }
        let mut pipe = redis::pipe();
        pipe.invoke_script(&inv).ignore();
        self.query::<()>(&pipe).await?;
        Ok(())
    }

    /// Refreshes one post from its record, into the current generation (`target` `None`: also
    /// recorded as touched for a rebuild) or into `target` (the rebuild's own refreshes).
    /// Returns the change stream entry id (empty when nothing was applied).
    pub(super) async fn refresh_post(
        &self,
        id: ObjectId,
        target: Option<&Gen>,
    ) -> anyhow::Result<String> {
        let ns = self.namespace().to_string();
        let seq: i64 = self
            .inner
            .redis
            .run_if_up(|mut c| async move { c.hincr(format!("{ns}ix:seq"), id.to_hex(), 1).await })
            .await?;
        let post = posts::find_by_id(self.db(), id).await?;
        let mut pipe = redis::pipe();
        pipe.invoke_script(&apply_invocation(
            self.namespace(),
            id,
            seq,
            post.as_ref(),
            target,
        ));
        let (entry,): (String,) = self.query(&pipe).await?;
        Ok(entry)
    }

    /// Drops a category's cached card and slug.
    async fn forget_category(&self, id: &ObjectId) -> Result<(), RedisFailure> {
        let ns = self.namespace().to_string();
        let key = super::cards::category_key(&ns, id);
        let cached: Option<String> = self
            .inner
            .redis
            .run_if_up(|mut c| {
                let key = key.clone();
                async move { c.get(key).await }
            })
            .await?;
        let mut pipe = redis::pipe();
        pipe.del(&key).ignore();
        if let Some(slug) = cached
            .and_then(|c| serde_json::from_str::<crate::post_view::CategoryRef>(&c).ok())
            .map(|c| c.slug)
        {
            pipe.del(super::cards::category_slug_key(&ns, &slug))
                .ignore();
        }
        self.query::<()>(&pipe).await
    }
}

/// A stream entry id (`ms-seq`) as a number pair, for ordering.
fn stream_order(entry: &str) -> (u64, u64) {
    entry
        .split_once('-')
        .and_then(|(ms, seq)| Some((ms.parse().ok()?, seq.parse().ok()?)))
        .unwrap_or((0, 0))
}

/// The apply script's call for a post (`None`: it is gone).
pub(super) fn apply_invocation<'a>(
    namespace: &str,
    id: ObjectId,
    seq: i64,
    post: Option<&Post>,
    target: Option<&Gen>,
) -> redis::ScriptInvocation<'a> {
    let mut inv = APPLY.prepare_invoke();
    inv.arg(namespace)
        .arg(id.to_hex())
        .arg(seq)
        .arg(if post.is_some() { "put" } else { "del" })
        .arg(target.map(|g| g.number.to_string()).unwrap_or_default());
    if let Some(post) = post {
        let lists = keys::lists_of(post);
        inv.arg(keys::member(post.created_at.timestamp_millis(), &post.id))
            .arg(&post.slug)
            .arg(lists.len());
        for (name, score) in &lists {
            inv.arg(name).arg(keys::format_score(*score));
        }
        for (field, value) in keys::card_fields(post) {
            inv.arg(field).arg(value);
        }
    }
    inv
}
