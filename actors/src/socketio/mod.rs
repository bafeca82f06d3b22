//! Socket.IO v5 over Engine.IO v4, split like the protocol: packet codecs ([`eio`], [`sio`]),
//! the engine (sessions, handshake, refusals), the session actor (heartbeat, upgrade,
//! namespaces, acks), the HTTP long-polling transport and the websocket transport.

use std::{collections::HashMap, sync::Arc};

use actix::Addr;

use crate::{hub::Hub, SocketAuth};

pub mod eio;
pub mod engine;
pub mod namespace;
pub(crate) mod session;
pub mod sio;
pub(crate) mod transport;
pub(crate) mod websocket;

use namespace::{EngineHandler, NamespaceHandler};

/// What an endpoint serves on top of Engine.IO.
pub(crate) enum App {
    /// Socket.IO namespaces.
    SocketIo(Arc<SioServer>),
    /// Raw Engine.IO messages.
    Raw(Arc<dyn EngineHandler>),
}

/// The Socket.IO server: registered namespaces, authentication and the hub.
pub(crate) struct SioServer {
    pub(crate) namespaces: HashMap<String, Arc<dyn NamespaceHandler>>,
    pub(crate) auth: Option<Arc<dyn SocketAuth>>,
    pub(crate) hub: Addr<Hub>,
}
