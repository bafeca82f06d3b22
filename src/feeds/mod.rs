//! The read index: every ordered list the API serves (public, latest, trending, per tag, per
//! category, per author, an author's own posts, the following feed as a merge of authors' lists,
//! bookmarks per user), their totals, each post's card, the slug map, the scheduled posts and the
//! social graph feeds need, kept in Redis so that no hot read asks the database to sort, count or
//! scan. MongoDB stays the record; everything here can be rebuilt from it.
//!
//! - **Kept by writes.** `Feeds` is the database's write observer (`persistence::observer`):
//!   every write of a post, follow, block or bookmark is applied here before the request answers
//!   (`write`), so a reader sees their own writes.
//! - **Rebuilt when missing or stale** (`rebuild`): at start when Redis has no index, when a write
//!   could not reach Redis (recorded in the database, `persistence::index_state`), and on demand
//!   (`pressroom index rebuild`). A rebuild fills a new generation while the current one serves,
//!   then switches.
//! - **Never required.** While Redis is down, or the index is missing or stale, `current()` is
//!   `None` and readers use the database queries (slow, correct).

pub mod cards;
pub mod keys;
pub mod lookups;
pub mod read;
mod rebuild;
pub mod scripts;
pub mod sitemap;
mod write;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use deadpool_redis::redis::AsyncCommands;
use futures_util::future::BoxFuture;
use tokio::sync::Notify;

use crate::persistence::observer::{Change, WriteObserver};
use crate::persistence::{index_state, Db};
use crate::redis_pool::Redis;
use keys::Gen;

/// Something that follows the change stream (the search index): after applying a change, the
/// writer waits until it has it, so the writer's next read finds it.
pub trait ChangeFollower: Send + Sync {
    /// Waits (briefly) until the change with this stream entry id is applied.
    fn caught_up<'a>(&'a self, entry: &'a str) -> BoxFuture<'a, ()>;
}

/// How often a node looks at which generation is current (another node may have rebuilt).
const FOLLOW_INTERVAL: Duration = Duration::from_secs(1);
/// How long a node waits for another node's rebuild before checking again.
const WAIT_FOR_OTHER_REBUILD: Duration = Duration::from_secs(1);

struct Inner {
    redis: Redis,
    /// Reads and rebuilds go through a handle that reports nothing.
    db: Db,
    /// The same, through a connection pool of its own: the rebuilds' and the search build's
    /// whole-collection cursors (see `Db::with_own_pool`).
    bulk: Db,
    /// The generation this node reads; `None`: not usable (Redis down, index missing or stale).
    current: RwLock<Option<Gen>>,
    /// Set when a write could not be applied: rebuild before reading again.
    needs_rebuild: AtomicBool,
    /// Whether the stale mark is already in the database for this outage.
    stale_recorded: AtomicBool,
    /// Reads go to the database while set (writes are still applied): how the equivalence tests
    /// ask the same process for the database's answer.
    reads_paused: AtomicBool,
    wake: Notify,
    rebuilding: tokio::sync::Mutex<()>,
    follower: std::sync::OnceLock<Arc<dyn ChangeFollower>>,
    /// Told when the generation read changes (what was derived from the old one is dropped).
    on_switch: std::sync::OnceLock<Box<dyn Fn() + Send + Sync>>,
}

/// The read index; cheap to clone.
#[derive(Clone)]
pub struct Feeds {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Feeds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Feeds")
            .field("current", &self.current().map(|g| g.number))
            .finish()
    }
}

impl Feeds {
    pub fn new(redis: Redis, db: &Db) -> anyhow::Result<Self> {
        let db = db.unobserved();
        Ok(Self {
            inner: Arc::new(Inner {
                redis,
                bulk: db.with_own_pool()?,
                db,
                current: RwLock::new(None),
                needs_rebuild: AtomicBool::new(false),
                stale_recorded: AtomicBool::new(false),
                reads_paused: AtomicBool::new(false),
                wake: Notify::new(),
                rebuilding: tokio::sync::Mutex::new(()),
                follower: std::sync::OnceLock::new(),
                on_switch: std::sync::OnceLock::new(),
            }),
        })
    }

    /// Makes writers wait for `follower` to have their changes.
    pub fn set_follower(&self, follower: Arc<dyn ChangeFollower>) {
        let _ = self.inner.follower.set(follower);
    }

    /// Waits until the follower has the change with this stream entry id.
    async fn followed(&self, entry: &str) {
        if entry.is_empty() {
            return;
        }
        if let Some(f) = self.inner.follower.get() {
            f.caught_up(entry).await;
        }
    }

    pub fn redis(&self) -> &Redis {
        &self.inner.redis
    }

    fn db(&self) -> &Db {
        &self.inner.db
    }

    /// The handle for reading whole collections.
    pub(crate) fn bulk_db(&self) -> &Db {
        &self.inner.bulk
    }

    fn namespace(&self) -> &str {
        self.inner.redis.prefix()
    }

    /// The generation to read, when the index may be used.
    pub fn current(&self) -> Option<Gen> {
        if !self.inner.redis.is_up() || self.inner.reads_paused.load(Ordering::SeqCst) {
            return None;
        }
        self.inner
            .current
            .read()
            .map(|c| c.clone())
            .unwrap_or_default()
    }

    /// Sends reads to the database (`true`) or back to the index; writes are applied either way.
    pub fn pause_reads(&self, paused: bool) {
        self.inner.reads_paused.store(paused, Ordering::SeqCst);
        if let Some(f) = self.inner.on_switch.get() {
            f();
        }
    }

    /// Whether reads are sent to the database on purpose (`pause_reads`).
    pub fn reads_paused(&self) -> bool {
        self.inner.reads_paused.load(Ordering::SeqCst)
    }

    /// Calls `f` whenever the generation read changes (or reads are paused or resumed).
    pub fn on_switch(&self, f: impl Fn() + Send + Sync + 'static) {
        let _ = self.inner.on_switch.set(Box::new(f));
    }

    fn set_current(&self, gen: Option<Gen>) {
        if let Ok(mut c) = self.inner.current.write() {
            if *c != gen {
                match &gen {
                    Some(g) => tracing::info!(generation = g.number, "read index in use"),
                    None if c.is_some() => {
                        tracing::warn!("read index set aside; reads go to the database")
                    }
                    None => {}
                }
                *c = gen;
                drop(c);
                if let Some(f) = self.inner.on_switch.get() {
                    f();
                }
                return;
            }
            *c = gen;
        }
    }

    /// A write could not be applied: stop reading the index, record that it is stale (so every
    /// node and a restart rebuild it), and rebuild as soon as Redis answers.
    fn mark_stale(&self) {
        self.set_current(None);
        self.inner.needs_rebuild.store(true, Ordering::SeqCst);
        if !self.inner.stale_recorded.swap(true, Ordering::SeqCst) {
            let db = self.db().clone();
            let feeds = self.clone();
            tokio::spawn(async move {
                let mut delay = Duration::from_millis(200);
                for _ in 0..20 {
                    match index_state::mark_stale(&db).await {
                        Ok(()) => return,
                        Err(e) => {
                            tracing::warn!(error = %e, "could not record the read index as stale")
                        }
                    }
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(Duration::from_secs(10));
                }
                feeds.inner.stale_recorded.store(false, Ordering::SeqCst);
            });
        }
        self.inner.wake.notify_one();
    }

    /// Watches Redis and the index for the life of the process: uses the current generation
    /// when it is sound, rebuilds when it is missing or stale, follows other nodes' rebuilds.
    pub fn spawn_supervisor(&self) {
        let Some(mut up) = self.inner.redis.watch() else {
            return;
        };
        let feeds = self.clone();
        tokio::spawn(async move {
            loop {
                if *up.borrow_and_update() {
                    if let Err(e) = feeds.check().await {
                        tracing::warn!(error = %format!("{e:#}"), "read index check failed");
                        feeds.set_current(None);
                    }
                } else {
                    feeds.set_current(None);
                }
                tokio::select! {
                    _ = up.changed() => {}
                    _ = feeds.inner.wake.notified() => {}
                    _ = tokio::time::sleep(FOLLOW_INTERVAL) => {}
                }
            }
        });
    }

    /// Waits until the index is in use, at most `wait`; whether it is.
    pub async fn wait_ready(&self, wait: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + wait;
        while tokio::time::Instant::now() < deadline {
            if self.current().is_some() {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.current().is_some()
    }

    /// One look at the index: decides whether to read it, rebuild it, or wait for a rebuild.
    async fn check(&self) -> anyhow::Result<()> {
        let redis = &self.inner.redis;
        let ns = self.namespace().to_string();
        let cur: Option<u64> = redis
            .run(|mut c| async move { c.get(format!("{ns}ix:cur")).await })
            .await?;
        let known = self.inner.current.read().ok().and_then(|c| c.clone());
        match cur {
            Some(n) if !self.inner.needs_rebuild.load(Ordering::SeqCst) => {
                if known.as_ref().map(|g| g.number) == Some(n) {
                    return Ok(());
                }
                if index_state::is_stale(self.db()).await? {
                    self.set_current(None);
                    return self.rebuild_or_wait().await;
                }
                self.set_current(Some(Gen::new(self.inner.redis.prefix(), n)));
                Ok(())
            }
            _ => {
                self.set_current(None);
                self.rebuild_or_wait().await
            }
        }
    }

    /// Rebuilds, unless another process is rebuilding (then waits for it and looks again).
    async fn rebuild_or_wait(&self) -> anyhow::Result<()> {
        match self.rebuild().await {
            Ok(report) => {
                tracing::info!(
                    posts = report.posts,
                    seconds = report.seconds,
                    "read index rebuilt"
                );
                Ok(())
            }
            Err(rebuild::RebuildError::Busy) => {
                tokio::time::sleep(WAIT_FOR_OTHER_REBUILD).await;
                self.inner.wake.notify_one();
                Ok(())
            }
            Err(rebuild::RebuildError::Failed(e)) => Err(e),
        }
    }
}

impl WriteObserver for Feeds {
    fn changed(&self, change: Change) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            if !self.inner.redis.is_configured() {
                return;
            }
            if let Err(e) = self.apply_change(&change).await {
                tracing::warn!(error = %format!("{e:#}"), ?change, "read index missed a write; it will be rebuilt");
                self.mark_stale();
            }
        })
    }
}
