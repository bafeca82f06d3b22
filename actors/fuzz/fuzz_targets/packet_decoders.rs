//! Feeds arbitrary bytes to every decoder a client can reach: Engine.IO websocket frames,
//! long-polling payloads, and the Socket.IO decoder with text and binary messages mixed.
//! Decoders must refuse bad input with an error, never panic.
#![no_main]

use bytes::Bytes;
use bytestring::ByteString;
use libfuzzer_sys::fuzz_target;
use pressroom_actors::socketio::{eio, sio};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let text = ByteString::from(text.to_owned());
        let _ = eio::Packet::decode_text(&text);
        let _ = eio::decode_payload(&text);
    }

    // First byte chooses how the rest is split into text and binary messages.
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut decoder = sio::Decoder::default();
    for (i, chunk) in rest.split(|b| *b == 0x1e).enumerate() {
        let binary = mode & (1 << (i % 8)) != 0;
        let result = if binary {
            decoder.feed_binary(Bytes::copy_from_slice(chunk))
        } else if let Ok(text) = std::str::from_utf8(chunk) {
            decoder.feed_text(text)
        } else {
            continue;
        };
        if let Ok(Some(packet)) = result {
            // A decoded packet must encode without panicking.
            let _ = packet.encode();
        }
    }
});
