//! Rebuilding the index from the records into a new generation, while the current one (if any)
//! keeps serving and writes keep being applied to it.
//!
//! 1. Take the rebuild lock (one rebuild at a time across processes), start generation N as
//!    `ix:bld`, and clear the stale mark in the database (a write missed from now on marks it
//!    again). From now on every change applied to the current generation is also recorded as
//!    touched for N.
//! 2. Read every post, follow, block and bookmark and write them into N. A post is written with
//!    the sequence number it had before the reading started, so any refresh that read later wins.
//! 3. Re-read everything touched meanwhile, then switch N to current atomically unless something
//!    was touched again (then repeat step 3). Old generations are deleted shortly after.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use deadpool_redis::redis::{self, AsyncCommands};
use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;

use super::keys::{self, Gen};
use super::scripts::SWITCH;
use super::write::apply_invocation;
use super::Feeds;
use crate::persistence::{bookmarks, graph, index_state, likes, posts};

/// The rebuild lock expires unless renewed, so a crashed rebuild does not block others for long.
const LOCK_TTL: Duration = Duration::from_secs(60);
const LOCK_RENEW: Duration = Duration::from_secs(20);
/// Posts written to Redis per round trip.
const BATCH: usize = 500;
/// Old generations are deleted this long after a switch (readers may still hold them).
const OLD_GENERATION_GRACE: Duration = Duration::from_secs(30);
/// Time limit of one long Redis operation of a rebuild (reading every sequence number, scanning
/// the keys of old generations).
const LONG_OPERATION: Duration = Duration::from_secs(120);

/// What a rebuild did.
#[derive(Debug, Clone, Default)]
pub struct RebuildReport {
    pub generation: u64,
    pub posts: u64,
    pub follows: u64,
    pub blocks: u64,
    pub bookmarks: u64,
    /// Changes that arrived during the rebuild and were re-read.
    pub touched: u64,
    pub seconds: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    #[error("another rebuild is running")]
    Busy,
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

impl From<crate::redis_pool::RedisFailure> for RebuildError {
    fn from(e: crate::redis_pool::RedisFailure) -> Self {
        RebuildError::Failed(e.into())
    }
}

impl Feeds {
    /// Rebuilds the whole index from the records; `Busy` when another rebuild runs.
    pub async fn rebuild(&self) -> Result<RebuildReport, RebuildError> {
        if !self.inner.redis.is_configured() {
            return Err(anyhow::anyhow!("Redis is not configured (redis.url / REDIS_URL)").into());
        }
        let _local = self
            .inner
            .rebuilding
            .try_lock()
            .map_err(|_| RebuildError::Busy)?;
        let ns = self.namespace().to_string();
        let token = ObjectId::new().to_hex();
        let lock_key = format!("{ns}ix:lock");
        let acquired: Option<String> = self
            .inner
            .redis
            .run({
                let (lock_key, token) = (lock_key.clone(), token.clone());
                |mut c| async move {
                    redis::cmd("SET")
                        .arg(lock_key)
                        .arg(token)
                        .arg("NX")
                        .arg("PX")
                        .arg(LOCK_TTL.as_millis() as u64)
                        .query_async(&mut c)
                        .await
                }
            })
            .await?;
        if acquired.is_none() {
            return Err(RebuildError::Busy);
        }
        let renewal = {
            let redis = self.inner.redis.clone();
            let (lock_key, token) = (lock_key.clone(), token.clone());
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(LOCK_RENEW).await;
                    let (k, t) = (lock_key.clone(), token.clone());
                    let _ = redis
                        .run(|mut c| async move {
                            let held: Option<String> = c.get(&k).await?;
                            if held.as_deref() == Some(t.as_str()) {
                                let _: bool = c.pexpire(&k, LOCK_TTL.as_millis() as i64).await?;
                            }
                            Ok(())
                        })
                        .await;
                }
            })
        };
        let result = self.build().await;
        renewal.abort();
        let _ = self
            .inner
            .redis
            .run(|mut c| async move {
                let held: Option<String> = c.get(&lock_key).await?;
                if held.as_deref() == Some(token.as_str()) {
                    let _: () = c.del(&lock_key).await?;
                }
                Ok(())
            })
            .await;
        result.map_err(RebuildError::Failed)
    }

    async fn build(&self) -> anyhow::Result<RebuildReport> {
        let started = Instant::now();
        let ns = self.namespace().to_string();
        let redis = &self.inner.redis;
        self.inner
            .needs_rebuild
            .store(false, std::sync::atomic::Ordering::SeqCst);
        self.inner
            .stale_recorded
            .store(false, std::sync::atomic::Ordering::SeqCst);
        index_state::clear_stale(self.db()).await?;

        let number: u64 = {
            let ns = ns.clone();
            redis
                .run(|mut c| async move {
                    let n: u64 = c.incr(format!("{ns}ix:gen"), 1).await?;
                    let _: () = c.set(format!("{ns}ix:bld"), n).await?;
                    let _: () = c.del(format!("{ns}ix:touched:{n}")).await?;
                    Ok(n)
                })
                .await?
        };
        let gen = Gen::new(&ns, number);
        let mut report = RebuildReport {
            generation: number,
            ..Default::default()
        };
        self.delete_generations_except(&[number], true).await?;

        // The sequence numbers before anything is read.
        let seqs: HashMap<String, i64> = {
            let key = format!("{ns}ix:seq");
            redis
                .run_for(LONG_OPERATION, |mut c| async move { c.hgetall(key).await })
                .await?
        };

        // Posts.
        let mut cursor = posts::stream_all(self.bulk_db()).await?;
        let mut batch: Vec<posts::Post> = Vec::with_capacity(BATCH);
        loop {
            let next = cursor.try_next().await?;
            let end = next.is_none();
            if let Some(post) = next {
                batch.push(post);
            }
            if batch.len() >= BATCH || (end && !batch.is_empty()) {
                let mut pipe = redis::pipe();
                for post in &batch {
                    let seq = seqs.get(&post.id.to_hex()).copied().unwrap_or(0);
                    pipe.invoke_script(&apply_invocation(
                        &ns,
                        post.id,
                        seq,
                        Some(post),
                        Some(&gen),
                    ))
                    .ignore();
                }
                self.query_bulk::<()>(LONG_OPERATION, &pipe).await?;
                report.posts += batch.len() as u64;
                batch.clear();
            }
            if end {
                break;
            }
        }

        // The social graph and bookmarks.
        let follows = graph::all_follows(self.bulk_db()).await?;
        report.follows = follows.len() as u64;
        for chunk in follows.chunks(BATCH) {
            let mut pipe = redis::pipe();
            for (follower, followee) in chunk {
                pipe.sadd(gen.follows(follower), followee.to_hex()).ignore();
            }
            self.query_bulk::<()>(LONG_OPERATION, &pipe).await?;
        }
        let blocks = graph::all_blocks(self.bulk_db()).await?;
        report.blocks = blocks.len() as u64;
        for chunk in blocks.chunks(BATCH) {
            let mut pipe = redis::pipe();
            for (blocker, blocked) in chunk {
                pipe.sadd(gen.blocked_by(blocker), blocked.to_hex())
                    .ignore();
                pipe.sadd(gen.blockers_of(blocked), blocker.to_hex())
                    .ignore();
            }
            self.query_bulk::<()>(LONG_OPERATION, &pipe).await?;
        }
        let marks = likes::all_marks(self.bulk_db(), bookmarks::BOOKMARK, None).await?;
        report.bookmarks = marks.len() as u64;
        for chunk in marks.chunks(BATCH) {
            let mut pipe = redis::pipe();
            for (user, post, mark, at) in chunk {
                pipe.zadd(
                    gen.bookmarks(user),
                    keys::bookmark_member(mark, post),
                    at.timestamp_millis() as f64,
                )
                .ignore();
            }
            self.query_bulk::<()>(LONG_OPERATION, &pipe).await?;
        }

        // What changed meanwhile, then the switch.
        loop {
            loop {
                let key = format!("{ns}ix:touched:{number}");
                let items: Vec<String> = redis
                    .run(|mut c| async move {
                        redis::cmd("SPOP")
                            .arg(key)
                            .arg(BATCH)
                            .query_async(&mut c)
                            .await
                    })
                    .await?;
                if items.is_empty() {
                    break;
                }
                report.touched += items.len() as u64;
                for item in items {
                    self.reread(&gen, &item).await?;
                }
            }
            let mut pipe = redis::pipe();
            pipe.invoke_script(SWITCH.prepare_invoke().arg(&ns).arg(number));
            let (outcome,): (i64,) = self.query(&pipe).await?;
            match outcome {
                -1 => continue,
                -2 => anyhow::bail!("another rebuild replaced this one"),
                old => {
                    self.set_current(Some(gen.clone()));
                    if old > 0 {
                        let feeds = self.clone();
                        tokio::spawn(async move {
                            tokio::time::sleep(OLD_GENERATION_GRACE).await;
                            if let Err(e) = feeds.delete_generations_except(&[number], false).await
                            {
                                tracing::debug!(error = %e, "could not delete an old index generation");
                            }
                        });
                    }
                    break;
                }
            }
        }
        report.seconds = started.elapsed().as_secs_f64();
        crate::metrics::INDEX_REBUILD
            .with_label_values(&["read"])
            .observe(report.seconds);
        Ok(report)
    }

    /// Re-reads one touched item from the records into the generation being built.
    async fn reread(&self, gen: &Gen, item: &str) -> anyhow::Result<()> {
        let Some((kind, id)) = item.split_once(':') else {
            return Ok(());
        };
        let Ok(id) = ObjectId::parse_str(id) else {
            return Ok(());
        };
        let mut pipe = redis::pipe();
        match kind {
            "p" => {
                self.refresh_post(id, Some(gen)).await?;
                return Ok(());
            }
            "fw" => {
                let key = gen.follows(&id);
                pipe.del(&key).ignore();
                for f in graph::followed(self.db(), id).await? {
                    pipe.sadd(&key, f.to_hex()).ignore();
                }
            }
            "bo" => {
                let key = gen.blocked_by(&id);
                pipe.del(&key).ignore();
                for b in graph::blocked_by(self.db(), id).await? {
                    pipe.sadd(&key, b.to_hex()).ignore();
                }
            }
            "bi" => {
                let key = gen.blockers_of(&id);
                pipe.del(&key).ignore();
                for b in graph::blockers_of(self.db(), id).await? {
                    pipe.sadd(&key, b.to_hex()).ignore();
                }
            }
            "bm" => {
                let key = gen.bookmarks(&id);
                pipe.del(&key).ignore();
                for (_, post, mark, at) in
                    likes::all_marks(self.db(), bookmarks::BOOKMARK, Some(id)).await?
                {
                    pipe.zadd(
                        &key,
                        keys::bookmark_member(&mark, &post),
                        at.timestamp_millis() as f64,
                    )
                    .ignore();
                }
            }
            _ => return Ok(()),
        }
        self.query::<()>(&pipe).await?;
        Ok(())
    }

    /// Deletes every generation but those named and the current one (and, with
    /// `including_building`, a generation a crashed rebuild left behind).
    async fn delete_generations_except(
        &self,
        keep: &[u64],
        including_building: bool,
    ) -> anyhow::Result<()> {
        let ns = self.namespace().to_string();
        let redis = &self.inner.redis;
        let (cur, bld): (Option<u64>, Option<u64>) = {
            let ns = ns.clone();
            redis
                .run(|mut c| async move {
                    redis::pipe()
                        .get(format!("{ns}ix:cur"))
                        .get(format!("{ns}ix:bld"))
                        .query_async(&mut c)
                        .await
                })
                .await?
        };
        let mut kept: Vec<u64> = keep.to_vec();
        kept.extend(cur);
        if !including_building {
            kept.extend(bld);
        }
        let pattern = format!("{ns}g*");
        let doomed: Vec<String> = redis
            .run_for(LONG_OPERATION, |mut c| async move {
                let mut found = Vec::new();
                let mut iter = c.scan_match::<_, String>(pattern).await?;
                while let Some(key) = futures_util::StreamExt::next(&mut iter).await {
                    found.push(key?);
                }
                Ok(found)
            })
            .await?;
        let doomed: Vec<String> = doomed
            .into_iter()
            .filter(|key| {
                let number = key
                    .strip_prefix(&ns)
                    .and_then(|k| k.strip_prefix('g'))
                    .and_then(|k| k.split(':').next())
                    .and_then(|n| n.parse::<u64>().ok());
                number.is_some_and(|n| !kept.contains(&n))
            })
            .collect();
        for chunk in doomed.chunks(BATCH) {
            let chunk = chunk.to_vec();
            redis
                .run(|mut c| async move { c.unlink::<_, ()>(chunk).await })
                .await?;
        }
        Ok(())
    }
}

impl Feeds {
    /// Everything in the current generation but the sequence numbers, by key (without the
    /// generation prefix), each value in a canonical text form: what the equivalence tests compare
    /// between the index kept by writes and a rebuilt one.
    pub async fn snapshot(&self) -> anyhow::Result<std::collections::BTreeMap<String, String>> {
        let ns = self.namespace().to_string();
        let redis = &self.inner.redis;
        let cur: Option<u64> = {
            let ns = ns.clone();
            redis
                .run(|mut c| async move { c.get(format!("{ns}ix:cur")).await })
                .await?
        };
        let Some(number) = cur else {
            anyhow::bail!("there is no read index");
        };
        let gen = Gen::new(&ns, number);
        let prefix = gen.prefix().to_string();
        let pattern = format!("{prefix}*");
        let found: Vec<String> = redis
            .run_for(LONG_OPERATION, |mut c| async move {
                let mut found = Vec::new();
                let mut iter = c.scan_match::<_, String>(pattern).await?;
                while let Some(key) = futures_util::StreamExt::next(&mut iter).await {
                    found.push(key?);
                }
                Ok(found)
            })
            .await?;
        let mut out = std::collections::BTreeMap::new();
        for key in found {
            let name = key.strip_prefix(&prefix).unwrap_or(&key).to_string();
            if name == "q" {
                continue;
            }
            let k = key.clone();
            let value: String = redis
                .run_for(LONG_OPERATION, |mut c| async move {
                    let kind: String = redis::cmd("TYPE").arg(&k).query_async(&mut c).await?;
                    Ok(match kind.as_str() {
                        "zset" => {
                            let v: Vec<(String, String)> = c.zrange_withscores(&k, 0, -1).await?;
                            format!("{v:?}")
                        }
                        "hash" => {
                            let v: std::collections::BTreeMap<String, String> =
                                c.hgetall(&k).await?;
                            format!("{v:?}")
                        }
                        "set" => {
                            let mut v: Vec<String> = c.smembers(&k).await?;
                            v.sort();
                            format!("{v:?}")
                        }
                        "string" => {
                            let v: String = c.get(&k).await?;
                            v
                        }
                        other => format!("<{other}>"),
                    })
                })
                .await?;
            out.insert(name, value);
        }
        Ok(out)
    }
}
