//! The presence actor: counts the people online (signed-in users and guests, not tabs) and
//! announces users coming and going.
//!
//! A person is a signed-in user (by id) or a guest by the id the server issued and signed (see
//! [`Person`]); all the sockets of one person count once. A guest socket without a verified id
//! is its own person (nothing tells two of them apart).
//!
//! - A socket that connects receives `onlineUsersCount` at once.
//! - When the count changes, everyone receives it, at most once per coalescing window: the
//!   first change is sent at once, later ones within the window are folded into one trailing
//!   broadcast of the latest count (skipped if the count came back to the last one sent).
//! - `userStatus` goes to everyone when a user's first socket connects and when their last
//!   one closes, so extra tabs and reconnects do not flap.
//!
//! In a cluster the counts are the cluster's: every connect and close goes through the
//! [`PresenceStore`] (one at a time, in order), which answers the cluster-wide count and
//! whether the user's first or last socket anywhere changed. The node where a user's status
//! changed emits `userStatus` to every node once; the count (with a version, the highest
//! wins) is published to every node, and each node broadcasts it to its own sockets with the
//! same coalescing. While the store cannot be reached the node counts its own sockets, as a
//! single node does, until [`Rejoin`] re-announces them.

use std::{collections::HashMap, sync::Arc, time::Duration};

use actix::{
    Actor, ActorFutureExt, AsyncContext, Context, Handler, Message, Recipient, ResponseActFuture,
    WrapFuture,
};
use tokio::time::Instant;

use futures_util::future::BoxFuture;

use crate::{
    broker::{self, Transport},
    events::{OnlineUsersCount, ServerEvent, UserStatus},
    metrics,
    socketio::{
        ids::SocketId,
        rooms::{HubEmit, Target},
    },
};

/// Who is behind a socket, for counting people rather than tabs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Person {
    /// A signed-in user, by id.
    User(String),
    /// A guest, by the id the server issued (its signature already checked).
    Guest(String),
}

impl Person {
    /// The user's id, `None` for a guest.
    pub fn user(&self) -> Option<&str> {
        match self {
            Person::User(id) => Some(id),
            Person::Guest(_) => None,
        }
    }
}

/// Who is online, for HTTP.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OnlineSnapshot {
    /// Ids of users with at least one connected socket, sorted.
    pub user_ids: Vec<String>,
    /// Guests online: distinct guest ids, plus each guest socket without a verified id.
    pub guests: usize,
    /// People online: `user_ids.len() + guests` (what `onlineUsersCount` says).
    pub people: usize,
    /// All connected sockets.
    pub sockets: usize,
}

/// What a presence change did to the cluster-wide bookkeeping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresenceChange {
    /// The user went from no socket to one (on connect) or from one to none (on close),
    /// counting every node.
    pub user_changed: bool,
    /// The user of the socket, if any (the store knows it on close).
    pub user: Option<String>,
    /// People online across the cluster (users and guests, each once however many tabs).
    pub count: usize,
    /// Increases with every change; the latest count wins.
    pub version: u64,
}

/// What re-announcing (or forgetting) a node's sockets did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PresenceReset {
    /// Users with no socket left anywhere.
    pub went_offline: Vec<String>,
    /// Users who had no socket anywhere before.
    pub came_online: Vec<String>,
    /// People online across the cluster.
    pub count: usize,
    /// Version of the count.
    pub version: u64,
}

/// Cluster-wide presence bookkeeping (per-node socket sets with a heartbeat TTL in Redis).
/// Every method answers `None` when the store cannot be reached; presence then counts this
/// node only until [`crate::realtime::Realtime::rejoin`].
pub trait PresenceStore: Send + Sync + 'static {
    /// A socket of this node connected (`None`: a guest without a verified id, its own
    /// person).
    fn up(
        &self,
        socket: SocketId,
        person: Option<Person>,
    ) -> BoxFuture<'static, Option<PresenceChange>>;
    /// A socket of this node went away.
    fn down(&self, socket: SocketId) -> BoxFuture<'static, Option<PresenceChange>>;
    /// Who is online across the cluster.
    fn online(&self) -> BoxFuture<'static, Option<OnlineSnapshot>>;
    /// Which of `users` have a socket anywhere in the cluster (by default read from
    /// [`PresenceStore::online`]; a store may answer without listing everyone).
    fn online_among(&self, users: Vec<String>) -> BoxFuture<'static, Option<Vec<String>>> {
        let all = self.online();
        Box::pin(async move {
            let online: std::collections::HashSet<String> =
                all.await?.user_ids.into_iter().collect();
            Some(users.into_iter().filter(|u| online.contains(u)).collect())
        })
    }
    /// Replaces everything this node held with `sockets` (at start: none).
    fn reset(
        &self,
        sockets: Vec<(SocketId, Option<Person>)>,
    ) -> BoxFuture<'static, Option<PresenceReset>>;
}

/// Sent by the main namespace when a socket connected.
#[derive(Message, Debug)]
#[rtype(result = "()")]
pub struct SocketUp {
    /// The socket.
    pub socket: SocketId,
    /// Its person, `None` for a guest without a verified guest id.
    pub person: Option<Person>,
}

/// Sent by the main namespace when a socket went away.
#[derive(Message, Debug)]
#[rtype(result = "()")]
pub struct SocketDown {
    /// The socket.
    pub socket: SocketId,
    /// Its user, `None` for a guest.
    pub user: Option<String>,
}

/// Sent by the [`crate::realtime::Realtime`] handle; the reply is who is online.
#[derive(Message, Debug)]
#[rtype(result = "OnlineSnapshot")]
pub struct GetOnline;

/// Sent by the [`crate::realtime::Realtime`] handle; the reply is those of the users that have
/// a socket (anywhere in the cluster when presence is clustered).
#[derive(Message, Debug)]
#[rtype(result = "Vec<String>")]
pub struct OnlineAmong(pub Vec<String>);

/// Another node changed the cluster-wide count.
#[derive(Message, Debug)]
#[rtype(result = "()")]
pub struct ClusterCount {
    /// Version of the count.
    pub version: u64,
    /// The count.
    pub count: usize,
}

/// (Re-)announce this node's sockets to the store: at start (which forgets what a previous
/// run of the node left) and when the store is reachable again. Answers whether it worked.
#[derive(Message, Debug)]
#[rtype(result = "bool")]
pub struct Rejoin;

/// Whether presence counts across the cluster (not fallen back to this node's sockets).
#[derive(Message, Debug)]
#[rtype(result = "bool")]
pub struct InCluster;

/// Another node's sockets were forgotten (it stopped refreshing its heartbeat).
#[derive(Message, Debug)]
#[rtype(result = "()")]
pub struct Reaped(pub PresenceReset);

/// The cluster side of presence.
pub struct PresenceCluster {
    /// This node.
    pub node: Arc<str>,
    /// Publishes to the other nodes.
    pub transport: Arc<dyn Transport>,
    /// The cluster-wide bookkeeping.
    pub store: Arc<dyn PresenceStore>,
}

/// Counts and announces who is online. Started once per process.
pub struct Presence {
    hub: Recipient<HubEmit>,
    coalesce: Duration,
    /// This node's sockets and their people.
    local: HashMap<SocketId, Option<Person>>,
    /// This node's sockets per person.
    people: HashMap<Person, usize>,
    /// This node's sockets without a person (each counts as one guest).
    anonymous: usize,
    cluster: Option<PresenceCluster>,
    /// Whether the counts are the cluster's (the store answered the last change).
    clustered: bool,
    cluster_count: usize,
    cluster_version: u64,
    last_broadcast: Option<Instant>,
    last_count_sent: Option<usize>,
    trailing_scheduled: bool,
}

impl Presence {
    /// A presence actor emitting through `hub`, broadcasting counts at most once per `coalesce`.
    pub fn new(hub: Recipient<HubEmit>, coalesce: Duration) -> Self {
        Presence {
            hub,
            coalesce,
            local: HashMap::new(),
            people: HashMap::new(),
            anonymous: 0,
            cluster: None,
            clustered: false,
            cluster_count: 0,
            cluster_version: 0,
            last_broadcast: None,
            last_count_sent: None,
            trailing_scheduled: false,
        }
    }

    /// Counts across the cluster through `cluster` (after a successful [`Rejoin`]).
    #[must_use]
    pub fn with_cluster(mut self, cluster: PresenceCluster) -> Self {
        self.cluster = Some(cluster);
        self
    }

    /// Emits to this node's sockets.
    fn emit(&self, target: Target, event: impl Into<ServerEvent>) {
        self.hub.do_send(HubEmit {
            target,
            except: None,
            event: event.into(),
            emitted: std::time::Instant::now(),
        });
    }

    /// Emits to every node's sockets.
    fn emit_cluster(&self, target: Target, event: impl Into<ServerEvent>) {
        let event = event.into();
        if let Some(cluster) = &self.cluster {
            cluster
                .transport
                .publish(broker::Message::emit(&cluster.node, &target, None, &event).encode());
        }
        self.hub.do_send(HubEmit {
            target,
            except: None,
            event,
            emitted: std::time::Instant::now(),
        });
    }

    fn count(&self) -> usize {
        if self.clustered {
            self.cluster_count
        } else {
            self.people.len() + self.anonymous
        }
    }

    fn count_changed(&mut self, ctx: &mut Context<Self>) {
        if crate::metrics::enabled() {
            metrics::CLUSTER_ONLINE.set(i64::try_from(self.count()).unwrap_or(i64::MAX));
        }
        if self.trailing_scheduled {
            return;
        }
        let now = Instant::now();
        match self.last_broadcast {
            Some(last) if now.duration_since(last) < self.coalesce => {
                self.trailing_scheduled = true;
                let wait = self.coalesce - now.duration_since(last);
                ctx.run_later(wait, |act, _| {
                    act.trailing_scheduled = false;
                    act.broadcast_count();
                });
            }
            _ => self.broadcast_count(),
        }
    }

    /// Sends the count to this node's sockets (every node does so for its own).
    fn broadcast_count(&mut self) {
        let count = self.count();
        if self.last_count_sent == Some(count) {
            return;
        }
        self.last_count_sent = Some(count);
        self.last_broadcast = Some(Instant::now());
        self.emit(Target::All, OnlineUsersCount { count });
    }

    /// Takes a cluster-wide count if newer than the one known, and tells the other nodes
    /// when it comes from here.
    fn apply_count(&mut self, version: u64, count: usize, publish: bool, ctx: &mut Context<Self>) {
        if version > self.cluster_version {
            self.cluster_version = version;
            self.cluster_count = count;
        }
        if publish {
            if let Some(cluster) = &self.cluster {
                cluster.transport.publish(
                    broker::Message::Count {
                        from: cluster.node.to_string(),
                        version,
                        count,
                    }
                    .encode(),
                );
            }
        }
        self.count_changed(ctx);
    }

    fn fall_back(&mut self, ctx: &mut Context<Self>) {
        if self.clustered {
            tracing::warn!("presence store unreachable; counting this node's sockets only");
            self.clustered = false;
            self.count_changed(ctx);
        }
    }

    /// Counts a socket of this node; answers whether it is its user's first here.
    fn local_up(&mut self, socket: SocketId, person: Option<Person>) -> bool {
        if let Some(previous) = self.local.insert(socket, person.clone()) {
            // The same socket announced twice: count it once.
            self.uncount(previous);
        }
        let first = match person {
            None => {
                self.anonymous += 1;
                false
            }
            Some(person) => {
                let is_user = person.user().is_some();
                let count = self.people.entry(person).or_insert(0);
                *count += 1;
                is_user && *count == 1
            }
        };
        self.export_local();
        first
    }

    /// Forgets one socket of `person`; answers the user whose last socket here it was.
    fn uncount(&mut self, person: Option<Person>) -> Option<(String, bool)> {
        let Some(person) = person else {
            self.anonymous = self.anonymous.saturating_sub(1);
            return None;
        };
        let count = self.people.get_mut(&person)?;
        *count -= 1;
        let last = *count == 0;
        if last {
            self.people.remove(&person);
            crate::shrink::when_sparse(&mut self.people);
        }
        match person {
            Person::User(user) => Some((user, last)),
            Person::Guest(_) => None,
        }
    }

    /// Sets this node's presence gauges from its sockets.
    fn export_local(&self) {
        if crate::metrics::enabled() {
            let users = self.people.keys().filter(|p| p.user().is_some()).count();
            let guests = self.people.len() - users + self.anonymous;
            metrics::ONLINE_USERS.set(i64::try_from(users).unwrap_or(i64::MAX));
            metrics::ONLINE_GUESTS.set(i64::try_from(guests).unwrap_or(i64::MAX));
        }
    }

    fn local_down(&mut self, socket: SocketId) -> Option<(String, bool)> {
        let change = self.forget_local(socket);
        self.export_local();
        change
    }

    fn forget_local(&mut self, socket: SocketId) -> Option<(String, bool)> {
        let person = self.local.remove(&socket)?;
        crate::shrink::when_sparse(&mut self.local);
        self.uncount(person)
    }

    fn local_snapshot(&self) -> OnlineSnapshot {
        let mut user_ids: Vec<String> = self
            .people
            .keys()
            .filter_map(|p| p.user().map(str::to_owned))
            .collect();
        user_ids.sort();
        let people = self.people.len() + self.anonymous;
        OnlineSnapshot {
            guests: people - user_ids.len(),
            user_ids,
            people,
            sockets: self.local.len(),
        }
    }

    fn store(&self) -> Option<Arc<dyn PresenceStore>> {
        self.cluster
            .as_ref()
            .filter(|_| self.clustered)
            .map(|c| c.store.clone())
    }

    fn apply_reset(&mut self, reset: PresenceReset, publish: bool, ctx: &mut Context<Self>) {
        for user in reset.went_offline {
            self.emit_cluster(
                Target::All,
                UserStatus {
                    user_id: user,
                    is_online: false,
                },
            );
        }
        for user in reset.came_online {
            self.emit_cluster(
                Target::All,
                UserStatus {
                    user_id: user,
                    is_online: true,
                },
            );
        }
        self.apply_count(reset.version, reset.count, publish, ctx);
    }
}

impl Actor for Presence {
    type Context = Context<Self>;
}

impl Handler<SocketUp> for Presence {
    type Result = ();

    fn handle(&mut self, msg: SocketUp, ctx: &mut Context<Self>) {
        let socket = msg.socket;
        let first_here = self.local_up(socket, msg.person.clone());
        let person = msg.person.clone();
        let user = person.as_ref().and_then(|p| p.user().map(str::to_owned));
        let local_user = user.clone();
        let local_effects = move |act: &mut Self, ctx: &mut Context<Self>| {
            act.emit(
                Target::Socket(socket),
                OnlineUsersCount { count: act.count() },
            );
            if let (true, Some(user)) = (first_here, local_user.clone()) {
                act.emit(
                    Target::All,
                    UserStatus {
                        user_id: user,
                        is_online: true,
                    },
                );
            }
            act.count_changed(ctx);
        };
        let Some(store) = self.store() else {
            local_effects(self, ctx);
            return;
        };
        // One change at a time, in order: a close must never reach the store before its
        // connect.
        ctx.wait(store.up(socket, person).into_actor(self).map(
            move |change, act, ctx| match change {
                Some(PresenceChange {
                    user_changed,
                    count,
                    version,
                    ..
                }) => {
                    act.emit(Target::Socket(socket), OnlineUsersCount { count });
                    if let (true, Some(user)) = (user_changed, user) {
                        act.emit_cluster(
                            Target::All,
                            UserStatus {
                                user_id: user,
                                is_online: true,
                            },
                        );
                    }
                    act.apply_count(version, count, true, ctx);
                }
                None => {
                    act.fall_back(ctx);
                    local_effects(act, ctx);
                }
            },
        ));
    }
}

impl Handler<SocketDown> for Presence {
    type Result = ();

    fn handle(&mut self, msg: SocketDown, ctx: &mut Context<Self>) {
        let socket = msg.socket;
        let local = self.local_down(socket);
        let local_effects = move |act: &mut Self, ctx: &mut Context<Self>| {
            if let Some((user, true)) = local.clone() {
                act.emit(
                    Target::All,
                    UserStatus {
                        user_id: user,
                        is_online: false,
                    },
                );
            }
            act.count_changed(ctx);
        };
        let Some(store) = self.store() else {
            local_effects(self, ctx);
            return;
        };
        ctx.wait(
            store
                .down(socket)
                .into_actor(self)
                .map(move |change, act, ctx| match change {
                    Some(PresenceChange {
                        user_changed,
                        user,
                        count,
                        version,
                    }) => {
                        if let (true, Some(user)) = (user_changed, user) {
                            act.emit_cluster(
                                Target::All,
                                UserStatus {
                                    user_id: user,
                                    is_online: false,
                                },
                            );
                        }
                        act.apply_count(version, count, true, ctx);
                    }
                    None => {
                        act.fall_back(ctx);
                        local_effects(act, ctx);
                    }
                }),
        );
    }
}

impl Handler<ClusterCount> for Presence {
    type Result = ();

    fn handle(&mut self, msg: ClusterCount, ctx: &mut Context<Self>) {
        if self.clustered && msg.version > self.cluster_version {
            self.apply_count(msg.version, msg.count, false, ctx);
        }
    }
}

impl Handler<Reaped> for Presence {
    type Result = ();

    fn handle(&mut self, msg: Reaped, ctx: &mut Context<Self>) {
        if self.clustered {
            self.apply_reset(msg.0, true, ctx);
        }
    }
}

impl Handler<Rejoin> for Presence {
    type Result = ResponseActFuture<Self, bool>;

    fn handle(&mut self, _: Rejoin, ctx: &mut Context<Self>) -> Self::Result {
        let Some(cluster) = &self.cluster else {
            return Box::pin(actix::fut::ready(false));
        };
        let store = cluster.store.clone();
        let sockets: Vec<_> = self
            .local
            .iter()
            .map(|(socket, person)| (*socket, person.clone()))
            .collect();
        let (tx, rx) = tokio::sync::oneshot::channel();
        ctx.wait(
            store
                .reset(sockets)
                .into_actor(self)
                .map(move |reset, act, ctx| {
                    let joined = reset.is_some();
                    if let Some(reset) = reset {
                        if !act.clustered {
                            tracing::info!("presence counts across the cluster");
                        }
                        act.clustered = true;
                        // The store may have restarted: its versions start again from its clock.
                        act.cluster_version = 0;
                        act.apply_reset(reset, true, ctx);
                    } else {
                        act.fall_back(ctx);
                    }
                    let _ = tx.send(joined);
                }),
        );
        Box::pin(async move { rx.await.unwrap_or(false) }.into_actor(self))
    }
}

impl Handler<InCluster> for Presence {
    type Result = bool;

    fn handle(&mut self, _: InCluster, _: &mut Context<Self>) -> bool {
        self.clustered
    }
}

impl Handler<GetOnline> for Presence {
    type Result = ResponseActFuture<Self, OnlineSnapshot>;

    fn handle(&mut self, _: GetOnline, _: &mut Context<Self>) -> Self::Result {
        let Some(store) = self.store() else {
            return Box::pin(actix::fut::ready(self.local_snapshot()));
        };
        Box::pin(
            store
                .online()
                .into_actor(self)
                .map(|online, act, _| online.unwrap_or_else(|| act.local_snapshot())),
        )
    }
}

impl Handler<OnlineAmong> for Presence {
    type Result = ResponseActFuture<Self, Vec<String>>;

    fn handle(&mut self, msg: OnlineAmong, _: &mut Context<Self>) -> Self::Result {
        let local = |act: &Self, users: Vec<String>| -> Vec<String> {
            users
                .into_iter()
                .filter(|u| act.people.contains_key(&Person::User(u.clone())))
                .collect()
        };
        let Some(store) = self.store() else {
            return Box::pin(actix::fut::ready(local(self, msg.0)));
        };
        let users = msg.0.clone();
        Box::pin(
            store
                .online_among(msg.0)
                .into_actor(self)
                .map(move |online, act, _| online.unwrap_or_else(|| local(act, users))),
        )
    }
}

#[cfg(test)]
mod tests;
