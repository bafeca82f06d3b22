use super::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use serde_json::json;

fn wire(packet: &Packet) -> String {
    packet.encode_text()
}

fn decode_all(text: &str, attachments: &[Bytes]) -> Result<Packet, DecodeError> {
    let mut decoder = Decoder::default();
    let mut out = decoder.feed_text(text)?;
    for a in attachments {
        assert!(out.is_none(), "packet completed before its attachments");
        out = decoder.feed_binary(a.clone())?;
    }
    out.ok_or(DecodeError::UnexpectedFrame)
}

#[test]
fn connect_packets_have_their_wire_form() {
    let cases = [
        (
            Packet {
                kind: PacketType::Connect,
                nsp: "/".into(),
                id: None,
                data: None,
                attachments: vec![],
            },
            "0",
        ),
        (
            Packet {
                kind: PacketType::Connect,
                nsp: "/".into(),
                id: None,
                data: Some(json!({"token": "123"})),
                attachments: vec![],
            },
            "0{\"token\":\"123\"}",
        ),
        (
            Packet {
                kind: PacketType::Connect,
                nsp: "/admin".into(),
                id: None,
                data: None,
                attachments: vec![],
            },
            "0/admin,",
        ),
        (Packet::connected("/", "abc"), "0{\"sid\":\"abc\"}"),
        (
            Packet::connected("/custom", "abc"),
            "0/custom,{\"sid\":\"abc\"}",
        ),
    ];
    for (packet, text) in cases {
        assert_eq!(wire(&packet), text);
        assert_eq!(decode_all(text, &[]), Ok(packet), "decoding {text}");
    }
}

#[test]
fn a_namespace_without_trailing_comma_is_accepted() {
    let packet = decode_all("0/custom", &[]).unwrap();
    assert_eq!(packet.nsp, "/custom");
    assert_eq!(packet.data, None);
}

#[test]
fn disconnect_and_connect_error_have_their_wire_form() {
    assert_eq!(wire(&Packet::disconnect("/")), "1");
    assert_eq!(wire(&Packet::disconnect("/admin")), "1/admin,");
    assert_eq!(
        wire(&Packet::connect_error("/random", "Invalid namespace")),
        "4/random,{\"message\":\"Invalid namespace\"}"
    );
    assert_eq!(
        wire(&Packet::connect_error("/", "Not authorized")),
        "4{\"message\":\"Not authorized\"}"
    );
    assert_eq!(
        decode_all("1/admin,", &[]),
        Ok(Packet::disconnect("/admin"))
    );
}

#[test]
fn events_and_acks_have_their_wire_form() {
    let ev = Packet::event("/", "event", vec![json!(1)], vec![]);
    assert_eq!(wire(&ev), "2[\"event\",1]");
    assert_eq!(ev.encode()[0], Frame::Text("42[\"event\",1]".into()));

    let mut with_ack = Packet::event("/admin", "hello", vec![json!({"a": [true]})], vec![]);
    with_ack.id = Some(12);
    assert_eq!(wire(&with_ack), "2/admin,12[\"hello\",{\"a\":[true]}]");
    assert_eq!(decode_all(&wire(&with_ack), &[]), Ok(with_ack));

    let ack = Packet::ack("/", 456, vec![json!(1), json!("2")], vec![]);
    assert_eq!(wire(&ack), "3456[1,\"2\"]");
    assert_eq!(decode_all("3456[1,\"2\"]", &[]), Ok(ack));
}

#[test]
fn binary_packets_carry_placeholders_and_attachments() {
    let placeholder = json!({"_placeholder": true, "num": 0});
    let bin = Packet::event(
        "/",
        "bin",
        vec![placeholder.clone()],
        vec![Bytes::from_static(&[1, 2, 3])],
    );
    assert_eq!(wire(&bin), "51-[\"bin\",{\"_placeholder\":true,\"num\":0}]");
    let frames = bin.encode();
    assert_eq!(
        frames,
        vec![
            Frame::Text("451-[\"bin\",{\"_placeholder\":true,\"num\":0}]".into()),
            Frame::Binary(Bytes::from_static(&[1, 2, 3])),
        ]
    );
    assert_eq!(
        decode_all(
            "51-[\"bin\",{\"_placeholder\":true,\"num\":0}]",
            &[Bytes::from_static(&[1, 2, 3])]
        ),
        Ok(bin)
    );

    let bin_ack = Packet::ack(
        "/custom",
        789,
        vec![placeholder],
        vec![Bytes::from_static(&[4])],
    );
    assert_eq!(
        wire(&bin_ack),
        "61-/custom,789[{\"_placeholder\":true,\"num\":0}]"
    );
    assert_eq!(
        decode_all(&wire(&bin_ack), &[Bytes::from_static(&[4])]),
        Ok(bin_ack)
    );
}

#[test]
fn malformed_packets_are_refused() {
    let cases: [(&str, DecodeError); 12] = [
        ("", DecodeError::UnknownType),
        ("abc", DecodeError::UnknownType),
        ("7", DecodeError::UnknownType),
        ("2{}", DecodeError::InvalidPayload),
        ("2abc[\"message\"]", DecodeError::InvalidJson),
        ("2[]", DecodeError::InvalidPayload),
        ("2[\"disconnect\"]", DecodeError::InvalidPayload),
        ("0[]", DecodeError::InvalidPayload),
        ("1{}", DecodeError::InvalidPayload),
        ("3[", DecodeError::InvalidJson),
        ("5[\"a\"]", DecodeError::IllegalAttachments),
        ("5x-[\"a\"]", DecodeError::IllegalAttachments),
    ];
    for (text, error) in cases {
        assert_eq!(
            Decoder::default().feed_text(text),
            Err(error),
            "case {text:?}"
        );
    }
}

#[test]
fn an_ack_id_beyond_u64_is_refused() {
    assert_eq!(
        Decoder::default().feed_text("299999999999999999999999[\"a\"]"),
        Err(DecodeError::InvalidAckId)
    );
}

#[test]
fn a_placeholder_pointing_past_the_attachments_is_refused() {
    assert_eq!(
        decode_all(
            "51-[\"bin\",{\"_placeholder\":true,\"num\":1}]",
            &[Bytes::from_static(&[1])]
        ),
        Err(DecodeError::IllegalAttachments)
    );
}

#[test]
fn frames_out_of_order_are_refused() {
    let mut decoder = Decoder::default();
    assert_eq!(
        decoder.feed_binary(Bytes::from_static(&[1])),
        Err(DecodeError::UnexpectedFrame)
    );
    let mut decoder = Decoder::default();
    assert_eq!(
        decoder.feed_text("51-[\"a\",{\"_placeholder\":true,\"num\":0}]"),
        Ok(None)
    );
    assert_eq!(
        decoder.feed_text("2[\"a\"]"),
        Err(DecodeError::UnexpectedFrame)
    );
}

fn random_string(rng: &mut StdRng) -> String {
    const ALPHABET: &[char] = &[
        'a', 'Z', '0', '9', ' ', ',', '/', '-', '"', '\\', '\x1e', '\n', 'é', '€', '😀', '[',
    ];
    let len = rng.gen_range(0..8);
    (0..len)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())])
        .collect()
}

fn random_value(rng: &mut StdRng, depth: u32) -> Value {
    match rng.gen_range(0..if depth > 2 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.gen()),
        2 => json!(rng.gen::<i64>()),
        3 => json!(f64::from(rng.gen_range(-1000..1000)) / 8.0),
        4 => Value::String(random_string(rng)),
        5 => Value::Array(
            (0..rng.gen_range(0..4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.gen_range(0..4))
                .map(|_| (random_string(rng), random_value(rng, depth + 1)))
                .collect(),
        ),
    }
}

fn random_packet(rng: &mut StdRng) -> Packet {
    let nsp = ["/", "/custom", "/a-b", "/1"][rng.gen_range(0..4)].to_owned();
    let attachments: Vec<Bytes> = (0..rng.gen_range(1..4))
        .map(|_| {
            Bytes::from(
                (0..rng.gen_range(0..6))
                    .map(|_| rng.gen())
                    .collect::<Vec<u8>>(),
            )
        })
        .collect();
    let placeholders = (0..attachments.len())
        .map(|n| json!({"_placeholder": true, "num": n}))
        .collect::<Vec<_>>();
    let args: Vec<Value> = (0..rng.gen_range(0..4))
        .map(|_| random_value(rng, 0))
        .collect();
    let id = rng.gen_bool(0.5).then(|| rng.gen::<u64>());
    let name = format!("ev{}", random_string(rng));
    match rng.gen_range(0..7) {
        0 => Packet {
            kind: PacketType::Connect,
            nsp,
            id: None,
            data: rng
                .gen_bool(0.5)
                .then(|| json!({"token": random_string(rng)})),
            attachments: vec![],
        },
        1 => Packet::disconnect(&nsp),
        2 => Packet {
            id,
            ..Packet::event(&nsp, &name, args, vec![])
        },
        3 => Packet::ack(&nsp, rng.gen(), args, vec![]),
        4 => Packet::connect_error(&nsp, &random_string(rng)),
        5 => Packet {
            id,
            ..Packet::event(&nsp, &name, [args, placeholders].concat(), attachments)
        },
        _ => Packet::ack(&nsp, rng.gen(), [placeholders, args].concat(), attachments),
    }
}

#[test]
fn decoding_an_encoded_packet_gives_it_back() {
    let mut rng = StdRng::seed_from_u64(0x5eed);
    for case in 0..5_000 {
        let packet = random_packet(&mut rng);
        let frames = packet.encode();
        let Some(Frame::Text(text)) = frames.first() else {
            panic!("case {case}: no text frame");
        };
        let text = text.strip_prefix('4').expect("engine message prefix");
        let attachments: Vec<Bytes> = frames[1..]
            .iter()
            .map(|f| match f {
                Frame::Binary(b) => b.clone(),
                Frame::Text(_) => panic!("case {case}: text attachment"),
            })
            .collect();
        assert_eq!(
            decode_all(text, &attachments),
            Ok(packet.clone()),
            "case {case}: {text}"
        );
    }
}
