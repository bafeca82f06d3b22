//! Reading lists from the index: one page of a sorted set, or of several merged (the following
//! feed), with the database's exact order and cursor rules, leaving out what a viewer must not
//! see; and the post cards of a page.
//!
//! The rules mirror `persistence::posts::list` (the database path), which the equivalence tests
//! hold them to: `after` + `afterId` is a keyset; `after` alone is strictly older (newer for
//! ascending lists) and a page never ends inside a group of equal timestamps; score orders
//! (trending, popular) continue after the anchor post of `after`; numbered pages skip.

use std::collections::HashSet;

use deadpool_redis::redis::{self, FromRedisValue, Pipeline, Value};
use mongodb::bson::oid::ObjectId;

use super::keys::{self, Gen};
use super::scripts::AFTER;
use super::Feeds;
use crate::persistence::posts::{PageRequest, SortKind, MAX_TIE_EXTENSION};
use crate::redis_pool::RedisResult;

/// Most entries fetched from one source in one round trip.
const CHUNK_MAX: usize = 500;
/// Entries fetched at first when looking for the rest of a group of equal scores.
const TIE_CHUNK: usize = 16;

/// Direction of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// Highest score first (newest, trending, popular).
    Desc,
    /// Lowest score first (oldest).
    Asc,
}

/// One entry of a list.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub score: f64,
    pub member: String,
}

impl Entry {
    pub fn id(&self) -> Option<ObjectId> {
        keys::member_id(&self.member)
    }

    fn pos(&self) -> Pos {
        Pos {
            score: self.score,
            member: Some(self.member.clone()),
        }
    }
}

/// A position in a list: after the entry (score, member), or, without a member, after every
/// entry of that score.
#[derive(Debug, Clone, PartialEq)]
pub struct Pos {
    pub score: f64,
    pub member: Option<String>,
}

/// What a list leaves out, checked against each post's stored fields.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Posts by these authors (either side of a block with the viewer).
    pub hidden_authors: HashSet<ObjectId>,
    /// Only posts in this category.
    pub category: Option<ObjectId>,
    /// Leave out posts in this category.
    pub not_category: Option<ObjectId>,
    /// Only posts whose search text contains this (normalised) text.
    pub text: Option<String>,
    /// Leave out these posts.
    pub exclude_ids: HashSet<ObjectId>,
    /// Leave out posts with these slugs.
    pub exclude_slugs: HashSet<String>,
    /// Only posts created before this instant (ms).
    pub created_before: Option<i64>,
    /// Only posts anyone may find in lists, or by this user (bookmarks).
    pub listable_or_by: Option<ObjectId>,
}

/// The stored fields filters read, in this order.
const META_FIELDS: [&str; 7] = ["a", "c", "st", "slug", "s", "vi", "b"];

impl Filter {
    fn needs_meta(&self) -> bool {
        !self.hidden_authors.is_empty()
            || self.category.is_some()
            || self.not_category.is_some()
            || self.text.is_some()
            || !self.exclude_slugs.is_empty()
            || self.listable_or_by.is_some()
    }

    pub(super) fn accepts_entry(&self, entry: &Entry) -> bool {
        if let Some(before) = self.created_before {
            if keys::member_ts(&entry.member).is_none_or(|ts| ts >= before) {
                return false;
            }
        }
        entry.id().is_some_and(|id| !self.exclude_ids.contains(&id))
    }

    /// Whether a post with these stored fields (`META_FIELDS`; `None` when the post is gone)
    /// passes.
    pub(super) fn accepts_meta(&self, meta: &[Option<String>]) -> bool {
        let field = |i: usize| meta.get(i).and_then(|v| v.as_deref());
        let Some(author) = field(0).and_then(|a| ObjectId::parse_str(a).ok()) else {
            return false;
        };
        if self.hidden_authors.contains(&author) {
            return false;
        }
        let category = field(1).unwrap_or("");
        if let Some(c) = &self.category {
            if category != c.to_hex() {
                return false;
            }
        }
        if let Some(c) = &self.not_category {
            if category == c.to_hex() {
                return false;
            }
        }
        if let Some(text) = &self.text {
            if !field(2).unwrap_or("").contains(text.as_str()) {
                return false;
            }
        }
        if !self.exclude_slugs.is_empty() && self.exclude_slugs.contains(field(3).unwrap_or("")) {
            return false;
        }
        if let Some(me) = &self.listable_or_by {
            let listable = field(4) == Some("published")
                && field(5) == Some("Public")
                && field(6) == Some("0");
            if !listable && author != *me {
                return false;
            }
        }
        true
    }
}

/// A list to read: one or more sorted sets (merged; they never share a post) in one direction.
#[derive(Debug, Clone)]
pub struct ListQuery {
    pub sources: Vec<String>,
    /// For score orders: the time list of each source, where `after` finds its anchor.
    pub twins: Vec<String>,
    pub dir: Dir,
    pub filter: Filter,
}

/// Where a page starts.
#[derive(Debug, Clone)]
enum Start {
    Skip(usize),
    After(Pos),
}

fn parse_entries(value: Value) -> RedisResult<Vec<Entry>> {
    let flat: Vec<String> = FromRedisValue::from_redis_value(value)
        .map_err(|e| crate::redis_pool::RedisFailure::Parse(e.to_string()))?;
    Ok(flat
        .chunks_exact(2)
        .filter_map(|pair| {
            Some(Entry {
                member: pair[0].clone(),
                score: pair[1].parse().ok()?,
            })
        })
        .collect())
}

/// Whether `a` comes before `b` in the direction.
fn before(dir: Dir, a: &Entry, b: &Entry) -> bool {
    let ord = a
        .score
        .total_cmp(&b.score)
        .then_with(|| a.member.cmp(&b.member));
    match dir {
        Dir::Desc => ord.is_gt(),
        Dir::Asc => ord.is_lt(),
    }
}

impl Feeds {
    /// Up to `n` entries after each source's position, in one round trip.
    async fn fetch(
        &self,
        sources: &[String],
        dir: Dir,
        positions: &[Option<Pos>],
        skip: usize,
        n: usize,
    ) -> RedisResult<Vec<Vec<Entry>>> {
        let mut pipe = redis::pipe();
        for (key, pos) in sources.iter().zip(positions) {
            match pos {
                None => {
                    let (start, stop) = (skip as isize, (skip + n) as isize - 1);
                    let name = if dir == Dir::Desc {
                        "ZREVRANGE"
                    } else {
                        "ZRANGE"
                    };
                    pipe.cmd(name)
                        .arg(key)
                        .arg(start)
                        .arg(stop)
                        .arg("WITHSCORES");
                }
                Some(p) => {
                    pipe.invoke_script(
                        AFTER
                            .key(key)
                            .arg(if dir == Dir::Desc { "d" } else { "a" })
                            .arg(keys::format_score(p.score))
                            .arg(p.member.as_deref().unwrap_or(""))
                            .arg(n),
                    );
                }
            }
        }
        let values: Vec<Value> = self.query(&pipe).await?;
        values.into_iter().map(parse_entries).collect()
    }

    /// The filter fields of these posts (`None` inside for posts that are gone).
    pub(super) async fn metas(
        &self,
        gen: &Gen,
        ids: &[ObjectId],
        with_text: bool,
    ) -> RedisResult<Vec<Vec<Option<String>>>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for id in ids {
            let fields: Vec<&str> = META_FIELDS
                .iter()
                .map(|f| if *f == "st" && !with_text { "-" } else { *f })
                .collect();
            pipe.cmd("HMGET").arg(gen.post(id)).arg(fields);
        }
        self.query(&pipe).await
    }

    /// Up to `limit` entries of the list from `start`, leaving out what the filter refuses. With
    /// `same_score`, only entries of that score (the rest of a group of ties).
    async fn collect(
        &self,
        gen: &Gen,
        q: &ListQuery,
        start: Start,
        limit: usize,
        same_score: Option<f64>,
    ) -> RedisResult<Vec<Entry>> {
        let mut out = Vec::new();
        if limit == 0 || q.sources.is_empty() {
            return Ok(out);
        }
        let needs_meta = q.filter.needs_meta();
        let filtered =
            needs_meta || q.filter.created_before.is_some() || !q.filter.exclude_ids.is_empty();
        let (mut to_skip, start_pos) = match start {
            Start::Skip(k) => (k, None),
            Start::After(p) => (0, Some(p)),
        };
        // One sorted set without a filter: skip inside Redis.
        let mut direct_skip = 0;
        if q.sources.len() == 1 && !filtered && start_pos.is_none() {
            direct_skip = to_skip;
            to_skip = 0;
        }
        let mut positions: Vec<Option<Pos>> = vec![start_pos; q.sources.len()];
        let mut done = vec![false; q.sources.len()];
        loop {
            let want = limit - out.len() + to_skip;
            let chunk = match same_score {
                Some(_) => TIE_CHUNK.max(want.min(TIE_CHUNK * 4)),
                None => want.clamp(1, CHUNK_MAX),
            };
            let active: Vec<usize> = (0..q.sources.len()).filter(|i| !done[*i]).collect();
            if active.is_empty() {
                return Ok(out);
            }
            let keys: Vec<String> = active.iter().map(|i| q.sources[*i].clone()).collect();
            let pos: Vec<Option<Pos>> = active.iter().map(|i| positions[*i].clone()).collect();
            let fetched = self.fetch(&keys, q.dir, &pos, direct_skip, chunk).await?;
            direct_skip = 0;
            // Merge: the first `chunk` entries overall are all before anything not fetched yet.
            let mut heads: Vec<(usize, std::vec::IntoIter<Entry>, Option<Entry>)> = Vec::new();
            for (slot, entries) in active.iter().zip(fetched) {
                if entries.len() < chunk {
                    done[*slot] = true;
                }
                let mut it = entries.into_iter();
                let first = it.next();
                heads.push((*slot, it, first));
            }
            let mut taken: Vec<Entry> = Vec::new();
            while taken.len() < chunk {
                let mut best: Option<usize> = None;
                for (i, head) in heads.iter().enumerate() {
                    if let Some(e) = &head.2 {
                        if best.is_none_or(|b| before(q.dir, e, heads[b].2.as_ref().unwrap_or(e))) {
                            best = Some(i);
                        }
                    }
                }
                let Some(b) = best else { break };
                let (slot, it, head) = &mut heads[b];
                let Some(entry) = head.take() else { break };
                *head = it.next();
                positions[*slot] = Some(entry.pos());
                taken.push(entry);
            }
            // Sources whose fetched entries were not all taken are not done.
            for (slot, _, head) in &heads {
                if head.is_some() {
                    done[*slot] = false;
                }
            }
            // Filter.
            let candidates: Vec<Entry> = taken
                .into_iter()
                .filter(|e| q.filter.accepts_entry(e))
                .collect();
            let accepted: Vec<Entry> = if needs_meta {
                let ids: Vec<ObjectId> = candidates.iter().filter_map(Entry::id).collect();
                let metas = self.metas(gen, &ids, q.filter.text.is_some()).await?;
                candidates
                    .into_iter()
                    .zip(metas)
                    .filter(|(_, m)| q.filter.accepts_meta(m))
                    .map(|(e, _)| e)
                    .collect()
            } else {
                candidates
            };
            for entry in accepted {
                if let Some(score) = same_score {
                    if entry.score != score {
                        return Ok(out);
                    }
                }
                if to_skip > 0 {
                    to_skip -= 1;
                    continue;
                }
                out.push(entry);
                if out.len() >= limit {
                    return Ok(out);
                }
            }
        }
    }

    /// One page of a list, by the database's rules (see the module documentation).
    pub async fn page(
        &self,
        gen: &Gen,
        q: &ListQuery,
        sort: SortKind,
        page: PageRequest,
    ) -> RedisResult<Vec<Entry>> {
        let limit = usize::try_from(page.limit).unwrap_or(0);
        let skip = usize::try_from(page.skip).unwrap_or(0);
        let time_order = matches!(sort, SortKind::Newest | SortKind::Oldest);
        if time_order {
            if let (Some(after), Some(after_id)) = (page.after, page.after_id) {
                let ms = after.timestamp_millis();
                let pos = Pos {
                    score: ms as f64,
                    member: Some(keys::member(ms, &after_id)),
                };
                return self.collect(gen, q, Start::After(pos), limit, None).await;
            }
            let start = match page.after {
                Some(after) => Start::After(Pos {
                    score: after.timestamp_millis() as f64,
                    member: None,
                }),
                None => Start::Skip(skip),
            };
            if skip > 0 {
                return self.collect(gen, q, start, limit, None).await;
            }
            // A page never ends inside a group of equal timestamps.
            let mut entries = self.collect(gen, q, start, limit + 1, None).await?;
            if entries.len() <= limit {
                return Ok(entries);
            }
            let extra = entries.pop();
            let Some(last) = entries.last().cloned() else {
                return Ok(entries);
            };
            if extra.is_some_and(|e| e.score == last.score) {
                let group_start = entries
                    .iter()
                    .position(|e| e.score == last.score)
                    .unwrap_or(0);
                if group_start > 0 {
                    entries.truncate(group_start);
                } else {
                    let max = usize::try_from(MAX_TIE_EXTENSION).unwrap_or(500);
                    let rest = self
                        .collect(gen, q, Start::After(last.pos()), max, Some(last.score))
                        .await?;
                    entries.extend(rest);
                }
            }
            return Ok(entries);
        }
        let Some(after) = page.after else {
            return self.collect(gen, q, Start::Skip(skip), limit, None).await;
        };
        // Score orders: continue after the anchor post of `after` (the last one in the list's
        // order among the posts with that createdAt, or the one named by `afterId`).
        let ms = after.timestamp_millis();
        let mut pipe = redis::pipe();
        for twin in &q.twins {
            pipe.cmd("ZRANGEBYSCORE").arg(twin).arg(ms).arg(ms);
        }
        let groups: Vec<Vec<String>> = self.query(&pipe).await?;
        let mut candidates: Vec<(usize, String)> = Vec::new();
        for (source, members) in groups.into_iter().enumerate() {
            for m in members {
                let wanted = match page.after_id {
                    Some(id) => keys::member_id(&m) == Some(id),
                    None => true,
                };
                if wanted {
                    candidates.push((source, m));
                }
            }
        }
        let mut anchor: Option<Entry> = None;
        if !candidates.is_empty() {
            let mut pipe = redis::pipe();
            for (source, m) in &candidates {
                pipe.cmd("ZSCORE").arg(&q.sources[*source]).arg(m);
            }
            let scores: Vec<Option<f64>> = self.query(&pipe).await?;
            let mut found: Vec<Entry> = candidates
                .into_iter()
                .zip(scores)
                .filter_map(|((_, member), score)| {
                    Some(Entry {
                        score: score?,
                        member,
                    })
                })
                .filter(|e| q.filter.accepts_entry(e))
                .collect();
            if q.filter.needs_meta() && !found.is_empty() {
                let ids: Vec<ObjectId> = found.iter().filter_map(Entry::id).collect();
                let metas = self.metas(gen, &ids, q.filter.text.is_some()).await?;
                found = found
                    .into_iter()
                    .zip(metas)
                    .filter(|(_, m)| q.filter.accepts_meta(m))
                    .map(|(e, _)| e)
                    .collect();
            }
            for e in found {
                if anchor.as_ref().is_none_or(|a| before(q.dir, a, &e)) {
                    anchor = Some(e);
                }
            }
        }
        match anchor {
            Some(a) => {
                self.collect(gen, q, Start::After(a.pos()), limit, None)
                    .await
            }
            None => {
                // The anchor is gone (deleted or hidden since): continue with older posts.
                let mut older = q.clone();
                older.filter.created_before = Some(ms);
                self.collect(gen, &older, Start::Skip(0), limit, None).await
            }
        }
    }

    /// Every entry of a list that passes its filter, counted (for totals no sorted-set
    /// arithmetic can give: a text filter, own posts within a category).
    pub async fn count_all(&self, gen: &Gen, q: &ListQuery) -> RedisResult<u64> {
        let all = self
            .collect(gen, q, Start::Skip(0), usize::MAX / 2, None)
            .await?;
        Ok(all.len() as u64)
    }

    /// Runs a pipeline, loading the index's scripts first if Redis lost them.
    pub(crate) async fn query<T: FromRedisValue>(&self, pipe: &Pipeline) -> RedisResult<T> {
        self.query_within(None, pipe).await
    }

    /// Like `query`, within `limit` rather than the configured command timeout: the rebuilds'
    /// bulk loads, which a busy machine may take longer over without Redis being away.
    pub(crate) async fn query_bulk<T: FromRedisValue>(
        &self,
        limit: std::time::Duration,
        pipe: &Pipeline,
    ) -> RedisResult<T> {
        self.query_within(Some(limit), pipe).await
    }

    async fn query_within<T: FromRedisValue>(
        &self,
        limit: Option<std::time::Duration>,
        pipe: &Pipeline,
    ) -> RedisResult<T> {
        let work = |mut conn: deadpool_redis::Connection| async move {
            match pipe.query_async::<T>(&mut conn).await {
                Err(e)
                    if e.kind() == redis::ErrorKind::Server(redis::ServerErrorKind::NoScript) =>
                {
                    super::scripts::load_all(&mut conn).await?;
                    pipe.query_async(&mut conn).await
                }
                other => other,
            }
        };
        match limit {
            None => self.inner.redis.run_if_up(work).await,
            Some(limit) => self.inner.redis.run_for(limit, work).await,
        }
    }
}
