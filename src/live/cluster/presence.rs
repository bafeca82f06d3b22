//! Presence across the nodes: per-node socket sets in Redis, kept by the Lua scripts beside this
//! file (each runs atomically), and the clean leave of a node.

use std::sync::LazyLock;
use std::time::Duration;

use deadpool_redis::redis::{self, AsyncCommands, Script};
use futures_util::future::BoxFuture;
use pressroom_actors::{
    broker::Message as BrokerMessage, OnlineSnapshot, Person, PresenceChange, PresenceReset,
    PresenceStore, SocketId,
};

use super::channel;
use crate::redis_pool::Redis;

/// Presence across the nodes, kept in Redis by scripts (each runs atomically).
pub struct RedisPresence {
    redis: Redis,
    node: String,
}

/// Common head of the presence scripts: key prefix and the next version.
const SCRIPT_HEAD: &str = include_str!("lua/presence_head.lua");

fn script(body: &str) -> Script {
    Script::new(&format!("{SCRIPT_HEAD}{body}"))
}

/// ARGV: node, socket, person (a user id, `g:` and a guest id, or `""` for a guest without a
/// verified id). Returns {first socket of the user anywhere, people online, version}.
static UP: LazyLock<Script> = LazyLock::new(|| script(include_str!("lua/up.lua")));

/// ARGV: node, socket. Returns {last socket of the user anywhere, people online, version, the
/// socket's person}.
static DOWN: LazyLock<Script> = LazyLock::new(|| script(include_str!("lua/down.lua")));

/// ARGV: node, whether to forget it even if its heartbeat lives ('1'), then socket, user
/// pairs to register afterwards. Returns {count, version, number of users gone offline, those
/// users..., users come online...}; an empty list when the node is alive and not forced.
static RESET: LazyLock<Script> = LazyLock::new(|| script(include_str!("lua/reset.lua")));

/// ARGV: this node. Returns {node, remaining life of its heartbeat in ms (-2: expired), ...} for
/// every other node that holds sockets.
static PEERS: LazyLock<Script> = LazyLock::new(|| script(include_str!("lua/peers.lua")));

/// Who is online: {people, sockets, user, user...}.
static ONLINE: LazyLock<Script> = LazyLock::new(|| script(include_str!("lua/online.lua")));

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

    fn online_among(&self, users: Vec<String>) -> BoxFuture<'static, Option<Vec<String>>> {
        let (redis, key) = (self.redis.clone(), format!("{}users", self.prefix()));
        Box::pin(async move {
            if users.is_empty() {
                return Some(users);
            }
            let asked = users.clone();
            let counts: Vec<Option<i64>> = redis
                .run_if_up(|mut conn| async move {
                    redis::cmd("HMGET")
                        .arg(key)
                        .arg(asked)
                        .query_async(&mut conn)
                        .await
                })
                .await
                .ok()?;
            Some(
                users
                    .into_iter()
                    .zip(counts)
                    .filter(|(_, n)| n.is_some_and(|n| n > 0))
                    .map(|(u, _)| u)
                    .collect(),
            )
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
}
