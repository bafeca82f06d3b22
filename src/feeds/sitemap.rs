//! What sitemaps need from the index: a page of the public list, newest first, with each post's
//! slug, author, category, tags and times, read from the post hashes (never the cards), so a
//! sitemap page costs the same whatever the site's size.

use deadpool_redis::redis;
use mongodb::bson::oid::ObjectId;

use super::keys::{self, Gen, LIST_SEP};
use super::Feeds;
use crate::redis_pool::RedisResult;

/// One listable post as a sitemap names it.
#[derive(Debug, Clone, PartialEq)]
pub struct SitemapPost {
    pub id: ObjectId,
    pub slug: String,
    pub author: ObjectId,
    pub category: Option<ObjectId>,
    pub tags: Vec<String>,
    /// Last change (ms): `updatedAt`, or `createdAt` for entries written before it was stored.
    pub modified_ms: i64,
}

/// The stored fields a sitemap reads, in this order.
const FIELDS: [&str; 6] = ["slug", "a", "c", "tg", "u", "t"];

impl Feeds {
    /// How many posts anyone may find.
    pub async fn public_count(&self, gen: &Gen) -> RedisResult<u64> {
        let mut pipe = redis::pipe();
        pipe.cmd("ZCARD").arg(gen.list(keys::PUBLIC_NEW));
        let (n,): (u64,) = self.query(&pipe).await?;
        Ok(n)
    }

    /// Posts `skip..skip + size` of the public list, newest first.
    pub async fn sitemap_posts(
        &self,
        gen: &Gen,
        skip: usize,
        size: usize,
    ) -> RedisResult<Vec<SitemapPost>> {
        if size == 0 {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        pipe.cmd("ZREVRANGE")
            .arg(gen.list(keys::PUBLIC_NEW))
            .arg(skip)
            .arg(skip + size - 1);
        let (members,): (Vec<String>,) = self.query(&pipe).await?;
        let ids: Vec<ObjectId> = members.iter().filter_map(|m| keys::member_id(m)).collect();
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(1000) {
            let mut pipe = redis::pipe();
            for id in chunk {
                pipe.cmd("HMGET").arg(gen.post(id)).arg(&FIELDS[..]);
            }
            let rows: Vec<Vec<Option<String>>> = self.query(&pipe).await?;
            for (id, row) in chunk.iter().zip(rows) {
                if let Some(post) = sitemap_post(*id, row) {
                    out.push(post);
                }
            }
        }
        Ok(out)
    }
}

fn sitemap_post(id: ObjectId, row: Vec<Option<String>>) -> Option<SitemapPost> {
    let mut row = row.into_iter();
    let slug = row.next()??;
    let author = ObjectId::parse_str(row.next()??).ok()?;
    let category = row
        .next()
        .flatten()
        .and_then(|c| ObjectId::parse_str(c).ok());
    let tags = row
        .next()
        .flatten()
        .map(|t| {
            t.split(LIST_SEP)
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let updated = row.next().flatten().and_then(|u| u.parse().ok());
    let created = row.next().flatten().and_then(|t| t.parse().ok());
    Some(SitemapPost {
        id,
        slug,
        author,
        category,
        tags,
        modified_ms: updated.or(created).unwrap_or(0),
    })
}
