//! Property tests of the packet decoders a client reaches (run by `cargo test`, beside the
//! `fuzz/` target that explores them without bounds): arbitrary input is refused with an error,
//! never a panic, and every packet the server can encode decodes back to itself.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use bytes::Bytes;
use bytestring::ByteString;
use pressroom_actors::socketio::eio::{self, Frame};
use pressroom_actors::socketio::sio::{self, Packet, PacketType};
use proptest::prelude::*;
use serde_json::{json, Value};

/// JSON values as clients send them (integers only: floats do not round-trip textually).
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        ".{0,20}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z_]{1,8}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn namespace() -> impl Strategy<Value = String> {
    prop_oneof![Just("/".to_string()), "/[a-z][a-z0-9_-]{0,10}"]
}

/// An event, an acknowledgement or a binary event with its attachments.
fn packet() -> impl Strategy<Value = Packet> {
    (
        0u8..3,
        namespace(),
        prop::option::of(0u64..(1 << 53)),
        "[a-zA-Z][a-zA-Z0-9:_-]{0,15}",
        prop::collection::vec(json_value(), 0..4),
        prop::collection::vec(prop::collection::vec(any::<u8>(), 0..64), 1..4),
    )
        .prop_map(|(kind, nsp, id, name, args, blobs)| match kind {
            0 => {
                let mut data = vec![Value::String(name)];
                data.extend(args);
                Packet {
                    kind: PacketType::Event,
                    nsp,
                    id,
                    data: Some(Value::Array(data)),
                    attachments: Vec::new(),
                }
            }
            1 => Packet {
                kind: PacketType::Ack,
                nsp,
                id: Some(id.unwrap_or(0)),
                data: Some(Value::Array(args)),
                attachments: Vec::new(),
            },
            _ => {
                let mut data = vec![Value::String(name)];
                data.extend(args);
                for num in 0..blobs.len() {
                    data.push(json!({ sio::PLACEHOLDER_KEY: true, sio::PLACEHOLDER_NUM: num }));
                }
                Packet {
                    kind: PacketType::BinaryEvent,
                    nsp,
                    id,
                    data: Some(Value::Array(data)),
                    attachments: blobs.into_iter().map(Bytes::from).collect(),
                }
            }
        })
}

/// Feeds a packet's Engine.IO frames to a fresh decoder, as the session does.
fn decode_frames(frames: &[Frame]) -> Result<Option<Packet>, sio::DecodeError> {
    let mut decoder = sio::Decoder::default();
    let mut out = None;
    for frame in frames {
        out = match frame {
            Frame::Text(text) => {
                let packet = eio::Packet::decode_text(text).expect("an engine message");
                let eio::Packet::Message(body) = packet else {
                    panic!("not a message: {packet:?}")
                };
                decoder.feed_text(&body)?
            }
            Frame::Binary(data) => decoder.feed_binary(data.clone())?,
        };
    }
    Ok(out)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_text_is_decoded_or_refused_without_panicking(text in "\\PC{0,64}|[0-6b][\\x00-\\x7f]{0,64}") {
        let text = ByteString::from(text);
        let _ = eio::Packet::decode_text(&text);
        let _ = eio::Packet::decode_polling(&text);
        let _ = eio::decode_payload(&text);
        let mut decoder = sio::Decoder::default();
        if let Ok(Some(packet)) = decoder.feed_text(&text) {
            let _ = packet.encode();
        }
    }

    #[test]
    fn socketio_text_that_looks_like_a_packet_never_panics(
        kind in 0u8..10,
        count in "[0-9-]{0,4}",
        nsp in "(/[a-z]{0,4},)?",
        id in "[0-9]{0,22}",
        body in "\\[.{0,20}\\]?|\\{.{0,20}\\}?|.{0,10}",
        blobs in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..16), 0..4),
    ) {
        let text = format!("{kind}{count}{nsp}{id}{body}");
        let mut decoder = sio::Decoder::default();
        let _ = decoder.feed_text(&text);
        for blob in blobs {
            let _ = decoder.feed_binary(Bytes::from(blob));
        }
    }

    #[test]
    fn every_encoded_packet_decodes_to_itself(packet in packet()) {
        let frames = packet.encode();
        let decoded = decode_frames(&frames).unwrap().expect("a complete packet");
        prop_assert_eq!(decoded, packet);
    }

    #[test]
    fn polling_payloads_split_back_into_their_packets(
        items in prop::collection::vec(
            prop_oneof![
                "[^\\x1e]{0,30}".prop_map(|s| eio::Packet::Message(ByteString::from(s))),
                prop::collection::vec(any::<u8>(), 0..40).prop_map(|b| eio::Packet::Binary(Bytes::from(b))),
                Just(eio::Packet::Noop),
                "(probe)?".prop_map(|s| eio::Packet::Ping(ByteString::from(s))),
            ],
            1..8,
        )
    ) {
        let frames: Vec<Frame> = items.iter().map(eio::Packet::encode).collect();
        let body = ByteString::from(eio::encode_payload(&frames));
        let back = eio::decode_payload(&body).unwrap();
        prop_assert_eq!(back, items);
    }

    #[test]
    fn an_attachment_count_past_the_limit_is_refused(extra in 1usize..1_000_000) {
        let text = format!("5{}-[\"e\",{{\"_placeholder\":true,\"num\":0}}]", sio::MAX_ATTACHMENTS + extra);
        let mut decoder = sio::Decoder::default();
        prop_assert!(decoder.feed_text(&text).is_err());
    }
}
