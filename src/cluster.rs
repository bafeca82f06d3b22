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

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use deadpool_redis::redis::{self, AsyncCommands, Script};
use futures_util::future::BoxFuture;
use futures_util::StreamExt;
use pressroom_actors::{
    broker::Message as BrokerMessage, OnlineSnapshot, Person, PresenceChange, PresenceReset,
    PresenceStore, Realtime, SocketId, Transport,
};
use tokio::sync::mpsc;

use crate::config::ClusterSettings;
use crate::redis_pool::Redis;

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

/// Presence across the nodes, kept in Redis by scripts (each runs atomically).
pub struct RedisPresence {
    redis: Redis,
    node: String,
}

/// Common head of the presence scripts: key prefix and the next version.
const SCRIPT_HEAD: &str = r"
local p = KEYS[1]
local function next_version()
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local last = tonumber(redis.call('GET', p .. 'version') or '0')
  local v = math.max(now, last + 1)
  redis.call('SET', p .. 'version', string.format('%.0f', v))
  return v
end
-- People online: a socket's value is a user id, 'g:' and a guest id, or '' (a guest without a
-- verified id, its own person); `people` counts distinct users and guests plus those sockets.
local function count()
  return tonumber(redis.call('GET', p .. 'people') or '0')
end
local function person(who)
  if who == '' then return nil, nil end
  if string.sub(who, 1, 2) == 'g:' then return p .. 'guests', string.sub(who, 3) end
  return p .. 'users', who
end
-- One more socket of `who`; answers whether a user came online.
local function add(who)
  redis.call('INCR', p .. 'socket_count')
  local hash, field = person(who)
  if hash == nil then
    redis.call('INCR', p .. 'people')
    return false
  end
  if redis.call('HINCRBY', hash, field, 1) == 1 then
    redis.call('INCR', p .. 'people')
    return hash == p .. 'users'
  end
  return false
end
local function floor_decr(key)
  if redis.call('DECR', key) < 0 then redis.call('SET', key, 0) end
end
-- One socket of `who` fewer; answers whether a user went offline.
local function remove(who)
  floor_decr(p .. 'socket_count')
  local hash, field = person(who)
  if hash == nil then
    floor_decr(p .. 'people')
    return false
  end
  if redis.call('HINCRBY', hash, field, -1) <= 0 then
    redis.call('HDEL', hash, field)
    floor_decr(p .. 'people')
    return hash == p .. 'users'
  end
  return false
end
local function version()
  return tonumber(redis.call('GET', p .. 'version') or '0')
end
-- Forgets every socket of `node`; returns the users left with no socket anywhere.
local function forget(node, offline)
  local sockets = redis.call('HGETALL', p .. 'sockets:' .. node)
  local n = 0
  for i = 2, #sockets, 2 do
    local who = sockets[i]
    n = n + 1
    if remove(who) then offline[who] = true end
  end
  redis.call('DEL', p .. 'sockets:' .. node)
  redis.call('SREM', p .. 'nodes', node)
  return n
end
";

fn script(body: &str) -> Script {
    Script::new(&format!("{SCRIPT_HEAD}{body}"))
}

/// ARGV: node, socket, person (a user id, `g:` and a guest id, or `""` for a guest without a
/// verified id). Returns {first socket of the user anywhere, people online, version}.
static UP: LazyLock<Script> = LazyLock::new(|| {
    script(
        r"
local node, socket, user = ARGV[1], ARGV[2], ARGV[3]
redis.call('SADD', p .. 'nodes', node)
if redis.call('HSETNX', p .. 'sockets:' .. node, socket, user) == 0 then
  return {0, count(), string.format('%.0f', version())}
end
local first = 0
if add(user) then first = 1 end
return {first, count(), string.format('%.0f', next_version())}
",
    )
});

/// ARGV: node, socket. Returns {last socket of the user anywhere, people online, version, the
/// socket's person}.
static DOWN: LazyLock<Script> = LazyLock::new(|| {
    script(
        r"
local node, socket = ARGV[1], ARGV[2]
local user = redis.call('HGET', p .. 'sockets:' .. node, socket)
if not user then
  return {0, count(), string.format('%.0f', version()), ''}
end
redis.call('HDEL', p .. 'sockets:' .. node, socket)
local last = 0
if remove(user) then last = 1 end
return {last, count(), string.format('%.0f', next_version()), user}
",
    )
});

/// ARGV: node, whether to forget it even if its heartbeat lives ('1'), then socket, user
/// pairs to register afterwards. Returns {count, version, number of users gone offline, those
/// users..., users come online...}; an empty list when the node is alive and not forced.
static RESET: LazyLock<Script> = LazyLock::new(|| {
    script(
        r"
local node, force = ARGV[1], ARGV[2]
if force ~= '1' and redis.call('EXISTS', p .. 'alive:' .. node) == 1 then
  return {}
end
local before = {}
local offline = {}
forget(node, offline)
local online = {}
local added = 0
for i = 3, #ARGV, 2 do
  local socket, user = ARGV[i], ARGV[i + 1]
  if redis.call('HSETNX', p .. 'sockets:' .. node, socket, user) == 1 then
    added = added + 1
    if add(user) then
      if offline[user] then offline[user] = nil else online[user] = true end
    end
  end
end
if added > 0 then
  redis.call('SADD', p .. 'nodes', node)
end
local result = {count(), string.format('%.0f', next_version())}
local gone = {}
for user in pairs(offline) do table.insert(gone, user) end
table.insert(result, #gone)
for _, user in ipairs(gone) do table.insert(result, user) end
for user in pairs(online) do table.insert(result, user) end
return result
",
    )
});

/// ARGV: this node. Returns {node, remaining life of its heartbeat in ms (-2: expired), ...} for
/// every other node that holds sockets.
static PEERS: LazyLock<Script> = LazyLock::new(|| {
    script(
        r"
local result = {}
for _, node in ipairs(redis.call('SMEMBERS', p .. 'nodes')) do
  if node ~= ARGV[1] then
    table.insert(result, node)
    table.insert(result, redis.call('PTTL', p .. 'alive:' .. node))
  end
end
return result
",
    )
});

/// Who is online: {people, sockets, user, user...}.
static ONLINE: LazyLock<Script> = LazyLock::new(|| {
    script(
        r"
local result = {count(), tonumber(redis.call('GET', p .. 'socket_count') or '0')}
for _, user in ipairs(redis.call('HKEYS', p .. 'users')) do table.insert(result, user) end
return result
",
    )
});

fn parse_u64(value: &redis::Value) -> Option<u64> {
    match value {
        redis::Value::Int(n) => u64::try_from(*n).ok(),
        redis::Value::BulkString(b) => std::str::from_utf8(b).ok()?.parse().ok(),
        redis::Value::SimpleString(s) => s.parse().ok(),
        _ => None,
    }
}

fn parse_string(value: &redis::Value) -> Option<String> {
    match value {
        redis::Value::BulkString(b) => String::from_utf8(b.clone()).ok(),
        redis::Value::SimpleString(s) => Some(s.clone()),
        redis::Value::Int(n) => Some(n.to_string()),
        _ => None,
    }
}

/// How a socket's person is kept in the store (user ids are object ids, never `g:…`).
fn stored(person: Option<&Person>) -> String {
    match person {
        Some(Person::User(id)) => id.clone(),
        Some(Person::Guest(id)) => format!("g:{id}"),
        None => String::new(),
    }
}

/// The user of a stored person (`None` for a guest).
fn stored_user(stored: &str) -> Option<String> {
    (!stored.is_empty() && !stored.starts_with("g:")).then(|| stored.to_owned())
}

fn as_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// Parses the answer of the reset script (`None` for an empty answer: nothing was done).
fn parse_reset(values: &[redis::Value]) -> Option<PresenceReset> {
    let count = parse_u64(values.first()?)?;
    let version = parse_u64(values.get(1)?)?;
    let gone = as_usize(parse_u64(values.get(2)?)?);
    let users: Vec<String> = values[3..].iter().filter_map(parse_string).collect();
    let (went_offline, came_online) = users.split_at(gone.min(users.len()));
    let mut went_offline = went_offline.to_vec();
    let mut came_online = came_online.to_vec();
    went_offline.sort();
    came_online.sort();
    Some(PresenceReset {
        went_offline,
        came_online,
        count: as_usize(count),
        version,
    })
}

/// Parses the answer of the peers script: pairs of node and remaining life in ms (negative:
/// no key).
fn parse_peers(values: &[redis::Value]) -> Vec<(String, Option<Duration>)> {
    values
        .chunks_exact(2)
        .filter_map(|pair| {
            let node = parse_string(&pair[0])?;
            let life = match &pair[1] {
                redis::Value::Int(ms) => u64::try_from(*ms).ok().map(Duration::from_millis),
                _ => None,
            };
            Some((node, life))
        })
        .collect()
}

impl RedisPresence {
    pub fn new(redis: Redis, node: String) -> Self {
        Self { redis, node }
    }

    fn prefix(&self) -> String {
        self.redis.key("presence:")
    }

    /// Forgets `node`'s sockets if its heartbeat expired (or at once with `force`), then
    /// registers `sockets` for it. `Ok(None)`: the node is alive, nothing done.
    pub async fn reset_node(
        &self,
        node: &str,
        force: bool,
        sockets: &[(SocketId, Option<Person>)],
    ) -> Result<Option<PresenceReset>, crate::redis_pool::RedisFailure> {
        let prefix = self.prefix();
        let mut invocation = RESET.prepare_invoke();
        invocation
            .key(prefix)
            .arg(node)
            .arg(if force { "1" } else { "0" });
        for (socket, person) in sockets {
            invocation.arg(socket.raw()).arg(stored(person.as_ref()));
        }
        let values: Vec<redis::Value> = self
            .redis
            .run_if_up(|mut conn| async move { invocation.invoke_async(&mut conn).await })
            .await?;
        Ok(parse_reset(&values))
    }

    /// The other nodes that hold sockets, each with the remaining life of its heartbeat key
    /// (`None`: expired or missing).
    pub async fn peers(
        &self,
    ) -> Result<Vec<(String, Option<Duration>)>, crate::redis_pool::RedisFailure> {
        let mut invocation = PEERS.prepare_invoke();
        invocation.key(self.prefix()).arg(&self.node);
        let values: Vec<redis::Value> = self
            .redis
            .run_if_up(|mut conn| async move { invocation.invoke_async(&mut conn).await })
            .await?;
        Ok(parse_peers(&values))
    }

    /// Refreshes this node's heartbeat key for `life`; answers whether it had expired (or never
    /// existed).
    pub async fn beat(&self, life: Duration) -> Result<bool, crate::redis_pool::RedisFailure> {
        let key = format!("{}alive:{}", self.prefix(), self.node);
        let ms = u64::try_from(life.as_millis()).unwrap_or(u64::MAX);
        let previous: Option<String> = self
            .redis
            .run_if_up(|mut conn| async move {
                redis::cmd("SET")
                    .arg(key)
                    .arg("1")
                    .arg("PX")
                    .arg(ms)
                    .arg("GET")
                    .query_async(&mut conn)
                    .await
            })
            .await?;
        Ok(previous.is_none())
    }

    /// Forgets this node's sockets and heartbeat; answers what that changed.
    async fn stop(&self) -> Option<PresenceReset> {
        let reset = self.reset_node(&self.node, true, &[]).await.ok().flatten();
        let key = format!("{}alive:{}", self.prefix(), self.node);
        let _ = self
            .redis
            .run_if_up(|mut conn| async move { conn.del::<_, i64>(key).await })
            .await;
        reset
    }
}

impl PresenceStore for RedisPresence {
    fn up(
        &self,
        socket: SocketId,
        person: Option<Person>,
    ) -> BoxFuture<'static, Option<PresenceChange>> {
        let (redis, prefix, node) = (self.redis.clone(), self.prefix(), self.node.clone());
        Box::pin(async move {
            let mut invocation = UP.prepare_invoke();
            invocation
                .key(prefix)
                .arg(node)
                .arg(socket.raw())
                .arg(stored(person.as_ref()));
            let values: Vec<redis::Value> = redis
                .run_if_up(|mut conn| async move { invocation.invoke_async(&mut conn).await })
                .await
                .ok()?;
            Some(PresenceChange {
                user_changed: parse_u64(values.first()?)? == 1,
                user: person.and_then(|p| p.user().map(str::to_owned)),
                count: as_usize(parse_u64(values.get(1)?)?),
                version: parse_u64(values.get(2)?)?,
            })
        })
    }

    fn down(&self, socket: SocketId) -> BoxFuture<'static, Option<PresenceChange>> {
        let (redis, prefix, node) = (self.redis.clone(), self.prefix(), self.node.clone());
        Box::pin(async move {
            let mut invocation = DOWN.prepare_invoke();
            invocation.key(prefix).arg(node).arg(socket.raw());
            let values: Vec<redis::Value> = redis
                .run_if_up(|mut conn| async move { invocation.invoke_async(&mut conn).await })
                .await
                .ok()?;
            let stored = parse_string(values.get(3)?)?;
            Some(PresenceChange {
                user_changed: parse_u64(values.first()?)? == 1,
                user: stored_user(&stored),
                count: as_usize(parse_u64(values.get(1)?)?),
                version: parse_u64(values.get(2)?)?,
            })
        })
    }

    fn online(&self) -> BoxFuture<'static, Option<OnlineSnapshot>> {
        let (redis, prefix) = (self.redis.clone(), self.prefix());
        Box::pin(async move {
            let mut invocation = ONLINE.prepare_invoke();
            invocation.key(prefix);
            let values: Vec<redis::Value> = redis
                .run_if_up(|mut conn| async move { invocation.invoke_async(&mut conn).await })
                .await
                .ok()?;
            let people = as_usize(parse_u64(values.first()?)?);
            let sockets = as_usize(parse_u64(values.get(1)?)?);
            let mut user_ids: Vec<String> = values[2..].iter().filter_map(parse_string).collect();
            user_ids.sort();
            Some(OnlineSnapshot {
                guests: people.saturating_sub(user_ids.len()),
                people: people.max(user_ids.len()),
                user_ids,
                sockets,
            })
        })
    }

    fn reset(
        &self,
        sockets: Vec<(SocketId, Option<Person>)>,
    ) -> BoxFuture<'static, Option<PresenceReset>> {
        let this = RedisPresence::new(self.redis.clone(), self.node.clone());
        Box::pin(async move {
            match this.reset_node(&this.node, true, &sockets).await {
                Ok(Some(reset)) => Some(reset),
                _ => None,
            }
        })
    }
}

/// A clean stop of `node`: forgets its sockets at once and tells the other nodes the resulting
/// status and count changes (its own actors may already be stopped).
pub async fn leave(redis: &Redis, node: &str) {
    let presence = RedisPresence::new(redis.clone(), node.to_owned());
    let Some(reset) = presence.stop().await else {
        return;
    };
    let mut messages: Vec<Vec<u8>> = reset
        .went_offline
        .iter()
        .map(|user| {
            let event = pressroom_actors::ServerEvent::from(pressroom_actors::events::UserStatus {
                user_id: user.clone(),
                is_online: false,
            });
            BrokerMessage::emit(node, &pressroom_actors::Target::All, None, &event).encode()
        })
        .collect();
    messages.push(
        BrokerMessage::Count {
            from: node.to_owned(),
            version: reset.version,
            count: reset.count,
        }
        .encode(),
    );
    let channel = channel(redis);
    let _ = redis
        .run_if_up(|mut conn| async move {
            for message in messages {
                conn.publish::<_, _, i64>(&channel, message).await?;
            }
            Ok(())
        })
        .await;
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
    fn a_reset_answer_splits_offline_and_online_users() {
        let values = vec![
            redis::Value::Int(5),
            redis::Value::BulkString(b"1700000000000001".to_vec()),
            redis::Value::Int(2),
            redis::Value::BulkString(b"u2".to_vec()),
            redis::Value::BulkString(b"u1".to_vec()),
            redis::Value::BulkString(b"u3".to_vec()),
        ];
        assert_eq!(
            parse_reset(&values),
            Some(PresenceReset {
                went_offline: vec!["u1".into(), "u2".into()],
                came_online: vec!["u3".into()],
                count: 5,
                version: 1_700_000_000_000_001,
            })
        );
        assert_eq!(parse_reset(&[]), None);
    }

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
    fn a_peers_answer_pairs_nodes_with_the_life_of_their_key() {
        let values = vec![
            redis::Value::BulkString(b"a".to_vec()),
            redis::Value::Int(1_250),
            redis::Value::BulkString(b"b".to_vec()),
            redis::Value::Int(-2),
        ];
        assert_eq!(
            parse_peers(&values),
            vec![
                ("a".to_owned(), Some(Duration::from_millis(1_250))),
                ("b".to_owned(), None),
            ]
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
