//! What an application plugs into the Socket.IO layer: namespace handlers, the socket
//! handle they receive, client events with their acknowledgement, and raw Engine.IO handlers.

use std::sync::Arc;

use actix::Addr;
use bytes::Bytes;
use bytestring::ByteString;
use serde_json::Value;

pub use super::mailbox::{AckCallback, AckReply};
use super::{
    eio::Outbound,
    ids::{Sid, SocketId},
    mailbox::{Command, SessionRef},
    rooms::{Hub, JoinRoom, LeaveRoom},
    sio::{encode_event, Packet},
};
use crate::{auth::Identity, events::ServerEvent};

/// Reacts to the sockets of one namespace. Methods run on the connection's actor: they must
/// not block; spawn a task for slow work and keep the [`Socket`] handle to answer later.
pub trait NamespaceHandler: Send + Sync + 'static {
    /// A client connected to the namespace; `auth` is the CONNECT payload (`{}` if none).
    fn on_connect(&self, socket: &Socket, auth: &Value) {
        let _ = (socket, auth);
    }

    /// The client emitted an event on this namespace.
    fn on_event(&self, socket: &Socket, event: ClientEvent);

    /// The socket left the namespace (client or server disconnect, or connection lost).
    fn on_disconnect(&self, socket: &Socket) {
        let _ = socket;
    }
}

/// An event emitted by a client.
#[derive(Debug)]
pub struct ClientEvent {
    /// Event name (numeric names are given as text).
    pub name: String,
    /// Arguments after the name; binary ones appear as `{"_placeholder":true,"num":N}`.
    pub args: Vec<Value>,
    /// Binary attachments referenced by the placeholders.
    pub attachments: Vec<Bytes>,
    /// Present when the client waits for an acknowledgement.
    pub ack: Option<AckSender>,
}

/// Answers one client event that asked for an acknowledgement.
#[derive(Debug)]
pub struct AckSender {
    session: SessionRef,
    nsp: Arc<str>,
    id: u64,
}

impl AckSender {
    pub(crate) fn new(session: SessionRef, nsp: Arc<str>, id: u64) -> Self {
        AckSender { session, nsp, id }
    }

    /// Sends the acknowledgement with JSON arguments.
    pub fn send(self, args: Vec<Value>) {
        self.send_binary(args, Vec::new());
    }

    /// Sends the acknowledgement with arguments referencing binary attachments.
    pub fn send_binary(self, args: Vec<Value>, attachments: Vec<Bytes>) {
        let packet = Packet::ack(&self.nsp, self.id, args, attachments);
        self.session
            .do_send(Command::Deliver(Outbound::from_frames(packet.encode())));
    }
}

/// Handle to one connected socket. Cheap to clone and usable from any thread.
#[derive(Clone)]
pub struct Socket {
    inner: Arc<SocketInner>,
}

struct SocketInner {
    id: SocketId,
    public_id: Sid,
    nsp: Arc<str>,
    identity: Option<Identity>,
    session: SessionRef,
    hub: Addr<Hub>,
}

impl std::fmt::Debug for Socket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Socket")
            .field("id", &self.inner.public_id)
            .field("nsp", &self.inner.nsp)
            .field("user", &self.inner.identity.as_ref().map(|i| &i.user_id))
            .finish()
    }
}

impl Socket {
    pub(crate) fn new(
        nsp: Arc<str>,
        identity: Option<Identity>,
        session: SessionRef,
        hub: Addr<Hub>,
    ) -> Self {
        Socket {
            inner: Arc::new(SocketInner {
                id: SocketId::next(),
                public_id: Sid::random(),
                nsp,
                identity,
                session,
                hub,
            }),
        }
    }

    /// Hub key of this socket.
    pub fn id(&self) -> SocketId {
        self.inner.id
    }

    /// The id sent to the client in the CONNECT answer (`socket.id` on the client).
    pub fn public_id(&self) -> &str {
        self.inner.public_id.as_str()
    }

    /// Namespace of this socket.
    pub fn namespace(&self) -> &str {
        &self.inner.nsp
    }

    pub(crate) fn nsp_arc(&self) -> Arc<str> {
        self.inner.nsp.clone()
    }

    /// The authenticated user, or `None` for a guest.
    pub fn identity(&self) -> Option<&Identity> {
        self.inner.identity.as_ref()
    }

    /// Emits an event with JSON arguments to this socket.
    pub fn emit(&self, event: &str, args: Vec<Value>) {
        self.emit_binary(event, args, Vec::new());
    }

    /// Emits an event whose arguments reference binary attachments by placeholder.
    pub fn emit_binary(&self, event: &str, args: Vec<Value>, attachments: Vec<Bytes>) {
        let packet = Packet::event(&self.inner.nsp, event, args, attachments);
        self.inner
            .session
            .do_send(Command::Deliver(Outbound::from_frames(packet.encode())));
    }

    /// Emits one of the typed server events to this socket.
    pub fn emit_event(&self, event: impl Into<ServerEvent>) {
        let event = event.into();
        self.inner
            .session
            .do_send(Command::Deliver(encode_event(&event, &self.inner.nsp)));
    }

    /// Emits an event and runs `on_ack` when the client acknowledges it. The callback is
    /// dropped unrun if the socket goes away first.
    pub fn emit_with_ack(
        &self,
        event: &str,
        args: Vec<Value>,
        attachments: Vec<Bytes>,
        on_ack: impl FnOnce(AckReply) + Send + 'static,
    ) {
        self.inner.session.do_send(Command::EmitWithAck {
            socket: self.inner.id,
            packet: Packet::event(&self.inner.nsp, event, args, attachments),
            callback: Box::new(on_ack),
        });
    }

    /// Adds this socket to a room.
    pub fn join(&self, room: &str) {
        self.inner.hub.do_send(JoinRoom {
            socket: self.inner.id,
            room: room.into(),
        });
    }

    /// Removes this socket from a room.
    pub fn leave(&self, room: &str) {
        self.inner.hub.do_send(LeaveRoom {
            socket: self.inner.id,
            room: room.into(),
        });
    }

    /// Disconnects the socket from its namespace (the client is told and does not reconnect).
    pub fn disconnect(&self) {
        self.inner.session.do_send(Command::Disconnect {
            socket: self.inner.id,
            close_connection: false,
        });
    }

    /// Drops the whole connection without a Socket.IO DISCONNECT, as a network failure
    /// would: the client library reconnects by itself.
    pub fn close_transport(&self) {
        self.inner.session.do_send(Command::CloseTransport);
    }
}

/// A message of a raw Engine.IO connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawMessage {
    /// Text message.
    Text(ByteString),
    /// Binary message.
    Binary(Bytes),
}

/// Handle to one raw Engine.IO connection.
#[derive(Clone)]
pub struct EngineConn {
    sid: Sid,
    session: SessionRef,
}

impl EngineConn {
    pub(crate) fn new(sid: Sid, session: SessionRef) -> Self {
        EngineConn { sid, session }
    }

    /// Session id of the connection.
    pub fn sid(&self) -> &str {
        self.sid.as_str()
    }

    /// Sends one message.
    pub fn send(&self, message: RawMessage) {
        let frame = match message {
            RawMessage::Text(text) => {
                let mut s = String::with_capacity(1 + text.len());
                s.push(super::eio::kind::MESSAGE);
                s.push_str(&text);
                super::eio::Frame::Text(s.into())
            }
            RawMessage::Binary(data) => super::eio::Frame::Binary(data),
        };
        self.session
            .do_send(Command::Deliver(Outbound::from_frames(vec![frame])));
    }

    /// Closes the connection.
    pub fn close(&self) {
        self.session.do_send(Command::CloseTransport);
    }
}

/// Reacts to raw Engine.IO connections (no Socket.IO layer).
pub trait EngineHandler: Send + Sync + 'static {
    /// A connection opened.
    fn on_open(&self, conn: &EngineConn) {
        let _ = conn;
    }

    /// A message arrived.
    fn on_message(&self, conn: &EngineConn, message: RawMessage);

    /// The connection closed.
    fn on_close(&self, conn: &EngineConn) {
        let _ = conn;
    }
}
