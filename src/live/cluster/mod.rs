//! Running several nodes over one Redis: the `redis` broker's transport (publishes on one
//! ordered connection, one dedicated subscriber connection per node), cluster-wide presence
//! (per-node socket sets kept by Lua scripts, a heartbeat key with a TTL per node, and a
//! reaper that forgets the sockets of a node whose heartbeat expired), and the rejoin when
//! Redis comes back.
//!
//! Keys, under the deployment's namespace (`<db>:`):
//! - `presence:nodes` set of nodes that hold sockets;
//! - `presence:alive:<node>` the node's heartbeat (expires after the TTL);
//! - `presence:sockets:<node>` hash socket id → its person: a user id, `g:` and a guest id, or
//!   `""` for a guest without a verified id;
//! - `presence:users` hash user id → sockets across the cluster; `presence:guests` the same for
//!   guest ids; `presence:people` the people online (users, guests, id-less guest sockets),
//!   `presence:socket_count` the sockets;
//! - `presence:count` sockets across the cluster; `presence:version` version of the count
//!   (microseconds of Redis's clock, increasing, so it keeps increasing across a Redis restart).
//!
//! Messages between nodes go on channel `<db>:realtime`; their format is the actors crate's
//! (`pressroom_actors::broker`).

use std::sync::Arc;
use std::time::Duration;

use deadpool_redis::redis::{self, AsyncCommands};
use futures_util::StreamExt;
use pressroom_actors::{Realtime, Transport};
use tokio::sync::mpsc;

use crate::config::ClusterSettings;

mod presence;
use crate::redis_pool::Redis;
pub use presence::{leave, RedisPresence};

/// Longest wait before the subscriber tries Redis again.
const RESUBSCRIBE_WAIT: Duration = Duration::from_secs(1);
/// How long after a peer's heartbeat key expires the reaper looks (Redis expires keys to the
/// millisecond; this only keeps the look from landing a hair before the expiry).
const REAP_AFTER_EXPIRY: Duration = Duration::from_millis(10);

/// The timing of the heartbeat, derived from `cluster.heartbeat_ttl_ms` (the TTL): a node that
/// stops must be forgotten within the TTL of its last heartbeat, and a live node must not be.
///
/// A node refreshes its key every quarter of the TTL and the key lives three quarters of it; the
/// other nodes look at each peer's key at the moment it expires (its remaining life, read from
/// Redis), not on a fixed tick. So a dead node is forgotten three quarters of the TTL after its
/// last heartbeat, and the last quarter is the margin for the reaper's wake-up, the script and
/// the 200 ms coalescing of the count; a live node is forgotten only if it misses two
/// consecutive refreshes (a stall of half the TTL: 7.5 s by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heartbeat {
    /// How often a node refreshes its key (and looks for new peers).
    pub period: Duration,
    /// How long the key lives after a refresh.
    pub key_life: Duration,
}

impl Heartbeat {
    /// Shortest TTL accepted; shorter settings are raised to it.
    pub const MIN_TTL: Duration = Duration::from_millis(300);

    pub fn for_ttl(ttl: Duration) -> Self {
        let ttl = ttl.max(Self::MIN_TTL);
        Self {
            period: ttl / 4,
            key_life: ttl * 3 / 4,
        }
    }
}
/// Messages waiting for the publisher; beyond that (Redis stalled) new ones are dropped.
const PUBLISH_QUEUE: usize = 65_536;

/// This node's name: the configured one, else `<host name>:<port>` (stable across restarts, so
/// a restarted node clears what it held), else random when the port is chosen at start.
pub fn node_name(settings: &ClusterSettings, port: u16) -> String {
    let configured = settings.node_id.trim();
    if !configured.is_empty() {
        return configured.to_owned();
    }
    if port == 0 {
        return format!("node-{}", uuid::Uuid::new_v4().simple());
    }
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_owned());
    format!("{host}:{port}")
}

/// Channel of the messages between nodes.
fn channel(redis: &Redis) -> String {
    redis.key("realtime")
}

/// Publishes the broker's messages in order on one dedicated connection.
pub struct RedisTransport {
    queue: mpsc::Sender<Vec<u8>>,
}

impl RedisTransport {
    /// Starts the publisher task.
    pub fn start(redis: Redis) -> Self {
        let (queue, mut rx) = mpsc::channel::<Vec<u8>>(PUBLISH_QUEUE);
        let channel = channel(&redis);
        tokio::spawn(async move {
            let mut conn: Option<redis::aio::MultiplexedConnection> = None;
            while let Some(message) = rx.recv().await {
                if !redis.is_up() {
                    // Events stay on this node while Redis is away.
                    conn = None;
                    continue;
                }
                if conn.is_none() {
                    conn = redis.dedicated().await.ok();
                }
                let Some(c) = conn.as_mut() else {
                    continue;
                };
                let sent: Result<i64, _> = c.publish(&channel, message).await;
                if let Err(e) = sent {
                    tracing::debug!(error = %e, "could not publish a realtime message");
                    conn = None;
                }
            }
        });
        Self { queue }
    }
}

impl Transport for RedisTransport {
    fn publish(&self, message: Vec<u8>) {
        if self.queue.try_send(message).is_err() {
            tracing::debug!("realtime publish queue full; message dropped");
        } else if pressroom_actors::metrics::enabled() {
            pressroom_actors::metrics::BROKER_MESSAGES
                .with_label_values(&["published"])
                .inc();
        }
    }
}

/// Starts the node's cluster tasks: the subscriber (which applies other nodes' messages and
/// rejoins after every (re)subscription), the heartbeat and the reaper of dead nodes.
pub fn spawn(
    realtime: Realtime,
    redis: Redis,
    node: String,
    settings: &ClusterSettings,
    notices: NoticeHandler,
) {
    let heartbeat = Heartbeat::for_ttl(Duration::from_millis(settings.heartbeat_ttl_ms));
    let presence = Arc::new(RedisPresence::new(redis.clone(), node.clone()));
    spawn_subscriber(
        realtime.clone(),
        redis.clone(),
        presence.clone(),
        heartbeat,
        notices,
    );
    spawn_heartbeat(realtime.clone(), redis, presence.clone(), heartbeat);
    spawn_reaper(realtime, presence, heartbeat);
}

/// Topic of the notice a node gives itself when it (re)joins the cluster.
pub const REJOINED_TOPIC: &str = "rejoined";

/// Topic of the notice every node publishes with each heartbeat, stamped with its clock; the
/// others measure from it how long messages between nodes take (`pressroom_broker_lag_seconds`;
/// across machines this includes the difference of their clocks).
pub const PROBE_TOPIC: &str = "probe";

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Sets the broker lag from another node's probe.
fn record_probe(data: &serde_json::Value) {
    if let Some(sent) = data.get("sentAtMs").and_then(serde_json::Value::as_i64) {
        let lag_ms = (now_ms() - sent).max(0);
        crate::metrics::BROKER_LAG.set(lag_ms as f64 / 1000.0);
    }
}

/// Applies another node's notice of a live state change (`topic`, `data`).
pub type NoticeHandler = Arc<dyn Fn(&str, serde_json::Value) + Send + Sync>;

fn spawn_subscriber(
    realtime: Realtime,
    redis: Redis,
    presence: Arc<RedisPresence>,
    heartbeat: Heartbeat,
    notices: NoticeHandler,
) {
    let channel = channel(&redis);
    tokio::spawn(async move {
        let mut logged_down = false;
        loop {
            let subscribed = async {
                let mut pubsub = redis.pubsub().await.ok()?;
                pubsub.subscribe(&channel).await.ok()?;
                Some(pubsub)
            }
            .await;
            let Some(mut pubsub) = subscribed else {
                if !logged_down {
                    tracing::warn!("realtime: Redis unreachable; this node serves its own sockets only until it returns");
                    logged_down = true;
                }
                tokio::time::sleep(RESUBSCRIBE_WAIT).await;
                continue;
            };
            // Subscribed before re-announcing, so no change made meanwhile is missed.
            let _ = presence.beat(heartbeat.key_life).await;
            // Whatever changed while this node was away is read again.
            notices(REJOINED_TOPIC, serde_json::Value::Null);
            if realtime.rejoin().await {
                if logged_down {
                    tracing::info!("realtime: Redis is back; this node rejoined the cluster");
                }
                logged_down = false;
            }
            let mut messages = pubsub.on_message();
            while let Some(message) = messages.next().await {
                match realtime.receive(message.get_payload_bytes()) {
                    Ok(Some((topic, data))) if topic == PROBE_TOPIC => record_probe(&data),
                    Ok(Some((topic, data))) => notices(&topic, data),
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(error = %e, "realtime: malformed message from another node")
                    }
                }
            }
            drop(messages);
            if !logged_down {
                tracing::warn!("realtime: lost the Redis subscription; this node serves its own sockets only until it returns");
                logged_down = true;
            }
            tokio::time::sleep(RESUBSCRIBE_WAIT).await;
        }
    });
}

fn spawn_heartbeat(
    realtime: Realtime,
    redis: Redis,
    presence: Arc<RedisPresence>,
    heartbeat: Heartbeat,
) {
    let mut up = redis.watch();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(heartbeat.period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                changed = async {
                    match up.as_mut() {
                        Some(rx) => rx.changed().await.is_ok(),
                        None => std::future::pending().await,
                    }
                } => {
                    // Back from an outage: re-announce (Redis may have lost everything).
                    if changed && redis.is_up() {
                        let _ = presence.beat(heartbeat.key_life).await;
                        realtime.rejoin().await;
                    }
                    continue;
                }
            }
            match presence.beat(heartbeat.key_life).await {
                // The heartbeat had expired (a stall, or Redis lost its data): the others
                // may have forgotten this node's sockets.
                Ok(true) => {
                    realtime.rejoin().await;
                }
                // Redis answers but presence fell back to this node (a change failed while
                // Redis was away, and the rejoin raced with its return): join again.
                Ok(false) if !realtime.in_cluster().await => {
                    realtime.rejoin().await;
                }
                Ok(false) | Err(_) => {}
            }
            realtime.notify_cluster(PROBE_TOPIC, serde_json::json!({ "sentAtMs": now_ms() }));
        }
    });
}

/// Forgets the sockets of peers whose heartbeat expired. It looks at each peer's key when it
/// expires (its remaining life, read from Redis) rather than on a fixed tick, so a dead node is
/// forgotten as soon as its key is gone; between expiries it looks every heartbeat period (new
/// peers, refreshed keys).
fn spawn_reaper(realtime: Realtime, presence: Arc<RedisPresence>, heartbeat: Heartbeat) {
    tokio::spawn(async move {
        loop {
            let mut wait = heartbeat.period;
            if let Ok(peers) = presence.peers().await {
                for (other, life) in peers {
                    match life {
                        Some(life) => wait = wait.min(life + REAP_AFTER_EXPIRY),
                        None => {
                            if let Ok(Some(reset)) = presence.reset_node(&other, false, &[]).await {
                                tracing::info!(node = %other, "realtime: forgot the sockets of a node that stopped");
                                realtime.reaped(reset);
                            }
                        }
                    }
                }
            }
            tokio::time::sleep(wait).await;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_node_is_forgotten_within_the_ttl_and_a_live_one_survives_a_missed_beat() {
        let ttl = Duration::from_millis(15_000);
        let heartbeat = Heartbeat::for_ttl(ttl);
        assert_eq!(heartbeat.period, Duration::from_millis(3_750));
        assert_eq!(heartbeat.key_life, Duration::from_millis(11_250));
        // Forgotten when the key expires, with a quarter of the TTL to spare.
        assert!(heartbeat.key_life + REAP_AFTER_EXPIRY + Duration::from_millis(200) < ttl);
        // A live node is forgotten only after missing two refreshes in a row.
        assert!(heartbeat.key_life > heartbeat.period * 2);
        assert_eq!(
            Heartbeat::for_ttl(Duration::from_millis(10)),
            Heartbeat::for_ttl(Heartbeat::MIN_TTL)
        );
    }

    #[test]
    fn a_configured_node_name_wins_and_a_free_port_gets_a_random_one() {
        let settings = ClusterSettings {
            node_id: "edge-1".into(),
            heartbeat_ttl_ms: 15_000,
            sid_prefix: String::new(),
        };
        assert_eq!(node_name(&settings, 8080), "edge-1");
        let unnamed = ClusterSettings {
            node_id: String::new(),
            heartbeat_ttl_ms: 15_000,
            sid_prefix: String::new(),
        };
        assert!(node_name(&unnamed, 8080).ends_with(":8080"));
        assert_ne!(node_name(&unnamed, 0), node_name(&unnamed, 0));
    }
}
