//! The handle the server crate holds: start once before `HttpServer::new`, pass it to the
//! workers (`web::Data<Realtime>` or a clone), mount it with [`Realtime::configure`] and
//! [`crate::HttpServer::endpoint`], and emit
//! from HTTP handlers.

use std::{collections::HashMap, sync::Arc};

use actix::{Actor, Addr};
use actix_web::web;
use serde_json::Value;

use crate::{
    auth::SocketAuth,
    broker::{Message as BrokerMessage, Transport},
    config::RealtimeConfig,
    events::ServerEvent,
    presence::{
        ClusterCount, GetOnline, InCluster, OnlineAmong, OnlineSnapshot, Person, Presence,
        PresenceCluster, PresenceReset, PresenceStore, Reaped, Rejoin, SocketDown, SocketUp,
    },
    server::Endpoint,
    socketio::{
        engine::{App, Engine, SioServer},
        ids::SocketId,
        namespace::{ClientEvent, EngineHandler, NamespaceHandler, Socket},
        rooms::{user_room, CountMembers, DisconnectUser, Hub, HubEmit, Target, ADMIN_ROOM},
        session::Session,
        sio::ROOT_NAMESPACE,
        transport,
    },
};

/// Client event asking to join a room (`join(userId)` or `join("adminRoom")`).
pub const JOIN_EVENT: &str = "join";

/// How a node takes part in a cluster; given to [`RealtimeBuilder::cluster`].
#[derive(Clone)]
pub struct Cluster {
    /// This node's name, unique in the deployment and stable across restarts.
    pub node: String,
    /// Carries messages to the other nodes.
    pub transport: Arc<dyn Transport>,
    /// Presence across the nodes.
    pub presence: Arc<dyn PresenceStore>,
}

/// Handler of one client event on the main namespace.
pub type EventHandler = Arc<dyn Fn(&Socket, ClientEvent) + Send + Sync + 'static>;

/// Builds a [`Realtime`]: authentication, handlers for client events, extra namespaces.
pub struct RealtimeBuilder {
    config: RealtimeConfig,
    auth: Option<Arc<dyn SocketAuth>>,
    events: HashMap<String, EventHandler>,
    namespaces: HashMap<String, Arc<dyn NamespaceHandler>>,
    cluster: Option<Cluster>,
}

impl RealtimeBuilder {
    /// Takes part in a cluster: emits reach every node's sockets and presence counts every
    /// node (the `redis` broker). Without it the broker is `local`.
    pub fn cluster(mut self, cluster: Cluster) -> Self {
        self.cluster = Some(cluster);
        self
    }

    /// Verifies tokens with `auth`; without it every socket is a guest.
    pub fn auth(mut self, auth: Arc<dyn SocketAuth>) -> Self {
        self.auth = Some(auth);
        self
    }

    /// Runs `handler` for client event `name` on the main namespace (`join` is built in).
    pub fn on_event(
        mut self,
        name: &str,
        handler: impl Fn(&Socket, ClientEvent) + Send + Sync + 'static,
    ) -> Self {
        self.events.insert(name.to_owned(), Arc::new(handler));
        self
    }

    /// Serves namespace `path` with `handler`. Registering `/` replaces the product's main
    /// namespace (join rules, presence, [`RealtimeBuilder::on_event`] handlers).
    pub fn namespace(mut self, path: &str, handler: Arc<dyn NamespaceHandler>) -> Self {
        self.namespaces.insert(path.to_owned(), handler);
        self
    }

    /// Starts the hub and presence actors. Call once, inside the actix system, before
    /// `HttpServer::new`.
    pub fn start(self) -> Realtime {
        let hub = Hub::default().start();
        let mut presence = Presence::new(hub.clone().recipient(), self.config.presence_coalesce);
        if let Some(cluster) = &self.cluster {
            presence = presence.with_cluster(PresenceCluster {
                node: cluster.node.as_str().into(),
                transport: cluster.transport.clone(),
                store: cluster.presence.clone(),
            });
        }
        let presence = presence.start();
        let mut namespaces = self.namespaces;
        namespaces
            .entry(ROOT_NAMESPACE.to_owned())
            .or_insert_with(|| {
                Arc::new(MainNamespace {
                    presence: presence.clone(),
                    events: self.events,
                    auth: self.auth.clone(),
                })
            });
        let server = Arc::new(SioServer {
            namespaces,
            auth: self.auth,
            hub: hub.clone(),
        });
        Realtime {
            engine: Engine::new(self.config, App::SocketIo(server)),
            hub,
            presence,
            cluster: self.cluster.map(Arc::new),
        }
    }
}

/// Handle to the realtime server. Cheap to clone; every clone drives the same actors.
#[derive(Clone)]
pub struct Realtime {
    engine: Arc<Engine<Session>>,
    hub: Addr<Hub>,
    presence: Addr<Presence>,
    cluster: Option<Arc<Cluster>>,
}

impl Realtime {
    /// Starts the realtime server with the product's main namespace and `auth`.
    pub fn start(config: RealtimeConfig, auth: Arc<dyn SocketAuth>) -> Self {
        Self::builder(config).auth(auth).start()
    }

    /// A builder for more options than [`Realtime::start`].
    pub fn builder(config: RealtimeConfig) -> RealtimeBuilder {
        RealtimeBuilder {
            config,
            auth: None,
            events: HashMap::new(),
            namespaces: HashMap::new(),
            cluster: None,
        }
    }

    /// Mounts the endpoint's long-polling side at `config.path` (GET, POST, OPTIONS); its
    /// websockets are served by a [`crate::HttpServer`] given [`Self::endpoint`].
    pub fn configure(&self, cfg: &mut web::ServiceConfig) {
        transport::mount(self.engine.clone(), cfg);
    }

    /// The endpoint, for [`crate::HttpServer::endpoint`], which serves its websockets.
    pub fn endpoint(&self) -> Endpoint {
        Endpoint(self.engine.clone())
    }

    /// Emits `event` to every socket of the main namespace.
    pub fn emit_all(&self, event: impl Into<ServerEvent>) {
        self.emit(Target::All, None, event.into());
    }

    /// Emits `event` to every socket but `except`.
    pub fn emit_all_except(&self, except: SocketId, event: impl Into<ServerEvent>) {
        self.emit(Target::All, Some(except), event.into());
    }

    /// Emits `event` to the sockets in `room` (`adminRoom`, `user:{id}`, ...).
    pub fn emit_room(&self, room: &str, event: impl Into<ServerEvent>) {
        self.emit(Target::Room(room.to_owned()), None, event.into());
    }

    /// Emits `event` to every socket authenticated as `user_id` (all tabs).
    pub fn emit_user(&self, user_id: &str, event: impl Into<ServerEvent>) {
        self.emit(Target::User(user_id.to_owned()), None, event.into());
    }

    fn emit(&self, target: Target, except: Option<SocketId>, event: ServerEvent) {
        if let Some(cluster) = &self.cluster {
            cluster
                .transport
                .publish(BrokerMessage::emit(&cluster.node, &target, except, &event).encode());
        }
        self.hub.do_send(HubEmit {
            target,
            except,
            event,
            emitted: std::time::Instant::now(),
        });
    }

    /// Who is online: user ids, guest sockets and all sockets.
    pub async fn online(&self) -> OnlineSnapshot {
        self.presence.send(GetOnline).await.unwrap_or_default()
    }

    /// Those of `users` that have a live socket (across the cluster when it is one).
    pub async fn online_among(&self, users: Vec<String>) -> Vec<String> {
        self.presence
            .send(OnlineAmong(users))
            .await
            .unwrap_or_default()
    }

    /// Disconnects every socket of `user_id` (token revoked): they receive a Socket.IO
    /// DISCONNECT, so the client does not reconnect with the old token by itself.
    pub fn disconnect_user(&self, user_id: &str) {
        self.disconnect(user_id, None);
    }

    /// Disconnects the sockets of one sign-in session of `user_id` (on every node), leaving
    /// the user's other sessions connected.
    pub fn disconnect_session(&self, user_id: &str, session: &str) {
        self.disconnect(user_id, Some(session));
    }

    fn disconnect(&self, user_id: &str, session: Option<&str>) {
        if let Some(cluster) = &self.cluster {
            cluster.transport.publish(
                BrokerMessage::DisconnectUser {
                    from: cluster.node.clone(),
                    user: user_id.to_owned(),
                    session: session.map(str::to_owned),
                }
                .encode(),
            );
        }
        self.hub.do_send(DisconnectUser {
            user_id: user_id.to_owned(),
            login: session.map(str::to_owned),
        });
    }

    /// This node's name in the cluster (`None` on a single node).
    pub fn node(&self) -> Option<&str> {
        self.cluster.as_deref().map(|c| c.node.as_str())
    }

    /// Tells the other nodes that live state under `topic` changed (they get it from
    /// [`Realtime::receive`]); nothing on a single node.
    pub fn notify_cluster(&self, topic: &str, data: Value) {
        if let Some(cluster) = &self.cluster {
            cluster.transport.publish(
                BrokerMessage::Notice {
                    from: cluster.node.clone(),
                    topic: topic.to_owned(),
                    data,
                }
                .encode(),
            );
        }
    }

    /// Applies a message published by another node (the subscriber hands every message
    /// here); this node's own messages are ignored. A notice of the server's own is handed
    /// back as `(topic, data)`. A malformed message is refused.
    pub fn receive(&self, bytes: &[u8]) -> Result<Option<(String, Value)>, serde_json::Error> {
        let message = BrokerMessage::decode(bytes)?;
        let Some(node) = self.node() else {
            return Ok(None);
        };
        if message.from() == node {
            return Ok(None);
        }
        if crate::metrics::enabled() {
            crate::metrics::BROKER_MESSAGES
                .with_label_values(&["received"])
                .inc();
        }
        match message {
            BrokerMessage::Emit {
                to,
                except,
                event,
                args,
                ..
            } => {
                if let Some((target, except)) = BrokerMessage::local_target(node, to, except) {
                    self.hub.do_send(HubEmit {
                        target,
                        except,
                        event: ServerEvent::from_parts(event, args),
                        emitted: std::time::Instant::now(),
                    });
                }
            }
            BrokerMessage::DisconnectUser { user, session, .. } => {
                self.hub.do_send(DisconnectUser {
                    user_id: user,
                    login: session,
                });
            }
            BrokerMessage::Count { version, count, .. } => {
                self.presence.do_send(ClusterCount { version, count });
            }
            BrokerMessage::Notice { topic, data, .. } => return Ok(Some((topic, data))),
        }
        Ok(None)
    }

    /// Announces this node's sockets to the cluster's presence, replacing what the node held
    /// before (a previous run, or the time the store was unreachable). Call at start and
    /// whenever the store is reachable again; answers whether it worked.
    pub async fn rejoin(&self) -> bool {
        self.presence.send(Rejoin).await.unwrap_or(false)
    }

    /// Whether presence counts across the cluster (false on a single node, and while the
    /// presence store was unreachable until the next successful [`Realtime::rejoin`]).
    pub async fn in_cluster(&self) -> bool {
        self.presence.send(InCluster).await.unwrap_or(false)
    }

    /// Another node's sockets were forgotten: announces the resulting status and count
    /// changes to every node.
    pub fn reaped(&self, reset: PresenceReset) {
        self.presence.do_send(Reaped(reset));
    }

    /// Sockets in `room`, or all sockets of every namespace when `None`.
    pub async fn count_sockets(&self, room: Option<&str>) -> usize {
        self.hub
            .send(CountMembers {
                room: room.map(str::to_owned),
            })
            .await
            .unwrap_or(0)
    }

    /// Open Engine.IO sessions (connections).
    pub fn session_count(&self) -> usize {
        self.engine.len()
    }
}

/// A raw Engine.IO endpoint (no Socket.IO layer), e.g. the conformance echo server.
#[derive(Clone)]
pub struct EngineIo {
    engine: Arc<Engine<Session>>,
}

impl EngineIo {
    /// An endpoint at `config.path` handing messages to `handler`.
    pub fn new(config: RealtimeConfig, handler: Arc<dyn EngineHandler>) -> Self {
        EngineIo {
            engine: Engine::new(config, App::Raw(handler)),
        }
    }

    /// Mounts the endpoint's long-polling side at `config.path` (GET, POST, OPTIONS); its
    /// websockets are served by a [`crate::HttpServer`] given [`Self::endpoint`].
    pub fn configure(&self, cfg: &mut web::ServiceConfig) {
        transport::mount(self.engine.clone(), cfg);
    }

    /// The endpoint, for [`crate::HttpServer::endpoint`], which serves its websockets.
    pub fn endpoint(&self) -> Endpoint {
        Endpoint(self.engine.clone())
    }
}

/// The product's main namespace: presence, the `join` rules, and the server's handlers.
struct MainNamespace {
    presence: Addr<Presence>,
    events: HashMap<String, EventHandler>,
    /// Verifies guests' ids for presence.
    auth: Option<Arc<dyn SocketAuth>>,
}

impl MainNamespace {
    fn join(socket: &Socket, event: ClientEvent) {
        let room = match event.args.first() {
            Some(Value::String(room)) => room.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => String::new(),
        };
        let identity = socket.identity();
        let accepted = if room == ADMIN_ROOM {
            identity.is_some_and(|i| i.is_admin)
        } else {
            identity.is_some_and(|i| i.user_id == room)
        };
        if accepted {
            if room == ADMIN_ROOM {
                socket.join(ADMIN_ROOM);
            } else {
                socket.join(&user_room(&room));
            }
        } else {
            tracing::warn!(
                user = identity.map(|i| i.user_id.as_str()),
                room = %room,
                "realtime join refused"
            );
        }
        if let Some(ack) = event.ack {
            ack.send(vec![Value::Bool(accepted)]);
        }
    }
}

impl NamespaceHandler for MainNamespace {
    fn on_connect(&self, socket: &Socket, auth_payload: &Value) {
        let person = match socket.identity() {
            Some(identity) => Some(Person::User(identity.user_id.clone())),
            None => self
                .auth
                .as_ref()
                .and_then(|auth| auth.guest_id(auth_payload))
                .map(Person::Guest),
        };
        self.presence.do_send(SocketUp {
            socket: socket.id(),
            person,
        });
    }

    fn on_event(&self, socket: &Socket, event: ClientEvent) {
        if event.name == JOIN_EVENT {
            Self::join(socket, event);
        } else if let Some(handler) = self.events.get(&event.name) {
            handler(socket, event);
        } else {
            tracing::trace!(event = %event.name, "unhandled realtime event");
        }
    }

    fn on_disconnect(&self, socket: &Socket) {
        self.presence.do_send(SocketDown {
            socket: socket.id(),
            user: socket.identity().map(|i| i.user_id.clone()),
        });
    }
}
