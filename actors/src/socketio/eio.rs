//! Engine.IO v4 packet codec: one packet per websocket frame, or several packets in one
//! HTTP long-polling payload separated by `\x1e`, binary ones base64-encoded behind a `b`.

use std::sync::Arc;

use base64::Engine as _;
use bytes::Bytes;
use bytestring::ByteString;

/// Separator between packets of one long-polling payload (ASCII record separator).
pub const RECORD_SEPARATOR: char = '\x1e';
/// Prefix of a base64-encoded binary packet inside a long-polling payload.
pub const BINARY_PREFIX: char = 'b';

/// Engine.IO packet type identifiers, as sent on the wire.
pub mod kind {
    /// Handshake, server to client.
    pub const OPEN: char = '0';
    /// The transport can be closed.
    pub const CLOSE: char = '1';
    /// Heartbeat request (also the upgrade probe).
    pub const PING: char = '2';
    /// Heartbeat answer (also the upgrade probe answer).
    pub const PONG: char = '3';
    /// Application payload.
    pub const MESSAGE: char = '4';
    /// Completes a transport upgrade.
    pub const UPGRADE: char = '5';
    /// Does nothing; ends a pending poll during an upgrade.
    pub const NOOP: char = '6';
}

/// One decoded Engine.IO packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Packet {
    /// `0` + handshake JSON.
    Open(ByteString),
    /// `1`.
    Close,
    /// `2` with an optional payload (`probe` during an upgrade).
    Ping(ByteString),
    /// `3` with an optional payload (`probe` during an upgrade).
    Pong(ByteString),
    /// `4` + text payload.
    Message(ByteString),
    /// Binary message (raw websocket binary frame, or `b` + base64 in a polling payload).
    Binary(Bytes),
    /// `5`.
    Upgrade,
    /// `6`.
    Noop,
}

/// Why a packet could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Empty text where a packet was expected.
    #[error("empty packet")]
    Empty,
    /// The first character is not a known packet type.
    #[error("unknown packet type {0:?}")]
    UnknownType(char),
    /// A `b` packet whose payload is not valid base64.
    #[error("invalid base64 payload")]
    InvalidBase64,
}

impl Packet {
    /// Decodes the text of one websocket text frame (no `b` prefix allowed there).
    pub fn decode_text(text: &ByteString) -> Result<Self, DecodeError> {
        let mut chars = text.chars();
        let first = chars.next().ok_or(DecodeError::Empty)?;
        let rest = text.slice_ref(chars.as_str());
        Ok(match first {
            kind::OPEN => Packet::Open(rest),
            kind::CLOSE => Packet::Close,
            kind::PING => Packet::Ping(rest),
            kind::PONG => Packet::Pong(rest),
            kind::MESSAGE => Packet::Message(rest),
            kind::UPGRADE => Packet::Upgrade,
            kind::NOOP => Packet::Noop,
            other => return Err(DecodeError::UnknownType(other)),
        })
    }

    /// Decodes one packet of a long-polling payload (`b` + base64 allowed).
    pub fn decode_polling(text: &ByteString) -> Result<Self, DecodeError> {
        match text.strip_prefix(BINARY_PREFIX) {
            Some(encoded) => base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .map(|data| Packet::Binary(Bytes::from(data)))
                .map_err(|_| DecodeError::InvalidBase64),
            None => Self::decode_text(text),
        }
    }

    /// Encodes the packet as one websocket frame.
    pub fn encode(&self) -> Frame {
        let with = |k: char, data: &str| {
            let mut s = String::with_capacity(1 + data.len());
            s.push(k);
            s.push_str(data);
            Frame::Text(ByteString::from(s))
        };
        match self {
            Packet::Open(data) => with(kind::OPEN, data),
            Packet::Close => Frame::Text(ByteString::from_static("1")),
            Packet::Ping(data) => with(kind::PING, data),
            Packet::Pong(data) => with(kind::PONG, data),
            Packet::Message(data) => with(kind::MESSAGE, data),
            Packet::Binary(data) => Frame::Binary(data.clone()),
            Packet::Upgrade => Frame::Text(ByteString::from_static("5")),
            Packet::Noop => Frame::Text(ByteString::from_static("6")),
        }
    }
}

/// An encoded Engine.IO packet, ready for either transport.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A complete text packet including its type character (`"42[\"a\"]"`).
    Text(ByteString),
    /// A binary message (websocket binary frame; `b` + base64 when polling).
    Binary(Bytes),
}

impl Frame {
    /// Length in bytes of this frame's wire form on websocket.
    pub fn len(&self) -> usize {
        match self {
            Frame::Text(t) => t.len(),
            Frame::Binary(b) => b.len(),
        }
    }

    /// Whether the frame carries no byte at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Frames ready for a session: one frame, or a packet with its attachments.
#[derive(Debug, Clone)]
pub(crate) enum Outbound {
    One(Frame),
    Many(Arc<[Frame]>),
}

impl Outbound {
    pub(crate) fn from_frames(mut frames: Vec<Frame>) -> Self {
        if frames.len() == 1 {
            if let Some(frame) = frames.pop() {
                return Outbound::One(frame);
            }
        }
        Outbound::Many(frames.into())
    }

    pub(crate) fn frames(&self) -> &[Frame] {
        match self {
            Outbound::One(frame) => std::slice::from_ref(frame),
            Outbound::Many(frames) => frames,
        }
    }
}

/// Splits a long-polling request body into packets.
pub fn decode_payload(body: &ByteString) -> Result<Vec<Packet>, DecodeError> {
    body.split(RECORD_SEPARATOR)
        .map(|part| Packet::decode_polling(&body.slice_ref(part)))
        .collect()
}

/// Joins frames into one long-polling response body.
pub fn encode_payload<'a>(frames: impl IntoIterator<Item = &'a Frame>) -> String {
    let mut out = String::new();
    for (i, frame) in frames.into_iter().enumerate() {
        if i > 0 {
            out.push(RECORD_SEPARATOR);
        }
        match frame {
            Frame::Text(t) => out.push_str(t),
            Frame::Binary(b) => {
                out.push(BINARY_PREFIX);
                base64::engine::general_purpose::STANDARD.encode_string(b, &mut out);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> ByteString {
        ByteString::from(s.to_owned())
    }

    #[test]
    fn every_text_packet_type_has_its_wire_form() {
        let cases = [
            (Packet::Open(text("{\"sid\":\"x\"}")), "0{\"sid\":\"x\"}"),
            (Packet::Close, "1"),
            (Packet::Ping(text("")), "2"),
            (Packet::Ping(text("probe")), "2probe"),
            (Packet::Pong(text("probe")), "3probe"),
            (Packet::Pong(text("")), "3"),
            (Packet::Message(text("hello")), "4hello"),
            (Packet::Upgrade, "5"),
            (Packet::Noop, "6"),
        ];
        for (packet, wire) in cases {
            assert_eq!(
                packet.encode(),
                Frame::Text(text(wire)),
                "encoding {packet:?}"
            );
            assert_eq!(
                Packet::decode_text(&text(wire)),
                Ok(packet.clone()),
                "decoding {wire:?}"
            );
        }
    }

    #[test]
    fn a_binary_packet_is_sent_as_is_on_websocket() {
        let packet = Packet::Binary(Bytes::from_static(&[1, 2, 3, 4]));
        assert_eq!(
            packet.encode(),
            Frame::Binary(Bytes::from_static(&[1, 2, 3, 4]))
        );
    }

    #[test]
    fn unknown_or_empty_packets_are_rejected() {
        assert_eq!(
            Packet::decode_text(&text("abc")),
            Err(DecodeError::UnknownType('a'))
        );
        assert_eq!(Packet::decode_text(&text("")), Err(DecodeError::Empty));
        assert_eq!(
            Packet::decode_text(&text("bAQID")),
            Err(DecodeError::UnknownType('b'))
        );
        assert_eq!(
            Packet::decode_polling(&text("b!!!")),
            Err(DecodeError::InvalidBase64)
        );
    }

    #[test]
    fn a_polling_payload_splits_on_the_record_separator() {
        let body = text("4hello\x1e2\x1e4world\x1ebAQIDBA==");
        assert_eq!(
            decode_payload(&body),
            Ok(vec![
                Packet::Message(text("hello")),
                Packet::Ping(text("")),
                Packet::Message(text("world")),
                Packet::Binary(Bytes::from_static(&[1, 2, 3, 4])),
            ])
        );
    }

    #[test]
    fn a_polling_payload_with_one_bad_packet_is_rejected() {
        assert!(decode_payload(&text("4hello\x1eabc")).is_err());
    }

    #[test]
    fn frames_join_into_a_polling_payload_with_base64_binary() {
        let frames = [
            Frame::Text(text("4hello")),
            Frame::Binary(Bytes::from_static(&[1, 2, 3, 4])),
            Frame::Text(text("2")),
        ];
        assert_eq!(encode_payload(&frames), "4hello\x1ebAQIDBA==\x1e2");
        assert_eq!(encode_payload(&frames[..1]), "4hello");
        assert_eq!(encode_payload(&[]), "");
    }

    #[test]
    fn multibyte_text_survives_a_polling_round_trip() {
        let body = text("4€€€\x1e4hé");
        let packets = decode_payload(&body).unwrap();
        let frames: Vec<Frame> = packets.iter().map(Packet::encode).collect();
        assert_eq!(encode_payload(&frames), "4€€€\x1e4hé");
    }
}
