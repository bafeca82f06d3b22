//! What a session hears from the handles of its sockets and from the rooms: one message type,
//! so that they hold a [`SessionRef`] and need not know the session actor.

use actix::{Message, Recipient};
use bytes::Bytes;
use serde_json::Value;

use super::{eio::Outbound, ids::SocketId, sio::Packet};

/// Where a session's handles send their [`Command`]s.
pub(crate) type SessionRef = Recipient<Command>;

/// A request to a session.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) enum Command {
    /// Frames to write to the client, in order (from any socket handle or the rooms).
    Deliver(Outbound),
    /// The session's mailbox or its link's backlog was full (from the rooms): the client is
    /// too slow, close it.
    Overflowed,
    /// A frame the rooms wrote to this session's link had to wait for the socket: drain the
    /// link's backlog.
    FlushLink,
    /// Leave a namespace with a DISCONNECT packet, and optionally close the whole connection
    /// afterwards (from a socket handle or the rooms).
    Disconnect {
        /// The socket leaving.
        socket: SocketId,
        /// Whether the connection closes too.
        close_connection: bool,
    },
    /// Drop the connection without DISCONNECT; the client reconnects (from a socket handle).
    CloseTransport,
    /// Emit an event and remember the callback for its ACK (from a socket handle).
    EmitWithAck {
        /// The emitting socket.
        socket: SocketId,
        /// The event, without its ack id.
        packet: Packet,
        /// Run with the client's acknowledgement.
        callback: AckCallback,
    },
}

/// The answer to a server event emitted with `Socket::emit_with_ack`.
#[derive(Debug, Clone, PartialEq)]
pub struct AckReply {
    /// Acknowledgement arguments (placeholders for binary ones).
    pub args: Vec<Value>,
    /// Binary attachments referenced by the placeholders.
    pub attachments: Vec<Bytes>,
}

/// Callback run when the client acknowledges a server event.
pub type AckCallback = Box<dyn FnOnce(AckReply) + Send + 'static>;
