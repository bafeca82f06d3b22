use super::*;
use futures_util::StreamExt;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const MASK: [u8; 4] = [0x37, 0xfa, 0x21, 0x3d];

/// A frame as a client sends it (masked).
fn client_frame(first: u8, payload: &[u8]) -> Vec<u8> {
    let mut frame = vec![first];
    match payload.len() {
        len @ 0..=125 => frame.push(0x80 | u8::try_from(len).unwrap_or_default()),
        len => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&u16::try_from(len).unwrap_or_default().to_be_bytes());
        }
    }
    frame.extend_from_slice(&MASK);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ MASK[i % 4]));
    frame
}

/// A connected pair: the server side (for the reader or writer) and the client side.
async fn pair() -> (Arc<TcpStream>, TcpStream) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let client = TcpStream::connect(listener.local_addr().unwrap())
        .await
        .unwrap();
    let (server, _) = listener.accept().await.unwrap();
    (Arc::new(server), client)
}

async fn reader_with(max: usize, bytes: &[u8]) -> (WsReader, TcpStream) {
    let (server, mut client) = pair().await;
    client.write_all(bytes).await.unwrap();
    (WsReader::new(server, BytesMut::new(), max), client)
}

#[test]
fn headers_use_the_shortest_length_encoding() {
    let (head, len) = frame_header(OP_TEXT, 5);
    assert_eq!(&head[..len], &[0x81, 5]);
    let (head, len) = frame_header(OP_BINARY, 125);
    assert_eq!(&head[..len], &[0x82, 125]);
    let (head, len) = frame_header(OP_TEXT, 126);
    assert_eq!(&head[..len], &[0x81, 126, 0, 126]);
    let (head, len) = frame_header(OP_TEXT, 65_535);
    assert_eq!(&head[..len], &[0x81, 126, 0xff, 0xff]);
    let (head, len) = frame_header(OP_TEXT, 65_536);
    assert_eq!(&head[..len], &[0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]);
}

#[tokio::test]
async fn the_reader_joins_fragments_around_control_frames() {
    let mut bytes = client_frame(0x01, b"he");
    bytes.extend(client_frame(0x89, b"p"));
    bytes.extend(client_frame(0x00, b"ll"));
    bytes.extend(client_frame(0x80, "o €".as_bytes()));
    bytes.extend(client_frame(0x82, &[1, 2, 3]));
    bytes.extend(client_frame(0x88, &[0x03, 0xe8]));
    let (mut reader, _client) = reader_with(1_000, &bytes).await;
    assert_eq!(
        reader.next().await,
        Some(WsInbound::Ping(Bytes::from_static(b"p")))
    );
    assert_eq!(
        reader.next().await,
        Some(WsInbound::Text(ByteString::from_static("hello €")))
    );
    assert_eq!(
        reader.next().await,
        Some(WsInbound::Binary(Bytes::from_static(&[1, 2, 3])))
    );
    assert_eq!(reader.next().await, Some(WsInbound::Closed));
    assert_eq!(reader.next().await, None);
}

#[tokio::test]
async fn the_reader_starts_with_the_bytes_that_came_with_the_handshake() {
    let (server, mut client) = pair().await;
    let early = BytesMut::from(&client_frame(0x81, b"40")[..]);
    let mut reader = WsReader::new(server, early, 1_000);
    assert_eq!(
        reader.next().await,
        Some(WsInbound::Text(ByteString::from_static("40")))
    );
    client.shutdown().await.unwrap();
    assert_eq!(reader.next().await, Some(WsInbound::Closed));
    assert_eq!(reader.next().await, None);
}

#[tokio::test]
async fn the_reader_refuses_big_unmasked_and_malformed_messages() {
    let (mut reader, _c) = reader_with(10, &client_frame(0x81, b"0123456789x")).await;
    assert_eq!(reader.next().await, Some(WsInbound::TooBig));
    assert_eq!(reader.next().await, None);

    let mut joined = client_frame(0x01, b"012345");
    joined.extend(client_frame(0x80, b"6789x"));
    let (mut reader, _c) = reader_with(10, &joined).await;
    assert_eq!(reader.next().await, Some(WsInbound::TooBig));

    let (mut reader, _c) = reader_with(10, &[0x81, 0x02, b'4', b'0']).await;
    assert_eq!(reader.next().await, Some(WsInbound::Invalid));

    let (mut reader, _c) = reader_with(10, &client_frame(0x81, &[0xff, 0xfe])).await;
    assert_eq!(reader.next().await, Some(WsInbound::Invalid));

    let (mut reader, _c) = reader_with(10, &client_frame(0x80, b"x")).await;
    assert_eq!(reader.next().await, Some(WsInbound::Invalid));
}

#[tokio::test]
async fn a_writer_queues_what_the_socket_refuses_and_drains_it_in_order() {
    let (server, mut client) = pair().await;
    let mut writer = WsWriter::new(server);
    let encoded = encode(&Frame::Text(ByteString::from_static("40")));
    assert_eq!(writer.send(&WsFrame::Encoded(&encoded)), Written::Sent);
    let payload = vec![7u8; 70_000];
    let mut frames = 1;
    while writer.send(&WsFrame::Binary(&payload)) == Written::Sent {
        frames += 1;
        assert!(frames < 10_000, "the socket never filled up");
    }
    assert!(writer.queued() > 0);
    assert_eq!(
        writer.send(&WsFrame::Close(Some((1008, "bye")))),
        Written::Queued
    );
    let expected = 4 + (frames - 1) * (10 + payload.len()) + (10 + payload.len()) + 7;
    let reading = tokio::spawn(async move {
        let mut received = Vec::new();
        let mut chunk = vec![0u8; 1 << 16];
        while received.len() < expected {
            let n = client.read(&mut chunk).await.unwrap();
            assert!(n > 0, "the connection ended early");
            received.extend_from_slice(&chunk[..n]);
        }
        received
    });
    futures_util::future::poll_fn(|cx| writer.poll_flush(cx))
        .await
        .unwrap();
    assert_eq!(writer.queued(), 0);
    let received = reading.await.unwrap();
    assert_eq!(received.len(), expected);
    assert_eq!(&received[..4], &[0x81, 2, b'4', b'0']);
    assert_eq!(&received[4..6], &[0x82, 127]);
    assert_eq!(
        &received[expected - 7..],
        &[0x88, 5, 0x03, 0xf0, b'b', b'y', b'e']
    );
}

#[tokio::test]
async fn a_full_link_overflows_and_then_takes_nothing() {
    let (server, _client) = pair().await;
    let link = Link::new(WsWriter::new(server), 2);
    let big = encode(&Frame::Binary(Bytes::from(vec![1u8; 1 << 20])));
    let mut outcomes = Vec::new();
    loop {
        let pushed = link.push_encoded(std::slice::from_ref(&big));
        outcomes.push(pushed);
        if pushed == Pushed::Overflow || outcomes.len() > 1_000 {
            break;
        }
    }
    assert_eq!(outcomes.last(), Some(&Pushed::Overflow));
    assert!(outcomes.contains(&Pushed::StartFlush));
    assert_eq!(
        link.push(&[Frame::Text(ByteString::from_static("4x"))]),
        Pushed::Closed
    );
}
