use std::sync::Mutex;

use actix::{Actor, Addr};
use serde_json::json;

use super::*;
use crate::events::ServerEvent;

const WINDOW: Duration = Duration::from_millis(200);

type Log = Arc<Mutex<Vec<(Target, ServerEvent)>>>;

struct Recorder(Log);

impl Actor for Recorder {
    type Context = Context<Self>;
}

impl Handler<HubEmit> for Recorder {
    type Result = ();

    fn handle(&mut self, msg: HubEmit, _: &mut Context<Self>) {
        self.0.lock().unwrap().push((msg.target, msg.event));
    }
}

fn start() -> (Addr<Presence>, Log) {
    let log = Log::default();
    let recorder = Recorder(log.clone()).start();
    let presence = Presence::new(recorder.recipient(), WINDOW).start();
    (presence, log)
}

async fn settle() {
    // Lets the presence and recorder mailboxes drain.
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
}

fn broadcasts_named(log: &Log, name: &str) -> Vec<Vec<serde_json::Value>> {
    log.lock()
        .unwrap()
        .iter()
        .filter(|(target, event)| *target == Target::All && event.name() == name)
        .map(|(_, event)| event.args().to_vec())
        .collect()
}

fn up(socket: u64, user: Option<&str>) -> SocketUp {
    SocketUp {
        socket: SocketId::from_raw(socket),
        person: user.map(|u| Person::User(u.to_owned())),
    }
}

fn guest_up(socket: u64, guest: &str) -> SocketUp {
    SocketUp {
        socket: SocketId::from_raw(socket),
        person: Some(Person::Guest(guest.to_owned())),
    }
}

fn counts_sent(log: &Log) -> Vec<serde_json::Value> {
    log.lock()
        .unwrap()
        .iter()
        .filter(|(_, event)| event.name() == "onlineUsersCount")
        .map(|(_, event)| event.args()[0].clone())
        .collect()
}

fn down(socket: u64, user: Option<&str>) -> SocketDown {
    SocketDown {
        socket: SocketId::from_raw(socket),
        user: user.map(str::to_owned),
    }
}

#[actix_rt::test]
async fn a_connecting_socket_is_told_the_count_at_once() {
    let (presence, log) = start();
    presence.send(up(1, None)).await.unwrap();
    presence.send(up(2, Some("u1"))).await.unwrap();
    settle().await;
    let direct: Vec<_> = log
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(target, event)| match target {
            Target::Socket(id) => Some((*id, event.args().to_vec())),
            _ => None,
        })
        .collect();
    assert_eq!(
        direct,
        vec![
            (SocketId::from_raw(1), vec![json!(1)]),
            (SocketId::from_raw(2), vec![json!(2)]),
        ]
    );
}

#[actix_rt::test]
async fn a_burst_of_connections_gives_one_immediate_and_one_trailing_broadcast() {
    let (presence, log) = start();
    for socket in 0..50 {
        presence.send(up(socket, None)).await.unwrap();
    }
    settle().await;
    assert_eq!(
        broadcasts_named(&log, "onlineUsersCount"),
        vec![vec![json!(1)]]
    );

    tokio::time::sleep(WINDOW + Duration::from_millis(50)).await;
    settle().await;
    assert_eq!(
        broadcasts_named(&log, "onlineUsersCount"),
        vec![vec![json!(1)], vec![json!(50)]]
    );
}

#[actix_rt::test]
async fn a_count_back_to_the_last_one_sent_is_not_broadcast_again() {
    let (presence, log) = start();
    presence.send(up(1, None)).await.unwrap();
    presence.send(up(2, None)).await.unwrap();
    presence.send(down(2, None)).await.unwrap();
    tokio::time::sleep(WINDOW + Duration::from_millis(50)).await;
    settle().await;
    assert_eq!(
        broadcasts_named(&log, "onlineUsersCount"),
        vec![vec![json!(1)]]
    );
}

#[actix_rt::test]
async fn user_status_follows_the_first_and_last_socket_of_a_user() {
    let (presence, log) = start();
    presence.send(up(1, Some("u1"))).await.unwrap();
    presence.send(up(2, Some("u1"))).await.unwrap();
    presence.send(down(1, Some("u1"))).await.unwrap();
    settle().await;
    assert_eq!(
        broadcasts_named(&log, "userStatus"),
        vec![vec![json!("u1"), json!(true)]]
    );

    presence.send(down(2, Some("u1"))).await.unwrap();
    settle().await;
    assert_eq!(
        broadcasts_named(&log, "userStatus"),
        vec![
            vec![json!("u1"), json!(true)],
            vec![json!("u1"), json!(false)],
        ]
    );
}

#[actix_rt::test]
async fn who_is_online_lists_users_and_counts_guests() {
    let (presence, _log) = start();
    presence.send(up(1, Some("u2"))).await.unwrap();
    presence.send(up(2, Some("u1"))).await.unwrap();
    presence.send(up(3, Some("u1"))).await.unwrap();
    presence.send(up(4, None)).await.unwrap();
    presence.send(up(5, None)).await.unwrap();
    presence.send(down(5, None)).await.unwrap();
    let online = presence.send(GetOnline).await.unwrap();
    assert_eq!(
        online,
        OnlineSnapshot {
            user_ids: vec!["u1".into(), "u2".into()],
            guests: 1,
            people: 3,
            sockets: 4,
        }
    );
}

#[actix_rt::test]
async fn three_tabs_of_one_user_count_once_until_the_last_closes() {
    let (presence, log) = start();
    presence.send(up(1, Some("u1"))).await.unwrap();
    presence.send(up(2, Some("u1"))).await.unwrap();
    presence.send(up(3, Some("u1"))).await.unwrap();
    settle().await;
    assert_eq!(
        counts_sent(&log),
        vec![json!(1), json!(1), json!(1), json!(1)]
    );
    assert_eq!(presence.send(GetOnline).await.unwrap().people, 1);

    presence.send(down(1, Some("u1"))).await.unwrap();
    presence.send(down(2, Some("u1"))).await.unwrap();
    let online = presence.send(GetOnline).await.unwrap();
    assert_eq!((online.people, online.user_ids.len()), (1, 1));

    presence.send(down(3, Some("u1"))).await.unwrap();
    tokio::time::sleep(WINDOW + Duration::from_millis(50)).await;
    settle().await;
    assert_eq!(
        broadcasts_named(&log, "onlineUsersCount").last(),
        Some(&vec![json!(0)])
    );
    assert_eq!(
        presence.send(GetOnline).await.unwrap(),
        OnlineSnapshot::default()
    );
}

#[actix_rt::test]
async fn guests_count_once_per_guest_id_and_id_less_sockets_each_once() {
    let (presence, _log) = start();
    presence.send(guest_up(1, "g1")).await.unwrap();
    presence.send(guest_up(2, "g1")).await.unwrap();
    presence.send(guest_up(3, "g2")).await.unwrap();
    presence.send(up(4, None)).await.unwrap();
    presence.send(up(5, None)).await.unwrap();
    presence.send(up(6, Some("u1"))).await.unwrap();
    let online = presence.send(GetOnline).await.unwrap();
    assert_eq!(
        online,
        OnlineSnapshot {
            user_ids: vec!["u1".into()],
            guests: 4,
            people: 5,
            sockets: 6,
        },
        "the count is the users listed plus the guests"
    );

    presence.send(down(1, None)).await.unwrap();
    assert_eq!(presence.send(GetOnline).await.unwrap().people, 5);
    presence.send(down(2, None)).await.unwrap();
    presence.send(down(4, None)).await.unwrap();
    let online = presence.send(GetOnline).await.unwrap();
    assert_eq!((online.people, online.guests, online.sockets), (3, 2, 3));
}

#[actix_rt::test]
async fn a_guest_never_changes_a_user_status() {
    let (presence, log) = start();
    presence.send(guest_up(1, "g1")).await.unwrap();
    presence.send(down(1, None)).await.unwrap();
    settle().await;
    assert!(broadcasts_named(&log, "userStatus").is_empty());
}

/// The cluster bookkeeping in memory, with the Redis scripts' semantics, shared by the
/// presence actors of several "nodes".
#[derive(Default)]
struct MemoryStore {
    sockets: Mutex<HashMap<(String, u64), Option<Person>>>,
    version: Mutex<u64>,
}

struct NodeStore {
    node: String,
    shared: Arc<MemoryStore>,
}

impl MemoryStore {
    fn sockets_of(map: &HashMap<(String, u64), Option<Person>>, person: &Person) -> usize {
        map.values().filter(|p| p.as_ref() == Some(person)).count()
    }

    /// People across the nodes: distinct persons plus id-less sockets.
    fn people(map: &HashMap<(String, u64), Option<Person>>) -> usize {
        let distinct: std::collections::HashSet<&Person> = map.values().flatten().collect();
        distinct.len() + map.values().filter(|p| p.is_none()).count()
    }

    fn next(&self) -> u64 {
        let mut v = self.version.lock().unwrap();
        *v += 1;
        *v
    }
}

impl PresenceStore for NodeStore {
    fn up(
        &self,
        socket: SocketId,
        person: Option<Person>,
    ) -> futures_util::future::BoxFuture<'static, Option<PresenceChange>> {
        let mut map = self.shared.sockets.lock().unwrap();
        map.insert((self.node.clone(), socket.raw()), person.clone());
        let first = person
            .as_ref()
            .is_some_and(|p| p.user().is_some() && MemoryStore::sockets_of(&map, p) == 1);
        let change = PresenceChange {
            user_changed: first,
            user: person.and_then(|p| p.user().map(str::to_owned)),
            count: MemoryStore::people(&map),
            version: self.shared.next(),
        };
        Box::pin(async move { Some(change) })
    }

    fn down(
        &self,
        socket: SocketId,
    ) -> futures_util::future::BoxFuture<'static, Option<PresenceChange>> {
        let mut map = self.shared.sockets.lock().unwrap();
        let person = map.remove(&(self.node.clone(), socket.raw())).flatten();
        let last = person
            .as_ref()
            .is_some_and(|p| p.user().is_some() && MemoryStore::sockets_of(&map, p) == 0);
        let change = PresenceChange {
            user_changed: last,
            user: person.and_then(|p| p.user().map(str::to_owned)),
            count: MemoryStore::people(&map),
            version: self.shared.next(),
        };
        Box::pin(async move { Some(change) })
    }

    fn online(&self) -> futures_util::future::BoxFuture<'static, Option<OnlineSnapshot>> {
        Box::pin(async { None })
    }

    fn reset(
        &self,
        sockets: Vec<(SocketId, Option<Person>)>,
    ) -> futures_util::future::BoxFuture<'static, Option<PresenceReset>> {
        let mut map = self.shared.sockets.lock().unwrap();
        map.retain(|(node, _), _| *node != self.node);
        for (socket, person) in sockets {
            map.insert((self.node.clone(), socket.raw()), person);
        }
        let reset = PresenceReset {
            count: MemoryStore::people(&map),
            version: self.shared.next(),
            ..PresenceReset::default()
        };
        Box::pin(async move { Some(reset) })
    }
}

/// Publishes nothing: the test looks at what each node emits itself.
struct Silent;

impl Transport for Silent {
    fn publish(&self, _message: Vec<u8>) {}
}

async fn clustered(node: &str, shared: &Arc<MemoryStore>) -> (Addr<Presence>, Log) {
    let log = Log::default();
    let recorder = Recorder(log.clone()).start();
    let presence = Presence::new(recorder.recipient(), WINDOW)
        .with_cluster(PresenceCluster {
            node: node.into(),
            transport: Arc::new(Silent),
            store: Arc::new(NodeStore {
                node: node.to_owned(),
                shared: shared.clone(),
            }),
        })
        .start();
    assert!(presence.send(Rejoin).await.unwrap());
    (presence, log)
}

#[actix_rt::test]
async fn a_user_with_a_tab_on_each_node_changes_status_once_each_way() {
    let shared = Arc::new(MemoryStore::default());
    let (a, log_a) = clustered("a", &shared).await;
    let (b, log_b) = clustered("b", &shared).await;
    a.send(up(1, Some("u1"))).await.unwrap();
    b.send(up(1, Some("u1"))).await.unwrap();
    a.send(down(1, Some("u1"))).await.unwrap();
    settle().await;
    let statuses = |log: &Log| broadcasts_named(log, "userStatus");
    assert_eq!(statuses(&log_a), vec![vec![json!("u1"), json!(true)]]);
    assert_eq!(statuses(&log_b), Vec::<Vec<serde_json::Value>>::new());

    b.send(down(1, Some("u1"))).await.unwrap();
    settle().await;
    assert_eq!(
        statuses(&log_b),
        vec![vec![json!("u1"), json!(false)]],
        "the node that closed the last tab announces it"
    );
    assert_eq!(statuses(&log_a).len(), 1);
}

#[actix_rt::test]
async fn one_user_and_one_guest_with_tabs_on_two_nodes_count_as_two_people() {
    let shared = Arc::new(MemoryStore::default());
    let (a, log_a) = clustered("a", &shared).await;
    let (b, log_b) = clustered("b", &shared).await;
    a.send(up(1, Some("u1"))).await.unwrap();
    b.send(up(1, Some("u1"))).await.unwrap();
    b.send(up(2, Some("u1"))).await.unwrap();
    a.send(guest_up(2, "g1")).await.unwrap();
    b.send(guest_up(3, "g1")).await.unwrap();
    settle().await;
    let told = |log: &Log, socket: u64| -> Vec<serde_json::Value> {
        log.lock()
            .unwrap()
            .iter()
            .filter(|(target, _)| *target == Target::Socket(SocketId::from_raw(socket)))
            .map(|(_, event)| event.args()[0].clone())
            .collect()
    };
    assert_eq!(told(&log_a, 1), vec![json!(1)]);
    assert_eq!(
        told(&log_b, 1),
        vec![json!(1)],
        "the same user on another node"
    );
    assert_eq!(told(&log_b, 2), vec![json!(1)]);
    assert_eq!(told(&log_a, 2), vec![json!(2)], "a guest is another person");
    assert_eq!(told(&log_b, 3), vec![json!(2)]);

    // Closing two of the user's three tabs (one per node) keeps them counted.
    a.send(down(1, Some("u1"))).await.unwrap();
    b.send(down(1, Some("u1"))).await.unwrap();
    settle().await;
    let people = |map: &MemoryStore| MemoryStore::people(&map.sockets.lock().unwrap());
    assert_eq!(people(&shared), 2);
    b.send(down(2, Some("u1"))).await.unwrap();
    settle().await;
    assert_eq!(people(&shared), 1);
    assert_eq!(
        broadcasts_named(&log_b, "userStatus"),
        vec![vec![json!("u1"), json!(false)]]
    );
}

#[actix_rt::test]
async fn a_connecting_socket_is_told_the_cluster_count_and_newer_counts_win() {
    let shared = Arc::new(MemoryStore::default());
    let (a, log_a) = clustered("a", &shared).await;
    let (b, _log_b) = clustered("b", &shared).await;
    b.send(up(1, None)).await.unwrap();
    b.send(up(2, None)).await.unwrap();
    a.send(up(7, None)).await.unwrap();
    settle().await;
    let direct: Vec<_> = log_a
        .lock()
        .unwrap()
        .iter()
        .filter(|(target, _)| *target == Target::Socket(SocketId::from_raw(7)))
        .map(|(_, event)| event.args().to_vec())
        .collect();
    assert_eq!(direct, vec![vec![json!(3)]], "counted across both nodes");

    // An older count from another node does not replace a newer one.
    a.send(ClusterCount {
        version: 1,
        count: 99,
    })
    .await
    .unwrap();
    tokio::time::sleep(WINDOW + Duration::from_millis(50)).await;
    settle().await;
    let all = broadcasts_named(&log_a, "onlineUsersCount");
    assert_eq!(all.last(), Some(&vec![json!(3)]));
    a.send(ClusterCount {
        version: 1_000,
        count: 5,
    })
    .await
    .unwrap();
    tokio::time::sleep(WINDOW + Duration::from_millis(50)).await;
    settle().await;
    let all = broadcasts_named(&log_a, "onlineUsersCount");
    assert_eq!(all.last(), Some(&vec![json!(5)]));
}
