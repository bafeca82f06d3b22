//! The process's Redis: one deadpool-redis pool for every use of Redis (the read index of feeds,
//! counts and post cards today; fan-out between nodes builds on the same pool), the key namespace
//! of this deployment, and whether Redis is up.
//!
//! Redis is never the record: when it is unreachable, callers fall back to the database. A
//! command that fails for want of a connection marks Redis down at once, so later requests do not
//! each wait for a timeout; a monitor pings it every `CHECK_INTERVAL` and marks it up again when
//! it answers. Whoever must act on a change (the read index checks itself when Redis returns)
//! watches `Redis::watch`.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use deadpool_redis::redis::{self, AsyncCommands, RedisError};
use deadpool_redis::{Connection, Manager, Pool, PoolConfig, Runtime, Timeouts};
use secrecy::ExposeSecret;
use tokio::sync::watch;

use crate::config::RedisSettings;

/// How often the monitor pings Redis.
pub const CHECK_INTERVAL: Duration = Duration::from_secs(1);
/// A command that times out marks Redis down only when nothing has been answered for this long:
/// under load some commands wait past their limit while Redis is answering others, and
/// setting the index aside then would send every read to the database at the worst moment.
/// Refused or broken connections mark it down at once.
pub const SLOW_IS_NOT_DOWN: Duration = Duration::from_secs(3);

/// What `/health` reports about Redis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedisStatus {
    /// No Redis configured: reads go to the database.
    Disabled,
    Up,
    Down,
}

impl RedisStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RedisStatus::Disabled => "disabled",
            RedisStatus::Up => "ok",
            RedisStatus::Down => "down",
        }
    }
}

/// Why a Redis operation did not happen; callers fall back to the database.
#[derive(Debug, thiserror::Error)]
pub enum RedisFailure {
    #[error("Redis is not configured")]
    Disabled,
    #[error("Redis is down")]
    Down,
    #[error("Redis did not answer in time")]
    Timeout,
    #[error("Redis: {0}")]
    Command(#[from] RedisError),
    #[error("Redis pool: {0}")]
    Pool(String),
    #[error("unexpected answer from Redis: {0}")]
    Parse(String),
}

pub type RedisResult<T> = Result<T, RedisFailure>;

struct Inner {
    pool: Pool,
    /// For dedicated connections.
    client: redis::Client,
    prefix: String,
    timeout: Duration,
    up: watch::Sender<bool>,
    /// When a command last got an answer (see `SLOW_IS_NOT_DOWN`).
    answered: std::sync::Mutex<Option<std::time::Instant>>,
}

/// The shared Redis handle; cheap to clone.
#[derive(Clone)]
pub struct Redis {
    inner: Option<Arc<Inner>>,
}

impl std::fmt::Debug for Redis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redis")
            .field("configured", &self.inner.is_some())
            .field("up", &self.is_up())
            .finish()
    }
}

impl Redis {
    /// No Redis: every operation answers `RedisFailure::Disabled`.
    pub fn disabled() -> Self {
        Self { inner: None }
    }

    /// Builds the pool without touching the network (the server starts while Redis is down).
    /// Keys are namespaced by `namespace` (the database name), so deployments, and tests, that
    /// share one Redis keep apart. Redis counts as down until the first answer.
    pub fn connect(settings: &RedisSettings, namespace: &str) -> anyhow::Result<Self> {
        let url = settings.url.expose_secret().trim();
        if url.is_empty() {
            return Ok(Self::disabled());
        }
        let timeout = Duration::from_millis(settings.timeout_ms);
        // No answer time limit on the connections themselves (the client's default is 500 ms):
        // each use has its own (`run`, `run_for`), and a bulk load may take longer than a
        // command without Redis being away.
        let connections = redis::AsyncConnectionConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(None);
        let pool = Pool::builder(Manager::new_with_config(url, connections)?)
            .config(PoolConfig {
                max_size: settings.pool_size,
                timeouts: Timeouts {
                    wait: Some(timeout),
                    create: Some(timeout),
                    recycle: Some(timeout),
                },
                ..PoolConfig::default()
            })
            .runtime(Runtime::Tokio1)
            .build()?;
        let client = redis::Client::open(url)?;
        let (up, _) = watch::channel(false);
        Ok(Self {
            inner: Some(Arc::new(Inner {
                pool,
                client,
                prefix: format!("{namespace}:"),
                timeout,
                up,
                answered: std::sync::Mutex::new(None),
            })),
        })
    }

    pub fn is_configured(&self) -> bool {
        self.inner.is_some()
    }

    /// Whether the last contact with Redis succeeded.
    pub fn is_up(&self) -> bool {
        self.inner.as_ref().is_some_and(|i| *i.up.borrow())
    }

    pub fn status(&self) -> RedisStatus {
        match &self.inner {
            None => RedisStatus::Disabled,
            Some(i) if *i.up.borrow() => RedisStatus::Up,
            Some(_) => RedisStatus::Down,
        }
    }

    /// Changes of the up/down state (`None` without Redis).
    pub fn watch(&self) -> Option<watch::Receiver<bool>> {
        self.inner.as_ref().map(|i| i.up.subscribe())
    }

    /// This deployment's name for a key: `<namespace>:<name>`.
    pub fn key(&self, name: &str) -> String {
        match &self.inner {
            Some(i) => format!("{}{name}", i.prefix),
            None => name.to_string(),
        }
    }

    /// The namespace prefix of every key (`<namespace>:`).
    pub fn prefix(&self) -> &str {
        self.inner.as_ref().map_or("", |i| i.prefix.as_str())
    }

    fn set_up(&self, up: bool) {
        if let Some(i) = &self.inner {
            i.up.send_if_modified(|current| {
                if *current == up {
                    return false;
                }
                *current = up;
                if up {
                    tracing::info!("Redis is reachable");
                } else {
                    tracing::warn!("Redis is unreachable; reads fall back to the database");
                }
                true
            });
        }
    }

    /// Runs `work` with a pooled connection, within the configured timeout. A failure to reach
    /// Redis marks it down; a command's own error (a script's, a wrong type) does not.
    pub async fn run<T, F, Fut>(&self, work: F) -> RedisResult<T>
    where
        F: FnOnce(Connection) -> Fut,
        Fut: Future<Output = Result<T, RedisError>>,
    {
        let timeout = self.inner.as_ref().map_or(Duration::ZERO, |i| i.timeout);
        self.run_for(timeout, work).await
    }

    /// Like `run`, with a time limit of its own (long scans and bulk loads).
    pub async fn run_for<T, F, Fut>(&self, timeout: Duration, work: F) -> RedisResult<T>
    where
        F: FnOnce(Connection) -> Fut,
        Fut: Future<Output = Result<T, RedisError>>,
    {
        let inner = self.inner.as_ref().ok_or(RedisFailure::Disabled)?;
        let attempt = async {
            let conn = inner.pool.get().await.map_err(|e| match e {
                deadpool_redis::PoolError::Timeout(deadpool_redis::TimeoutType::Wait) => {
                    RedisFailure::Timeout
                }
                e => RedisFailure::Pool(e.to_string()),
            })?;
            work(conn).await.map_err(RedisFailure::Command)
        };
        let started = std::time::Instant::now();
        let result = match tokio::time::timeout(timeout, attempt).await {
            Ok(r) => r,
            Err(_) => Err(RedisFailure::Timeout),
        };
        if pressroom_actors::metrics::enabled() {
            crate::metrics::REDIS_DURATION
                .with_label_values(&[] as &[&str])
                .observe(started.elapsed().as_secs_f64());
            let failure = match &result {
                Ok(_) => None,
                Err(RedisFailure::Timeout) => Some("timeout"),
                Err(RedisFailure::Command(e)) if !is_unreachable(e) => Some("command"),
                Err(_) => Some("unreachable"),
            };
            if let Some(kind) = failure {
                crate::metrics::REDIS_ERRORS
                    .with_label_values(&[kind])
                    .inc();
            }
        }
        let answered = |inner: &Inner| {
            if let Ok(mut at) = inner.answered.lock() {
                *at = Some(std::time::Instant::now());
            }
        };
        match &result {
            Ok(_) => {
                answered(inner);
                self.set_up(true)
            }
            Err(RedisFailure::Command(e)) if !is_unreachable(e) => {
                answered(inner);
                self.set_up(true)
            }
            Err(RedisFailure::Timeout) => {
                let silent = inner
                    .answered
                    .lock()
                    .ok()
                    .and_then(|at| *at)
                    .is_none_or(|at| at.elapsed() >= SLOW_IS_NOT_DOWN);
                if silent {
                    self.set_up(false)
                }
            }
            Err(_) => self.set_up(false),
        }
        result
    }

    /// Like `run`, but fails at once while Redis is marked down, so requests fall back without
    /// waiting; the monitor notices when it returns.
    pub async fn run_if_up<T, F, Fut>(&self, work: F) -> RedisResult<T>
    where
        F: FnOnce(Connection) -> Fut,
        Fut: Future<Output = Result<T, RedisError>>,
    {
        if self.inner.is_some() && !self.is_up() {
            return Err(RedisFailure::Down);
        }
        self.run(work).await
    }

    /// A connection of its own, outside the pool and without a time limit on answers: for
    /// commands that wait (`XREAD BLOCK`, pub/sub), which would hold up everyone sharing a pooled
    /// connection.
    pub async fn dedicated(&self) -> RedisResult<redis::aio::MultiplexedConnection> {
        let inner = self.inner.as_ref().ok_or(RedisFailure::Disabled)?;
        let config = redis::AsyncConnectionConfig::new()
            .set_connection_timeout(Some(inner.timeout))
            .set_response_timeout(None);
        let conn = inner
            .client
            .get_multiplexed_async_connection_with_config(&config)
            .await?;
        Ok(conn)
    }

    /// A pub/sub connection of its own (one per node, for messages from the other nodes).
    pub async fn pubsub(&self) -> RedisResult<redis::aio::PubSub> {
        let inner = self.inner.as_ref().ok_or(RedisFailure::Disabled)?;
        let pubsub = tokio::time::timeout(inner.timeout, inner.client.get_async_pubsub())
            .await
            .map_err(|_| RedisFailure::Timeout)??;
        Ok(pubsub)
    }

    /// One round trip (`PING`); updates the up/down state.
    pub async fn ping(&self) -> RedisResult<()> {
        self.run(|mut conn| async move { conn.ping::<String>().await.map(|_| ()) })
            .await
    }

    /// Pings Redis every `CHECK_INTERVAL` for the life of the process, so its state follows
    /// Redis going away and coming back even when nothing else uses it.
    pub fn spawn_monitor(&self) {
        if self.inner.is_none() {
            return;
        }
        let redis = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(CHECK_INTERVAL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let _ = redis.ping().await;
            }
        });
    }
}

/// Whether an error means Redis could not be reached (rather than a command being wrong).
fn is_unreachable(e: &RedisError) -> bool {
    e.is_io_error()
        || e.is_connection_dropped()
        || e.is_connection_refusal()
        || e.is_timeout()
        || matches!(e.kind(), redis::ErrorKind::Io)
}
