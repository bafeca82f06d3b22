//! Full-text search over posts and users, from embedded tantivy indexes held in memory.
//!
//! - **Posts** are indexed from the read index's stored posts (title, tags, text, author, whether
//!   anyone may find them, creation time), **users** from the database (name, email, block state,
//!   post count). Both are built at start and whenever the read index is rebuilt.
//! - **Kept up to date by the same changes as the read index**: every applied change is announced
//!   on a Redis stream (`<ns>ix:changes`: `p` post id, `u` user id, `rebuilt` generation), which
//!   each node follows on a connection of its own, so posts written through any node or the
//!   command line are found everywhere. The node that made a change waits (briefly) until its own
//!   index has it, so an author finds a post they just published.
//! - **Never required**: until the indexes are ready, or while Redis is away, search reads the
//!   database (literal matches, newest first).

mod index;
pub mod newest;
mod query;
pub mod text;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deadpool_redis::redis;
use futures_util::future::BoxFuture;
use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, EnableScoring, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Schema, Value, FAST, INDEXED, STORED, STRING};
use tantivy::{
    DocAddress, Index, IndexReader, IndexWriter, ReloadPolicy, Score, Searcher, TantivyDocument,
    Term,
};
use tokio::sync::watch;

use crate::feeds::keys::Gen;
use crate::feeds::{ChangeFollower, Feeds};
use crate::persistence::posts::PageRequest;
use crate::persistence::user_directory::FoundUser;
use crate::persistence::{users, Db};

/// Memory the index writers may use before they write a segment.
const WRITER_MEMORY: usize = 20_000_000;
/// How long a writer waits for its own change to be searchable.
const OWN_CHANGE_WAIT: Duration = Duration::from_secs(2);
/// Stream entries read at once.
const STREAM_BATCH: usize = 500;
/// How long a stream read blocks waiting for news (ms).
const STREAM_BLOCK_MS: usize = 1000;
/// Posts read from Redis per round trip while building.
const BUILD_BATCH: usize = 500;
/// Time limit of one Redis round trip of a build (a busy machine may take long over a batch).
const BUILD_LIMIT: Duration = Duration::from_secs(30);
/// How many matches of a post search are ranked at most: the newest ones. Pages, the `after`
/// cursor and `total` cover these; a query matching more reports this many.
pub const MAX_RANKED: usize = 1000;
/// Users considered before the final order (most posts first) is applied.
const USER_CANDIDATES: usize = 500;
/// How many users a search returns at most.
pub const MAX_USER_RESULTS: usize = 10;

#[derive(Clone, Copy)]
struct PostFields {
    id: Field,
    title: Field,
    tags: Field,
    body: Field,
    /// Each field's adjacent pairs of terms (`text::AdjacentPairs`).
    title_pairs: Field,
    tags_pairs: Field,
    body_pairs: Field,
    author: Field,
    listable: Field,
    created: Field,
    id_hi: Field,
    id_lo: Field,
}

#[derive(Clone, Copy)]
struct UserFields {
    id: Field,
    name: Field,
    email: Field,
    email_text: Field,
    avatar: Field,
    blocked: Field,
    total_posts: Field,
}

/// One in-memory index with its writer and reader.
struct Part {
    writer: Mutex<IndexWriter>,
    reader: IndexReader,
}

impl Part {
    fn new(schema: Schema) -> anyhow::Result<Self> {
        let index = Index::create_in_ram(schema);
        text::register_analyzers(&index);
        let writer = index.writer_with_num_threads(1, WRITER_MEMORY)?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(Self {
            writer: Mutex::new(writer),
            reader,
        })
    }

    /// Applies changes (`None` document: delete only) and makes them searchable.
    fn apply(
        &self,
        id_field: Field,
        changes: Vec<(String, Option<TantivyDocument>)>,
    ) -> anyhow::Result<()> {
        let mut writer = self
            .writer
            .lock()
            .map_err(|_| anyhow::anyhow!("search writer lock poisoned"))?;
        for (id, doc) in changes {
            writer.delete_term(Term::from_field_text(id_field, &id));
            if let Some(doc) = doc {
                writer.add_document(doc)?;
            }
        }
        writer.commit()?;
        drop(writer);
        self.reader.reload()?;
        Ok(())
    }

    /// Replaces everything.
    fn replace_all(&self, docs: Vec<TantivyDocument>) -> anyhow::Result<()> {
        let mut writer = self
            .writer
            .lock()
            .map_err(|_| anyhow::anyhow!("search writer lock poisoned"))?;
        writer.delete_all_documents()?;
        for doc in docs {
            writer.add_document(doc)?;
        }
        writer.commit()?;
        drop(writer);
        self.reader.reload()?;
        Ok(())
    }

    fn searcher(&self) -> Searcher {
        self.reader.searcher()
    }
}

/// How far the indexes have followed the changes.
#[derive(Debug, Clone, Default, PartialEq)]
struct Progress {
    /// The read index generation the post index was built from.
    posts_generation: Option<u64>,
    /// Whether the user index has been built.
    users_built: bool,
    /// The last change stream entry applied (`ms-seq`).
    last: Option<(u64, u64)>,
}

struct Inner {
    feeds: Feeds,
    db: Db,
    posts: Part,
    post_fields: PostFields,
    users: Part,
    user_fields: UserFields,
    progress: watch::Sender<Progress>,
    /// The recency summaries of the post index's segments.
    recency: newest::Recency,
    /// How many matches are ranked at most (`MAX_RANKED` unless set otherwise).
    ranked_bound: AtomicUsize,
}

/// The search indexes; cheap to clone.
#[derive(Clone)]
pub struct Search {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("progress", &*self.inner.progress.borrow())
            .finish()
    }
}

/// Who is searching and within what.
#[derive(Debug, Clone, Default)]
pub struct PostScope {
    /// The signed-in viewer: their own posts of every status are found too.
    pub viewer: Option<ObjectId>,
    /// Authors on either side of a block with the viewer.
    pub hidden: Vec<ObjectId>,
    /// Only this author's posts.
    pub author: Option<ObjectId>,
}

/// A page of post hits, best first, and how many matches are ranked (at most the bound).
#[derive(Debug, Clone)]
pub struct PostHits {
    pub ids: Vec<ObjectId>,
    pub total: u64,
    /// Whether more posts match than were ranked.
    pub more: bool,
}

/// Why the index cannot answer: read the database instead.
#[derive(Debug, thiserror::Error)]
#[error("the search index is not ready")]
pub struct NotReady;

/// A change stream entry: its id and its field-value pairs.
type StreamEntry = (String, Vec<(String, String)>);

/// The change stream's entries after `after` (at most a batch), waiting up to `block_ms` for
/// some when given; `None` when there are none.
async fn read_changes(
    conn: &mut redis::aio::MultiplexedConnection,
    stream_key: &str,
    after: &str,
    block_ms: Option<usize>,
) -> redis::RedisResult<Option<Vec<StreamEntry>>> {
    let mut cmd = redis::cmd("XREAD");
    cmd.arg("COUNT").arg(STREAM_BATCH);
    if let Some(ms) = block_ms {
        cmd.arg("BLOCK").arg(ms);
    }
    cmd.arg("STREAMS").arg(stream_key).arg(after);
    let reply: Option<Vec<(String, Vec<StreamEntry>)>> = cmd.query_async(conn).await?;
    Ok(reply
        .map(|streams| streams.into_iter().flat_map(|(_, e)| e).collect::<Vec<_>>())
        .filter(|entries| !entries.is_empty()))
}

fn split_id(id: &ObjectId) -> (u64, u64) {
    let b = id.bytes();
    let hi = u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
    let mut lo = [0u8; 8];
    lo.copy_from_slice(&b[4..12]);
    (hi, u64::from_be_bytes(lo))
}

/// The inverse of `split_id`.
fn join_id(hi: u64, lo: u64) -> ObjectId {
    let mut b = [0u8; 12];
    b[..4].copy_from_slice(&(hi as u32).to_be_bytes());
    b[4..].copy_from_slice(&lo.to_be_bytes());
    ObjectId::from_bytes(b)
}

fn parse_stream_id(id: &str) -> Option<(u64, u64)> {
    let (ms, seq) = id.split_once('-')?;
    Some((ms.parse().ok()?, seq.parse().ok()?))
}

impl Search {
    pub fn new(feeds: Feeds, db: &Db) -> anyhow::Result<Self> {
        let mut s = Schema::builder();
        let post_fields = PostFields {
            id: s.add_text_field("id", STRING | STORED),
            title: s.add_text_field("title", text::words_field(false)),
            tags: s.add_text_field("tags", text::words_field(false)),
            body: s.add_text_field("body", text::words_field(false)),
            title_pairs: s.add_text_field("title_pairs", text::pairs_field()),
            tags_pairs: s.add_text_field("tags_pairs", text::pairs_field()),
            body_pairs: s.add_text_field("body_pairs", text::pairs_field()),
            author: s.add_text_field("author", STRING),
            listable: s.add_u64_field("listable", INDEXED),
            created: s.add_i64_field("created", FAST),
            id_hi: s.add_u64_field("id_hi", FAST),
            id_lo: s.add_u64_field("id_lo", FAST),
        };
        let posts = Part::new(s.build())?;
        let mut s = Schema::builder();
        let user_fields = UserFields {
            id: s.add_text_field("id", STRING | STORED),
            name: s.add_text_field("name", text::words_field(true)),
            email: s.add_text_field("email", STRING | STORED),
            email_text: s.add_text_field("email_text", text::words_field(false)),
            avatar: s.add_text_field("avatar", STORED),
            blocked: s.add_u64_field("blocked", INDEXED),
            total_posts: s.add_i64_field("total_posts", STORED),
        };
        let users = Part::new(s.build())?;
        let (progress, _) = watch::channel(Progress::default());
        Ok(Self {
            inner: Arc::new(Inner {
                feeds,
                db: db.unobserved(),
                posts,
                post_fields,
                users,
                user_fields,
                progress,
                recency: newest::Recency::default(),
                ranked_bound: AtomicUsize::new(MAX_RANKED),
            }),
        })
    }

    /// Whether post search can answer from the index now.
    pub fn posts_ready(&self) -> bool {
        let Some(gen) = self.inner.feeds.current() else {
            return false;
        };
        self.inner.progress.borrow().posts_generation == Some(gen.number)
    }

    /// Whether user search can answer from the index now.
    pub fn users_ready(&self) -> bool {
        self.inner.feeds.current().is_some() && self.inner.progress.borrow().users_built
    }

    /// Waits until the change with this stream entry id is searchable here (at most a moment).
    pub async fn caught_up(&self, entry: &str) {
        let Some(wanted) = parse_stream_id(entry) else {
            return;
        };
        let mut rx = self.inner.progress.subscribe();
        let reached =
            |p: &Progress| p.last.is_some_and(|l| l >= wanted) || p.posts_generation.is_none();
        let _ = tokio::time::timeout(OWN_CHANGE_WAIT, rx.wait_for(reached)).await;
    }

    /// Follows the change stream for the life of the process, building the indexes when the
    /// read index is (re)built.
    pub fn spawn_follower(&self) {
        if !self.inner.feeds.redis().is_configured() {
            return;
        }
        let search = self.clone();
        tokio::spawn(async move {
            loop {
                if let Err(e) = search.follow().await {
                    tracing::warn!(error = %format!("{e:#}"), "search index follower stopped; it restarts shortly");
                }
                search
                    .inner
                    .progress
                    .send_modify(|p| *p = Progress::default());
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }

    /// Builds the indexes, then applies the change stream until something fails.
    async fn follow(&self) -> anyhow::Result<()> {
        let redis = self.inner.feeds.redis().clone();
        let stream_key = redis.key("ix:changes");
        let gen = loop {
            if let Some(gen) = self.inner.feeds.current() {
                break gen;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        // Where the stream is now: everything after it is applied on top of the build.
        let last: Option<String> = {
            let key = stream_key.clone();
            redis
                .run(|mut c| async move {
                    let found: Vec<(String, Vec<(String, String)>)> = redis::cmd("XREVRANGE")
                        .arg(key)
                        .arg("+")
                        .arg("-")
                        .arg("COUNT")
                        .arg(1)
                        .query_async(&mut c)
                        .await?;
                    Ok(found.into_iter().next().map(|(id, _)| id))
                })
                .await?
        };
        self.build_posts(&gen).await?;
        self.build_users().await?;
        let mut last_id = last.unwrap_or_else(|| "0-0".to_string());
        let mut conn = redis.dedicated().await?;
        // Changes made while building are applied before the index answers: their writers did
        // not wait for it (it was not in use yet), so a first answer must already hold them.
        while let Some(entries) = read_changes(&mut conn, &stream_key, &last_id, None).await? {
            if !self.apply_entries(&gen, &entries, &mut last_id).await? {
                return Ok(());
            }
        }
        self.inner.progress.send_modify(|p| {
            p.posts_generation = Some(gen.number);
            p.users_built = true;
            p.last = parse_stream_id(&last_id);
        });
        tracing::info!(generation = gen.number, "search indexes built");
        loop {
            let read = read_changes(&mut conn, &stream_key, &last_id, Some(STREAM_BLOCK_MS));
            let Some(entries) = read.await? else {
                // Nothing new; make sure the read index is still the one indexed.
                match self.inner.feeds.current() {
                    Some(g) if g.number == gen.number => continue,
                    _ => return Ok(()),
                }
            };
            if !self.apply_entries(&gen, &entries, &mut last_id).await? {
                return Ok(());
            }
            let reached = parse_stream_id(&last_id);
            self.inner.progress.send_modify(|p| p.last = reached);
        }
    }

    /// Applies a batch of the change stream, moving `last_id` past it. `false` when the read
    /// index was rebuilt meanwhile: everything must then be built again.
    async fn apply_entries(
        &self,
        gen: &Gen,
        entries: &[StreamEntry],
        last_id: &mut String,
    ) -> anyhow::Result<bool> {
        let mut posts = Vec::new();
        let mut people = Vec::new();
        for (id, fields) in entries {
            last_id.clone_from(id);
            for (kind, value) in fields {
                match kind.as_str() {
                    "p" => posts.extend(ObjectId::parse_str(value).ok()),
                    "u" => people.extend(ObjectId::parse_str(value).ok()),
                    // A new generation: build everything again from it.
                    "rebuilt" => return Ok(false),
                    _ => {}
                }
            }
        }
        posts.sort();
        posts.dedup();
        people.sort();
        people.dedup();
        match self.inner.feeds.current() {
            Some(current) if current.number == gen.number => {
                self.apply_posts(&current, &posts).await?;
                self.apply_users(&people).await?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

impl ChangeFollower for Search {
    fn caught_up<'a>(&'a self, entry: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(Search::caught_up(self, entry))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_split_into_fast_fields_joins_back() {
        for hex in [
            "000000000000000000000000",
            "ffffffffffffffffffffffff",
            "65a1b2c3d4e5f60718293a4b",
        ] {
            let id = ObjectId::parse_str(hex).unwrap();
            let (hi, lo) = split_id(&id);
            assert_eq!(join_id(hi, lo), id);
        }
    }
}
