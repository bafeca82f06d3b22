//! Post cards as clients see them: the stored card of each post joined with its author's and
//! category's current card. Author and category cards are cached in Redis (read by `_id` from
//! the database on a miss, dropped when the user or category changes, and expiring after
//! `CACHE_TTL` in any case), so a page touches the database at most once per author or category
//! it has not seen lately, and only by `_id`.

use std::collections::HashMap;
use std::time::Duration;

use deadpool_redis::redis;
use futures_util::future::join_all;
use mongodb::bson::oid::ObjectId;
use serde_json::value::RawValue;

use super::keys::Gen;
use super::Feeds;
use crate::persistence::{categories, users, DbError};
use crate::post_view::{join_card, AuthorView, CategoryRef};
use crate::redis_pool::RedisFailure;

/// How long a cached author or category card lives at most.
pub const CACHE_TTL: Duration = Duration::from_secs(600);

pub fn author_key(ns: &str, id: &ObjectId) -> String {
    format!("{ns}cache:u:{}", id.to_hex())
}

pub fn category_key(ns: &str, id: &ObjectId) -> String {
    format!("{ns}cache:c:{}", id.to_hex())
}

pub fn category_slug_key(ns: &str, slug: &str) -> String {
    format!("{ns}cache:cs:{slug}")
}

/// Why an index read did not answer.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The index cannot answer: read from the database instead.
    #[error(transparent)]
    Index(#[from] RedisFailure),
    /// The database failed while filling a cache.
    #[error(transparent)]
    Db(#[from] DbError),
}

pub type ReadResult<T> = Result<T, ReadError>;

/// What the index holds about one post, as a single post read needs it.
#[derive(Debug, Clone)]
pub struct StoredPost {
    pub id: ObjectId,
    /// The card (JSON of a `CardView`).
    pub card: String,
    pub author: ObjectId,
    pub category: Option<ObjectId>,
    pub status: String,
    pub visibility: String,
    pub blocked: bool,
}

/// The fields of a post hash `StoredPost` reads, in this order.
const STORED_FIELDS: [&str; 6] = ["v", "a", "c", "s", "vi", "b"];

fn stored_post(id: ObjectId, row: Vec<Option<String>>) -> Option<StoredPost> {
    let mut row = row.into_iter();
    let card = row.next()??;
    let author = ObjectId::parse_str(row.next()??).ok()?;
    let category = row
        .next()
        .flatten()
        .and_then(|c| ObjectId::parse_str(c).ok());
    Some(StoredPost {
        id,
        card,
        author,
        category,
        status: row.next().flatten().unwrap_or_default(),
        visibility: row.next().flatten().unwrap_or_default(),
        blocked: row.next().flatten().as_deref() == Some("1"),
    })
}

impl Feeds {
    /// The stored posts with these ids (`None` for posts no longer there).
    pub async fn stored_posts(
        &self,
        gen: &Gen,
        ids: &[ObjectId],
    ) -> ReadResult<Vec<Option<StoredPost>>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for id in ids {
            pipe.cmd("HMGET").arg(gen.post(id)).arg(&STORED_FIELDS[..]);
        }
        let rows: Vec<Vec<Option<String>>> = self.query(&pipe).await?;
        Ok(ids
            .iter()
            .zip(rows)
            .map(|(id, row)| stored_post(*id, row))
            .collect())
    }

    /// The id of the post with this slug.
    pub async fn post_id_by_slug(&self, gen: &Gen, slug: &str) -> ReadResult<Option<ObjectId>> {
        let mut pipe = redis::pipe();
        pipe.cmd("HGET").arg(gen.slugs()).arg(slug);
        let (id,): (Option<String>,) = self.query(&pipe).await?;
        Ok(id.and_then(|id| ObjectId::parse_str(id).ok()))
    }

    /// Which of `slugs` are in use (the slug map, not the collection), in their order: one
    /// `HMGET`, whatever the number of posts.
    pub async fn slugs_taken(&self, gen: &Gen, slugs: &[String]) -> ReadResult<Vec<bool>> {
        if slugs.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        pipe.cmd("HMGET").arg(gen.slugs()).arg(slugs);
        let (ids,): (Vec<Option<String>>,) = self.query(&pipe).await?;
        Ok(ids.iter().map(Option::is_some).collect())
    }

    /// The posts with these ids as clients see them, in this order (posts gone are left out).
    pub async fn render(&self, gen: &Gen, ids: &[ObjectId]) -> ReadResult<Vec<Box<RawValue>>> {
        let stored: Vec<StoredPost> = self
            .stored_posts(gen, ids)
            .await?
            .into_iter()
            .flatten()
            .collect();
        self.render_stored(&stored).await
    }

    /// Joins stored posts with their authors and categories.
    pub async fn render_stored(&self, stored: &[StoredPost]) -> ReadResult<Vec<Box<RawValue>>> {
        let mut author_ids: Vec<ObjectId> = stored.iter().map(|p| p.author).collect();
        author_ids.sort();
        author_ids.dedup();
        let mut category_ids: Vec<ObjectId> = stored.iter().filter_map(|p| p.category).collect();
        category_ids.sort();
        category_ids.dedup();
        let (authors, categories) = futures_util::try_join!(
            self.author_cards(&author_ids),
            self.category_cards(&category_ids)
        )?;
        let mut out = Vec::with_capacity(stored.len());
        for p in stored {
            let author = authors
                .get(&p.author)
                .cloned()
                .unwrap_or_else(|| AuthorView::deleted(&p.author.to_hex()));
            let category = p.category.and_then(|c| categories.get(&c));
            let json = join_card(&p.card, &author, category);
            match RawValue::from_string(json) {
                Ok(raw) => out.push(raw),
                Err(e) => tracing::warn!(post = %p.id, error = %e, "a stored card is not JSON"),
            }
        }
        Ok(out)
    }

    /// Author cards: cached, else read by `_id` (a missing user shows as deleted).
    pub async fn author_cards(
        &self,
        ids: &[ObjectId],
    ) -> ReadResult<HashMap<ObjectId, AuthorView>> {
        let ns = self.namespace().to_string();
        let keys: Vec<String> = ids.iter().map(|id| author_key(&ns, id)).collect();
        self.cached(ids, keys, |db, id| async move {
            Ok(match users::find_by_id(&db, id).await? {
                Some(u) => AuthorView {
                    id: u.id.to_hex(),
                    name: u.name,
                    avatar: u.avatar,
                },
                None => AuthorView::deleted(&id.to_hex()),
            })
        })
        .await
    }

    /// Category cards: cached, else read by `_id` (a missing category is absent).
    pub async fn category_cards(
        &self,
        ids: &[ObjectId],
    ) -> ReadResult<HashMap<ObjectId, CategoryRef>> {
        let ns = self.namespace().to_string();
        let keys: Vec<String> = ids.iter().map(|id| category_key(&ns, id)).collect();
        let found = self
            .cached(ids, keys, |db, id| async move {
                Ok(categories::find_by_id(&db, id).await?.map(|c| CategoryRef {
                    id: c.id.to_hex(),
                    name: c.name,
                    slug: c.slug,
                }))
            })
            .await?;
        Ok(found
            .into_iter()
            .filter_map(|(id, c)| c.map(|c| (id, c)))
            .collect())
    }

    /// A category named by id or slug (`None`: there is none).
    pub async fn find_category(&self, raw: &str) -> ReadResult<Option<ObjectId>> {
        if let Ok(id) = ObjectId::parse_str(raw) {
            return Ok(self
                .category_cards(&[id])
                .await?
                .contains_key(&id)
                .then_some(id));
        }
        let ns = self.namespace().to_string();
        let key = category_slug_key(&ns, raw);
        let mut pipe = redis::pipe();
        pipe.cmd("GET").arg(&key);
        let (cached,): (Option<String>,) = self.query(&pipe).await?;
        if let Some(id) = cached.and_then(|id| ObjectId::parse_str(id).ok()) {
            // The slug may have moved to another category since; the card says.
            if self
                .category_cards(&[id])
                .await?
                .get(&id)
                .is_some_and(|c| c.slug == raw)
            {
                return Ok(Some(id));
            }
        }
        let Some(found) = categories::find_by_slug(self.db(), raw).await? else {
            return Ok(None);
        };
        let mut pipe = redis::pipe();
        pipe.cmd("SET")
            .arg(&key)
            .arg(found.id.to_hex())
            .arg("EX")
            .arg(CACHE_TTL.as_secs())
            .ignore();
        self.query::<()>(&pipe).await?;
        Ok(Some(found.id))
    }

    /// Cache-aside reads of JSON cards: what Redis has, the rest read with `load` and stored.
    async fn cached<T, F, Fut>(
        &self,
        ids: &[ObjectId],
        keys: Vec<String>,
        load: F,
    ) -> ReadResult<HashMap<ObjectId, T>>
    where
        T: serde::Serialize + serde::de::DeserializeOwned,
        F: Fn(crate::persistence::Db, ObjectId) -> Fut,
        Fut: std::future::Future<Output = Result<T, DbError>>,
    {
        let mut out = HashMap::new();
        if ids.is_empty() {
            return Ok(out);
        }
        let mut pipe = redis::pipe();
        pipe.cmd("MGET").arg(&keys);
        let (values,): (Vec<Option<String>>,) = self.query(&pipe).await?;
        let mut missing = Vec::new();
        for ((id, key), value) in ids.iter().zip(&keys).zip(values) {
            match value.and_then(|v| serde_json::from_str::<T>(&v).ok()) {
                Some(card) => {
                    out.insert(*id, card);
                }
                None => missing.push((*id, key.clone())),
            }
        }
        if missing.is_empty() {
            return Ok(out);
        }
        let loaded = join_all(missing.iter().map(|(id, _)| load(self.db().clone(), *id))).await;
        let mut pipe = redis::pipe();
        for ((id, key), card) in missing.into_iter().zip(loaded) {
            let card = card?;
            if let Ok(json) = serde_json::to_string(&card) {
                pipe.cmd("SET")
                    .arg(key)
                    .arg(json)
                    .arg("EX")
                    .arg(CACHE_TTL.as_secs())
                    .ignore();
            }
            out.insert(id, card);
        }
        self.query::<()>(&pipe).await?;
        Ok(out)
    }
}

impl Feeds {
    /// The sealed blocks (JSON) of subscribers-only posts, for readers who may open them.
    pub async fn sealed_blocks(
        &self,
        gen: &Gen,
        ids: &[ObjectId],
    ) -> ReadResult<Vec<Option<String>>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for id in ids {
            pipe.cmd("HGET").arg(gen.post(id)).arg("sb");
        }
        Ok(self.query(&pipe).await?)
    }
}
