//! Lookups in the index beside the lists: scheduled posts that are due, counts by sorted-set
//! arithmetic, the users a viewer's feeds depend on, bookmarks, post filters and trending inputs.

use std::collections::HashSet;

use deadpool_redis::redis;
use mongodb::bson::oid::ObjectId;

use super::keys::{self, Gen};
use super::read::{Entry, Filter};
use super::Feeds;
use crate::redis_pool::RedisResult;

impl Feeds {
    /// Scheduled posts whose time has come (at most `posts::MAX_DUE_PER_ROUND`).
    pub async fn due_scheduled(
        &self,
        at: mongodb::bson::DateTime,
    ) -> super::cards::ReadResult<Vec<ObjectId>> {
        let Some(gen) = self.current() else {
            return Err(crate::redis_pool::RedisFailure::Down.into());
        };
        let mut pipe = redis::pipe();
        pipe.cmd("ZRANGEBYSCORE")
            .arg(gen.list(keys::SCHEDULED))
            .arg("-inf")
            .arg(at.timestamp_millis())
            .arg("LIMIT")
            .arg(0)
            .arg(crate::persistence::posts::MAX_DUE_PER_ROUND);
        let (members,): (Vec<String>,) = self.query(&pipe).await?;
        Ok(members.iter().filter_map(|m| keys::member_id(m)).collect())
    }
}

/// A count sorted-set arithmetic gives.
#[derive(Debug, Clone)]
pub enum Count {
    /// Members of a list.
    Card(String),
    /// Members in all of these lists.
    Inter(Vec<String>),
}

/// The sets of users a viewer's feeds depend on.
#[derive(Debug, Clone, Default)]
pub struct ViewerGraph {
    /// Users on either side of a block with the viewer.
    pub hidden: HashSet<ObjectId>,
    /// Users the viewer follows.
    pub followees: Vec<ObjectId>,
}

impl Feeds {
    /// Runs counts in one round trip.
    pub async fn counts(&self, counts: &[Count]) -> RedisResult<Vec<u64>> {
        if counts.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for c in counts {
            match c {
                Count::Card(key) => {
                    pipe.cmd("ZCARD").arg(key);
                }
                Count::Inter(keys) => {
                    pipe.cmd("ZINTERCARD").arg(keys.len()).arg(keys);
                }
            }
        }
        self.query(&pipe).await
    }

    /// Whom the viewer must not see, and (with `followees`) whom they follow.
    pub async fn viewer_graph(
        &self,
        gen: &Gen,
        viewer: ObjectId,
        followees: bool,
    ) -> RedisResult<ViewerGraph> {
        let mut pipe = redis::pipe();
        pipe.cmd("SMEMBERS").arg(gen.blocked_by(&viewer));
        pipe.cmd("SMEMBERS").arg(gen.blockers_of(&viewer));
        if followees {
            pipe.cmd("SMEMBERS").arg(gen.follows(&viewer));
        }
        let sets: Vec<Vec<String>> = self.query(&pipe).await?;
        let parse = |v: &Vec<String>| -> Vec<ObjectId> {
            v.iter()
                .filter_map(|id| ObjectId::parse_str(id).ok())
                .collect()
        };
        let mut graph = ViewerGraph::default();
        for set in sets.iter().take(2) {
            graph.hidden.extend(parse(set));
        }
        if let Some(f) = sets.get(2) {
            let mut f = parse(f);
            f.sort();
            graph.followees = f;
        }
        Ok(graph)
    }

    /// A user's bookmarked posts, most recent bookmark first (at most `limit`).
    pub async fn bookmarked(
        &self,
        gen: &Gen,
        user: ObjectId,
        limit: usize,
    ) -> RedisResult<Vec<ObjectId>> {
        let mut pipe = redis::pipe();
        pipe.cmd("ZREVRANGE")
            .arg(gen.bookmarks(&user))
            .arg(0)
            .arg(limit.saturating_sub(1));
        let (members,): (Vec<String>,) = self.query(&pipe).await?;
        Ok(members
            .iter()
            .filter_map(|m| keys::bookmark_post(m))
            .collect())
    }

    /// Which of these posts pass a filter, in order.
    pub async fn filter_posts(
        &self,
        gen: &Gen,
        ids: &[ObjectId],
        filter: &Filter,
    ) -> RedisResult<Vec<ObjectId>> {
        let entries: Vec<(ObjectId, Entry)> = ids
            .iter()
            .map(|id| {
                (
                    *id,
                    Entry {
                        score: 0.0,
                        member: keys::member(0, id),
                    },
                )
            })
            .filter(|(_, e)| filter.accepts_entry(e))
            .collect();
        let ids: Vec<ObjectId> = entries.iter().map(|(id, _)| *id).collect();
        let metas = self.metas(gen, &ids, filter.text.is_some()).await?;
        Ok(ids
            .into_iter()
            .zip(metas)
            .filter(|(_, m)| filter.accepts_meta(m))
            .map(|(id, _)| id)
            .collect())
    }
}

impl Feeds {
    /// The trending inputs of every post in the public lists, from their stored fields.
    pub async fn trending_inputs(
        &self,
    ) -> super::cards::ReadResult<Vec<crate::persistence::posts::TrendingInput>> {
        use crate::persistence::posts::TrendingInput;
        const STEP: isize = 1000;
        let Some(gen) = self.current() else {
            return Err(crate::redis_pool::RedisFailure::Down.into());
        };
        let list = gen.list(keys::PUBLIC_NEW);
        let mut out = Vec::new();
        let mut start: isize = 0;
        loop {
            let mut pipe = redis::pipe();
            pipe.cmd("ZRANGE")
                .arg(&list)
                .arg(start)
                .arg(start + STEP - 1);
            let (members,): (Vec<String>,) = self.query(&pipe).await?;
            if members.is_empty() {
                break;
            }
            let ids: Vec<ObjectId> = members.iter().filter_map(|m| keys::member_id(m)).collect();
            let mut pipe = redis::pipe();
            for id in &ids {
                pipe.cmd("HMGET")
                    .arg(gen.post(id))
                    .arg(&["t", "lk", "cm", "sh", "bk", "vw", "tr"]);
            }
            let rows: Vec<Vec<Option<String>>> = self.query(&pipe).await?;
            for (id, row) in ids.into_iter().zip(rows) {
                let num = |i: usize| -> i64 {
                    row.get(i)
                        .and_then(|v| v.as_deref())
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0)
                };
                if row.first().is_none_or(|t| t.is_none()) {
                    continue;
                }
                out.push(TrendingInput {
                    id,
                    created_at: mongodb::bson::DateTime::from_millis(num(0)),
                    likes: num(1),
                    comments: num(2),
                    shares: num(3),
                    bookmarks: num(4),
                    views: num(5),
                    stored: row
                        .get(6)
                        .and_then(|v| v.as_deref())
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0.0),
                });
            }
            if members.len() < STEP as usize {
                break;
            }
            start += STEP;
        }
        Ok(out)
    }
}
