//! Socket.IO v5 packet codec.
//!
//! Wire format: `<type>[<attachments>-][<namespace>,][<ack id>][<JSON payload>]`; binary
//! attachments follow as separate Engine.IO binary messages and are referenced in the JSON
//! by placeholders `{"_placeholder":true,"num":N}`. Placeholders stay in the JSON here; the
//! attachments travel beside them in [`Packet::attachments`].

use std::fmt::Write as _;

use bytes::Bytes;
use bytestring::ByteString;
use serde_json::Value;

use super::eio::{self, Frame, Outbound};
use crate::events::ServerEvent;

/// Encodes a server event once for every receiver on `nsp`.
pub(crate) fn encode_event(event: &ServerEvent, nsp: &str) -> Outbound {
    Outbound::from_frames(
        Packet::event(nsp, event.name(), event.args().to_vec(), Vec::new()).encode(),
    )
}

/// The main namespace.
pub const ROOT_NAMESPACE: &str = "/";
/// Event names a client may not use (reserved by the client and server libraries).
pub const RESERVED_EVENTS: [&str; 6] = [
    "connect",
    "connect_error",
    "disconnect",
    "disconnecting",
    "newListener",
    "removeListener",
];
/// Key marking a binary placeholder object.
pub const PLACEHOLDER_KEY: &str = "_placeholder";
/// Key holding a placeholder's attachment index.
pub const PLACEHOLDER_NUM: &str = "num";
/// Upper bound on attachments announced by one packet (guards the decoder's memory).
pub const MAX_ATTACHMENTS: usize = 1_000;

/// Socket.IO packet types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PacketType {
    /// `0`: connect to a namespace (client, with auth) / connected (server, with sid).
    Connect,
    /// `1`: leave a namespace.
    Disconnect,
    /// `2`: an event with JSON arguments.
    Event,
    /// `3`: acknowledgement of an event.
    Ack,
    /// `4`: refusal of a CONNECT.
    ConnectError,
    /// `5`: an event with binary attachments.
    BinaryEvent,
    /// `6`: an acknowledgement with binary attachments.
    BinaryAck,
}

impl PacketType {
    fn as_char(self) -> char {
        match self {
            PacketType::Connect => '0',
            PacketType::Disconnect => '1',
            PacketType::Event => '2',
            PacketType::Ack => '3',
            PacketType::ConnectError => '4',
            PacketType::BinaryEvent => '5',
            PacketType::BinaryAck => '6',
        }
    }

    fn from_char(c: char) -> Option<Self> {
        Some(match c {
            '0' => PacketType::Connect,
            '1' => PacketType::Disconnect,
            '2' => PacketType::Event,
            '3' => PacketType::Ack,
            '4' => PacketType::ConnectError,
            '5' => PacketType::BinaryEvent,
            '6' => PacketType::BinaryAck,
            _ => return None,
        })
    }

    /// Whether packets of this type carry binary attachments.
    pub fn is_binary(self) -> bool {
        matches!(self, PacketType::BinaryEvent | PacketType::BinaryAck)
    }
}

/// One Socket.IO packet.
#[derive(Debug, Clone, PartialEq)]
pub struct Packet {
    /// Packet type.
    pub kind: PacketType,
    /// Namespace (`/` for the main one).
    pub nsp: String,
    /// Acknowledgement id, for events that expect an answer and for acks.
    pub id: Option<u64>,
    /// JSON payload.
    pub data: Option<Value>,
    /// Binary attachments (only for binary types), in placeholder order.
    pub attachments: Vec<Bytes>,
}

/// Why a Socket.IO packet was refused. Any of these closes the connection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Unknown or missing packet type.
    #[error("unknown packet type")]
    UnknownType,
    /// Attachment count missing, malformed or too large.
    #[error("illegal attachments")]
    IllegalAttachments,
    /// Acknowledgement id out of range.
    #[error("invalid ack id")]
    InvalidAckId,
    /// Payload is not JSON.
    #[error("invalid payload JSON")]
    InvalidJson,
    /// Payload JSON has the wrong shape for the packet type.
    #[error("invalid payload for packet type")]
    InvalidPayload,
    /// Text arrived while binary attachments were expected, or the reverse.
    #[error("unexpected frame while reconstructing a packet")]
    UnexpectedFrame,
}

impl Packet {
    /// An EVENT (or BINARY_EVENT when `attachments` is non-empty) on `nsp`.
    pub fn event(nsp: &str, name: &str, args: Vec<Value>, attachments: Vec<Bytes>) -> Self {
        let mut data = Vec::with_capacity(args.len() + 1);
        data.push(Value::String(name.to_owned()));
        data.extend(args);
        let kind = if attachments.is_empty() {
            PacketType::Event
        } else {
            PacketType::BinaryEvent
        };
        Packet {
            kind,
            nsp: nsp.to_owned(),
            id: None,
            data: Some(Value::Array(data)),
            attachments,
        }
    }

    /// An ACK (or BINARY_ACK) answering `id` on `nsp`.
    pub fn ack(nsp: &str, id: u64, args: Vec<Value>, attachments: Vec<Bytes>) -> Self {
        let kind = if attachments.is_empty() {
            PacketType::Ack
        } else {
            PacketType::BinaryAck
        };
        Packet {
            kind,
            nsp: nsp.to_owned(),
            id: Some(id),
            data: Some(Value::Array(args)),
            attachments,
        }
    }

    /// The server's CONNECT answer carrying the socket id.
    pub fn connected(nsp: &str, sid: &str) -> Self {
        Packet {
            kind: PacketType::Connect,
            nsp: nsp.to_owned(),
            id: None,
            data: Some(serde_json::json!({ "sid": sid })),
            attachments: Vec::new(),
        }
    }

    /// A CONNECT_ERROR with `{"message": message}`.
    pub fn connect_error(nsp: &str, message: &str) -> Self {
        Packet {
            kind: PacketType::ConnectError,
            nsp: nsp.to_owned(),
            id: None,
            data: Some(serde_json::json!({ "message": message })),
            attachments: Vec::new(),
        }
    }

    /// A DISCONNECT for `nsp`.
    pub fn disconnect(nsp: &str) -> Self {
        Packet {
            kind: PacketType::Disconnect,
            nsp: nsp.to_owned(),
            id: None,
            data: None,
            attachments: Vec::new(),
        }
    }

    /// Encodes the Socket.IO text part (without the Engine.IO `4` prefix).
    pub fn encode_text(&self) -> String {
        let mut out = String::new();
        out.push(self.kind.as_char());
        if self.kind.is_binary() {
            let _ = write!(out, "{}-", self.attachments.len());
        }
        if self.nsp != ROOT_NAMESPACE {
            out.push_str(&self.nsp);
            out.push(',');
        }
        if let Some(id) = self.id {
            let _ = write!(out, "{id}");
        }
        if let Some(data) = &self.data {
            // Writing JSON into a String cannot fail: `Value` has no fallible serializer.
            let _ = serde_json::to_writer(EngineText(&mut out), data);
        }
        out
    }

    /// Encodes the packet as Engine.IO frames: one `4...` text message then its attachments.
    pub fn encode(&self) -> Vec<Frame> {
        let mut text = String::new();
        text.push(eio::kind::MESSAGE);
        text.push_str(&self.encode_text());
        let mut frames = Vec::with_capacity(1 + self.attachments.len());
        frames.push(Frame::Text(ByteString::from(text)));
        frames.extend(self.attachments.iter().cloned().map(Frame::Binary));
        frames
    }

    /// Decodes the text part of a packet. Returns the packet and how many binary
    /// attachments must still follow.
    pub fn decode_text(text: &str) -> Result<(Packet, usize), DecodeError> {
        let mut rest = text;
        let kind = rest
            .chars()
            .next()
            .and_then(PacketType::from_char)
            .ok_or(DecodeError::UnknownType)?;
        rest = &rest[1..];

        let mut expected = 0;
        if kind.is_binary() {
            let dash = rest.find('-').ok_or(DecodeError::IllegalAttachments)?;
            let count = &rest[..dash];
            if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
                return Err(DecodeError::IllegalAttachments);
            }
            expected = count
                .parse::<usize>()
                .map_err(|_| DecodeError::IllegalAttachments)?;
            if expected > MAX_ATTACHMENTS {
                return Err(DecodeError::IllegalAttachments);
            }
            rest = &rest[dash + 1..];
        }

        let mut nsp = ROOT_NAMESPACE.to_owned();
        if rest.starts_with('/') {
            let end = rest.find(',').unwrap_or(rest.len());
            nsp = rest[..end].to_owned();
            rest = rest.get(end + 1..).unwrap_or("");
        }

        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let id = if digits > 0 {
            let id = rest[..digits]
                .parse::<u64>()
                .map_err(|_| DecodeError::InvalidAckId)?;
            rest = &rest[digits..];
            Some(id)
        } else {
            None
        };

        let data = if rest.is_empty() {
            None
        } else {
            Some(serde_json::from_str::<Value>(rest).map_err(|_| DecodeError::InvalidJson)?)
        };

        if !payload_is_valid(kind, data.as_ref()) {
            return Err(DecodeError::InvalidPayload);
        }
        let expects_id = matches!(kind, PacketType::Ack | PacketType::BinaryAck);
        let may_have_id = expects_id || matches!(kind, PacketType::Event | PacketType::BinaryEvent);
        if (id.is_some() && !may_have_id) || (id.is_none() && expects_id) {
            return Err(DecodeError::InvalidAckId);
        }

        Ok((
            Packet {
                kind,
                nsp,
                id,
                data,
                attachments: Vec::with_capacity(expected),
            },
            expected,
        ))
    }
}

/// Adapter so `serde_json::to_writer` can append to a `String` (JSON output is UTF-8).
struct EngineText<'a>(&'a mut String);

impl std::io::Write for EngineText<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let s = std::str::from_utf8(buf)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        self.0.push_str(s);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn payload_is_valid(kind: PacketType, data: Option<&Value>) -> bool {
    match kind {
        PacketType::Connect => matches!(data, None | Some(Value::Object(_))),
        PacketType::Disconnect => data.is_none(),
        PacketType::ConnectError => matches!(data, Some(Value::Object(_) | Value::String(_))),
        PacketType::Event | PacketType::BinaryEvent => match data {
            Some(Value::Array(items)) => match items.first() {
                Some(Value::Number(_)) => true,
                Some(Value::String(name)) => !RESERVED_EVENTS.contains(&name.as_str()),
                _ => false,
            },
            _ => false,
        },
        PacketType::Ack | PacketType::BinaryAck => matches!(data, Some(Value::Array(_))),
    }
}

/// Checks that every placeholder in `value` points at an existing attachment.
fn placeholders_are_valid(value: &Value, attachments: usize) -> bool {
    match value {
        Value::Array(items) => items.iter().all(|v| placeholders_are_valid(v, attachments)),
        Value::Object(map) => {
            if map.get(PLACEHOLDER_KEY) == Some(&Value::Bool(true)) {
                return map
                    .get(PLACEHOLDER_NUM)
                    .and_then(Value::as_u64)
                    .is_some_and(|n| usize::try_from(n).is_ok_and(|n| n < attachments));
            }
            map.values().all(|v| placeholders_are_valid(v, attachments))
        }
        _ => true,
    }
}

/// Reassembles packets from successive Engine.IO messages (text, then its attachments).
#[derive(Debug, Default)]
pub struct Decoder {
    pending: Option<Box<(Packet, usize)>>,
}

impl Decoder {
    /// Feeds one text message; returns a complete packet, or `None` while attachments are due.
    pub fn feed_text(&mut self, text: &str) -> Result<Option<Packet>, DecodeError> {
        if self.pending.is_some() {
            return Err(DecodeError::UnexpectedFrame);
        }
        let (packet, expected) = Packet::decode_text(text)?;
        if expected == 0 {
            return Self::finish(packet).map(Some);
        }
        self.pending = Some(Box::new((packet, expected)));
        Ok(None)
    }

    /// Feeds one binary message; returns the packet once its last attachment arrived.
    pub fn feed_binary(&mut self, data: Bytes) -> Result<Option<Packet>, DecodeError> {
        let Some(mut pending) = self.pending.take() else {
            return Err(DecodeError::UnexpectedFrame);
        };
        pending.0.attachments.push(data);
        if pending.0.attachments.len() < pending.1 {
            self.pending = Some(pending);
            return Ok(None);
        }
        Self::finish(pending.0).map(Some)
    }

    fn finish(packet: Packet) -> Result<Packet, DecodeError> {
        let n = packet.attachments.len();
        match &packet.data {
            Some(data) if packet.kind.is_binary() || n == 0 => {
                if placeholders_are_valid(data, n) {
                    Ok(packet)
                } else {
                    Err(DecodeError::IllegalAttachments)
                }
            }
            _ => Ok(packet),
        }
    }
}

#[cfg(test)]
mod tests;
