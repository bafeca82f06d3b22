//! Socket.IO v5 over Engine.IO v4, split like the protocol: packet codecs ([`eio`], [`sio`]),
//! ids, the engine (sessions, handshake, refusals), the session actor (heartbeat, upgrade,
//! namespaces, acks), the rooms (who receives an emit), the HTTP long-polling transport and
//! the websocket transport.

pub mod eio;
pub mod engine;
pub(crate) mod handshake;
pub mod ids;
pub(crate) mod mailbox;
pub mod namespace;
pub mod rooms;
pub(crate) mod session;
pub mod sio;
pub(crate) mod transport;
pub(crate) mod websocket;
