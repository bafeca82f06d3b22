//! The cluster's bookkeeping in the real Redis of the test run: the presence scripts (cluster-wide
//! counts, first and last socket of a user across nodes), the heartbeat and the forgetting of a
//! node whose heartbeat expired, re-announcing, and rate limits shared by the nodes.

use std::time::Duration;

use pressroom::config::{RateLimitSettings, RedisSettings};
use pressroom::error::ApiError;
use pressroom::live::cluster::RedisPresence;
use pressroom::ratelimit::{Kind, RateLimiter};
use pressroom::redis_pool::Redis;
use pressroom_actors::{OnlineSnapshot, Person, PresenceReset, PresenceStore, SocketId};

use crate::support::drop_redis_keys;

/// A Redis handle with a namespace of its own; the keys are dropped with it.
struct Namespace {
    redis: Redis,
    url: String,
    prefix: String,
}

impl Namespace {
    async fn new() -> Self {
        let url = std::env::var("PRESSROOM_TEST_REDIS_URL").expect("PRESSROOM_TEST_REDIS_URL");
        let name = format!("test_{}", uuid::Uuid::new_v4().simple());
        let settings = RedisSettings {
            url: url.clone().into(),
            timeout_ms: 2_000,
            pool_size: 4,
        };
        let redis = Redis::connect(&settings, &name).expect("redis");
        redis.ping().await.expect("Redis answers");
        Namespace {
            redis,
            url,
            prefix: format!("{name}:"),
        }
    }

    fn node(&self, name: &str) -> RedisPresence {
        RedisPresence::new(self.redis.clone(), name.to_owned())
    }

    async fn drop_keys(self) {
        drop_redis_keys(&self.url, &self.prefix).await;
    }
}

fn socket(n: u64) -> SocketId {
    SocketId::from_raw(n)
}

fn user(id: &str) -> Person {
    Person::User(id.to_owned())
}

fn guest(id: &str) -> Person {
    Person::Guest(id.to_owned())
}

#[tokio::test]
async fn a_user_is_online_from_their_first_socket_on_any_node_to_their_last() {
    let ns = Namespace::new().await;
    let (a, b) = (ns.node("a"), ns.node("b"));

    let first = a.up(socket(1), Some(user("u1"))).await.unwrap();
    assert!(first.user_changed);
    assert_eq!(first.count, 1);
    // The same socket number on another node is another socket.
    let second = b.up(socket(1), Some(user("u1"))).await.unwrap();
    assert!(
        !second.user_changed,
        "a second tab on another node does not announce again"
    );
    assert_eq!(second.count, 1, "one person, however many tabs");
    assert!(second.version > first.version);
    let guest = b.up(socket(2), None).await.unwrap();
    assert_eq!(guest.count, 2);

    assert_eq!(
        a.online().await.unwrap(),
        OnlineSnapshot {
            user_ids: vec!["u1".into()],
            guests: 1,
            people: 2,
            sockets: 3,
        }
    );

    let closed = a.down(socket(1)).await.unwrap();
    assert!(!closed.user_changed, "a tab still open on node b: no flap");
    assert_eq!(closed.user.as_deref(), Some("u1"));
    assert_eq!(closed.count, 2);
    let last = b.down(socket(1)).await.unwrap();
    assert!(last.user_changed, "the last tab anywhere closes");
    assert_eq!(last.count, 1);
    // A close seen twice changes nothing.
    let again = b.down(socket(1)).await.unwrap();
    assert!(!again.user_changed);
    assert_eq!(again.count, 1);
    ns.drop_keys().await;
}

#[tokio::test]
async fn a_node_whose_heartbeat_expired_is_forgotten_once() {
    let ns = Namespace::new().await;
    let (a, b) = (ns.node("a"), ns.node("b"));
    a.up(socket(1), Some(user("u1"))).await.unwrap();
    a.up(socket(2), None).await.unwrap();
    b.up(socket(1), Some(user("u2"))).await.unwrap();
    b.up(socket(2), Some(user("u1"))).await.unwrap();

    assert!(
        a.beat(Duration::from_millis(300)).await.unwrap(),
        "no heartbeat before"
    );
    assert!(!a.beat(Duration::from_millis(300)).await.unwrap(), "alive");
    assert_eq!(
        b.reset_node("a", false, &[]).await.unwrap(),
        None,
        "a live node is not forgotten"
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    let reaped = b.reset_node("a", false, &[]).await.unwrap().unwrap();
    assert_eq!(reaped.count, 2);
    assert_eq!(
        reaped.went_offline,
        Vec::<String>::new(),
        "u1 still has a tab on b"
    );
    assert_eq!(
        b.reset_node("a", false, &[])
            .await
            .unwrap()
            .map(|r| r.count),
        Some(2),
        "nothing left to forget the second time"
    );
    assert_eq!(
        b.online().await.unwrap(),
        OnlineSnapshot {
            user_ids: vec!["u1".into(), "u2".into()],
            guests: 0,
            people: 2,
            sockets: 2,
        }
    );
    ns.drop_keys().await;
}

#[tokio::test]
async fn a_guest_id_counts_once_across_nodes_and_never_as_a_user() {
    let ns = Namespace::new().await;
    let (a, b) = (ns.node("a"), ns.node("b"));
    assert_eq!(a.up(socket(1), Some(guest("g1"))).await.unwrap().count, 1);
    let second = b.up(socket(1), Some(guest("g1"))).await.unwrap();
    assert_eq!(second.count, 1, "the same guest in a tab on another node");
    assert!(!second.user_changed);
    assert_eq!(b.up(socket(2), Some(guest("g2"))).await.unwrap().count, 2);
    assert_eq!(a.up(socket(2), Some(user("u1"))).await.unwrap().count, 3);
    assert_eq!(a.up(socket(3), None).await.unwrap().count, 4);
    let online = b.online().await.unwrap();
    assert_eq!(
        online,
        OnlineSnapshot {
            user_ids: vec!["u1".into()],
            guests: 3,
            people: 4,
            sockets: 5,
        },
        "people are the users listed plus the guests"
    );

    let closed = a.down(socket(1)).await.unwrap();
    assert_eq!((closed.count, closed.user_changed), (4, false));
    assert_eq!(closed.user, None, "a guest is not a user");
    assert_eq!(b.down(socket(1)).await.unwrap().count, 3);

    // A node that stops forgets its guests as it does its users.
    let reaped = a.reset_node("a", true, &[]).await.unwrap().unwrap();
    assert_eq!(reaped.count, 1, "g2 on node b");
    assert_eq!(reaped.went_offline, vec!["u1".to_owned()]);
    ns.drop_keys().await;
}

#[tokio::test]
async fn a_node_that_rejoins_replaces_what_it_held() {
    let ns = Namespace::new().await;
    let a = ns.node("a");
    a.up(socket(1), Some(user("gone"))).await.unwrap();
    a.up(socket(2), Some(user("stays"))).await.unwrap();
    let reset = a
        .reset(vec![
            (socket(7), Some(user("stays"))),
            (socket(8), Some(user("new"))),
            (socket(9), None),
        ])
        .await
        .unwrap();
    assert_eq!(
        PresenceReset {
            version: 0,
            ..reset.clone()
        },
        PresenceReset {
            went_offline: vec!["gone".into()],
            came_online: vec!["new".into()],
            count: 3,
            version: 0,
        }
    );
    assert!(reset.version > 0);
    ns.drop_keys().await;
}

#[tokio::test]
async fn nodes_share_one_allowance_and_window() {
    let ns = Namespace::new().await;
    let a = RateLimiter::with_redis(RateLimitSettings::uniform(60, 3), ns.redis.clone());
    let b = RateLimiter::with_redis(RateLimitSettings::uniform(60, 3), ns.redis.clone());
    a.hit(Kind::LoginAccount, "x@example.com").await.unwrap();
    b.hit(Kind::LoginAccount, "x@example.com").await.unwrap();
    a.hit(Kind::LoginAccount, "x@example.com").await.unwrap();
    for limiter in [&a, &b] {
        match limiter.hit(Kind::LoginAccount, "x@example.com").await {
            Err(ApiError::RateLimited { retry_after, .. }) => {
                assert!((1..=60).contains(&retry_after), "{retry_after}")
            }
            other => panic!("expected a rate limit, got {other:?}"),
        }
    }
    // Other keys and kinds keep their own allowance.
    b.hit(Kind::LoginAccount, "y@example.com").await.unwrap();
    b.hit(Kind::OtpSendAccount, "x@example.com").await.unwrap();
    ns.drop_keys().await;
}
