//! The websocket transport through the real HTTP server, in process, with a raw TCP client:
//! the hand-over from actix-http after the handshake, refusals, the hub's direct writes, the
//! disconnection of a client that does not read, and the order of arrivals that the protocol
//! test suites depend on (the packet after a CONNECT answer, a poll during an upgrade).

// Test helpers fail the test loudly on unexpected input.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::{net::TcpListener, sync::Arc, time::Duration};

use actix_web::App;
use common::{eventually, http_request};
use futures_util::future::BoxFuture;
use pressroom_actors::{
    events::NewAppeal, ClientEvent, HttpServer, Identity, NamespaceHandler, Realtime,
    RealtimeConfig, Socket, SocketAuth,
};
use serde_json::Value;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    time::Instant,
};

/// The key and accept value of RFC 6455's example handshake.
const KEY: &str = "dGhlIHNhbXBsZSBub25jZQ==";
const ACCEPT: &str = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
const PATIENCE: Duration = Duration::from_secs(5);

struct Guests;

impl SocketAuth for Guests {
    fn authenticate(
        &self,
        _token: Option<String>,
    ) -> BoxFuture<'static, Result<Option<Identity>, String>> {
        Box::pin(async { Ok(None) })
    }
}

/// Starts a server with `config` on a free port; the realtime handle and the port.
fn serve(config: RealtimeConfig) -> (Realtime, u16) {
    serve_realtime(Realtime::start(config, Arc::new(Guests)))
}

/// Serves `realtime` on a free port; the handle and the port.
fn serve_realtime(realtime: Realtime) -> (Realtime, u16) {
    let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let handle = realtime.clone();
    let server = HttpServer::new(move || {
        let realtime = handle.clone();
        App::new().configure(move |cfg| realtime.configure(cfg))
    })
    .endpoint(realtime.endpoint())
    .workers(1)
    .listen(listener)
    .unwrap();
    actix_rt::spawn(server);
    (realtime, port)
}

/// A raw websocket client: what it read but did not look at waits in `buf`.
struct Client {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Client {
    /// Sends a websocket handshake for `path_and_query`; the client and the response head.
    async fn open(port: u16, path_and_query: &str) -> (Client, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let request = format!(
            "GET {path_and_query} HTTP/1.1\r\nhost: 127.0.0.1\r\nupgrade: websocket\r\n\
             connection: Upgrade\r\nsec-websocket-key: {KEY}\r\nsec-websocket-version: 13\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut client = Client {
            stream,
            buf: Vec::new(),
        };
        let head = loop {
            if let Some(end) = client.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8(client.buf[..end + 4].to_vec()).unwrap();
                client.buf.drain(..end + 4);
                break head;
            }
            assert!(client.fill().await, "the server closed before answering");
        };
        (client, head)
    }

    /// Reads more; false at the end of the stream.
    async fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 4096];
        let n = tokio::time::timeout(PATIENCE, self.stream.read(&mut chunk))
            .await
            .expect("nothing came")
            .unwrap_or(0);
        self.buf.extend_from_slice(&chunk[..n]);
        n > 0
    }

    /// The rest of the body of an HTTP answer, up to the end of the stream.
    async fn rest(&mut self) -> String {
        while self.fill().await {}
        String::from_utf8(std::mem::take(&mut self.buf)).unwrap()
    }

    /// The next server frame: its opcode and payload.
    async fn frame(&mut self) -> (u8, Vec<u8>) {
        loop {
            if self.buf.len() >= 2 {
                let (len, start) = match self.buf[1] {
                    126 if self.buf.len() >= 4 => (
                        usize::from(u16::from_be_bytes([self.buf[2], self.buf[3]])),
                        4,
                    ),
                    127 if self.buf.len() >= 10 => (
                        usize::try_from(u64::from_be_bytes(self.buf[2..10].try_into().unwrap()))
                            .unwrap(),
                        10,
                    ),
                    short @ 0..=125 => (usize::from(short), 2),
                    _ => (usize::MAX, 0),
                };
                if len != usize::MAX && self.buf.len() >= start + len {
                    let opcode = self.buf[0] & 0x0f;
                    assert_eq!(self.buf[0] & 0x80, 0x80, "server frames are final");
                    let payload = self.buf[start..start + len].to_vec();
                    self.buf.drain(..start + len);
                    return (opcode, payload);
                }
            }
            assert!(self.fill().await, "the connection ended");
        }
    }

    /// The next text frame that is not a ping.
    async fn text(&mut self) -> String {
        loop {
            let (opcode, payload) = self.frame().await;
            assert_eq!(opcode, 1, "a text frame");
            let text = String::from_utf8(payload).unwrap();
            if text != "2" {
                return text;
            }
        }
    }

    async fn send_text(&mut self, text: &str) {
        let mask = [1u8, 2, 3, 4];
        let mut frame = vec![0x81, 0x80 | u8::try_from(text.len()).unwrap()];
        frame.extend_from_slice(&mask);
        frame.extend(text.bytes().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.stream.write_all(&frame).await.unwrap();
    }
}

#[actix_rt::test]
async fn a_websocket_is_handed_over_and_the_hub_writes_to_it() {
    let (realtime, port) = serve(RealtimeConfig::default());
    let (mut client, head) = Client::open(port, "/socket.io/?EIO=4&transport=websocket").await;
    assert!(
        head.starts_with("HTTP/1.1 101 Switching Protocols\r\n"),
        "{head}"
    );
    assert!(
        head.contains(&format!("sec-websocket-accept: {ACCEPT}\r\n")),
        "{head}"
    );

    let open = client.text().await;
    assert!(open.starts_with("0{"), "{open}");
    assert!(open.contains(r#""sid":""#), "{open}");
    assert!(open.contains(r#""upgrades":[]"#), "{open}");
    client.send_text("40").await;
    assert!(client.text().await.starts_with(r#"40{"sid":""#));
    assert_eq!(realtime.session_count(), 1);

    // Sent by the hub on its own thread, straight to the socket.
    tokio::time::sleep(Duration::from_millis(50)).await;
    realtime.emit_all(NewAppeal {
        post_id: "p1".into(),
        post_title: "Title".into(),
    });
    let event = loop {
        // Presence announces the count of sockets too.
        let event = client.text().await;
        if !event.starts_with(r#"42["onlineUsersCount""#) {
            break event;
        }
    };
    assert!(event.starts_with(r#"42["newAppeal""#), "{event}");
    assert!(event.contains("p1"), "{event}");

    // A close packet ends the session and the connection.
    client.send_text("1").await;
    eventually("the session ends", PATIENCE, || {
        realtime.session_count() == 0
    })
    .await;
    let (opcode, _) = client.frame().await;
    assert_eq!(opcode, 8, "a close frame");
    assert!(!client.fill().await, "the connection ends");
}

#[actix_rt::test]
async fn websocket_requests_are_refused_with_the_engine_errors() {
    let (_realtime, port) = serve(RealtimeConfig::default());
    let cases = [
        (
            "/socket.io/?EIO=4&transport=websocket&sid=unknown",
            "400 Bad Request",
            r#"{"code":1,"message":"Session ID unknown"}"#,
        ),
        (
            "/socket.io/?EIO=3&transport=websocket",
            "400 Bad Request",
            r#"{"code":5,"message":"Unsupported protocol version"}"#,
        ),
        (
            "/socket.io/?EIO=4&transport=carrier-pigeon",
            "400 Bad Request",
            r#"{"code":0,"message":"Transport unknown"}"#,
        ),
        (
            "/elsewhere/?EIO=4&transport=websocket",
            "404 Not Found",
            "Not Found",
        ),
    ];
    for (path, status, body) in cases {
        let (mut client, head) = Client::open(port, path).await;
        assert!(
            head.starts_with(&format!("HTTP/1.1 {status}\r\n")),
            "{path}: {head}"
        );
        assert_eq!(client.rest().await, body, "{path}");
    }
}

#[actix_rt::test]
async fn a_second_websocket_for_an_upgraded_session_is_accepted_and_closed_at_once() {
    let (_realtime, port) = serve(RealtimeConfig::default());
    let addr = ([127, 0, 0, 1], port).into();
    let (status, open) = http_request(addr, "GET", "/socket.io/?EIO=4&transport=polling", "").await;
    assert_eq!(status, 200, "{open}");
    let open: serde_json::Value = serde_json::from_str(open.strip_prefix('0').unwrap()).unwrap();
    let sid = open["sid"].as_str().unwrap();
    let upgrade = format!("/socket.io/?EIO=4&transport=websocket&sid={sid}");
    let (mut first, head) = Client::open(port, &upgrade).await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    first.send_text("2probe").await;
    assert_eq!(first.text().await, "3probe");
    first.send_text("5").await;
    tokio::time::sleep(Duration::from_millis(50)).await;

    // As the reference server: the handshake completes, then a close frame without a
    // status (0x88 0x00) and the end of the connection.
    let (mut second, head) = Client::open(port, &upgrade).await;
    assert!(
        head.starts_with("HTTP/1.1 101 Switching Protocols\r\n"),
        "{head}"
    );
    assert_eq!(second.frame().await, (0x8, Vec::new()));
    assert_eq!(second.rest().await, "");
    // The first websocket carries the session on.
    first.send_text("41").await;
}

#[actix_rt::test]
async fn a_client_that_does_not_read_is_disconnected() {
    let (realtime, port) = serve(RealtimeConfig {
        outbound_queue: 4,
        ..RealtimeConfig::default()
    });
    let (mut client, _) = Client::open(port, "/socket.io/?EIO=4&transport=websocket").await;
    client.text().await;
    client.send_text("40").await;
    client.text().await;
    tokio::time::sleep(Duration::from_millis(50)).await;

    // The client reads nothing more; the events pile up in the socket, then in the backlog.
    let title = "x".repeat(256 * 1024);
    for _ in 0..200 {
        realtime.emit_all(NewAppeal {
            post_id: "p".into(),
            post_title: title.clone(),
        });
        if realtime.session_count() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    eventually(
        "the session of a client that does not read ends",
        PATIENCE,
        || realtime.session_count() == 0,
    )
    .await;
    // What was sent before still arrives, then the connection ends.
    while client.fill().await {
        client.buf.clear();
    }
}

#[actix_rt::test]
async fn a_closing_session_does_not_wait_forever_for_a_client_that_stopped_reading() {
    let (realtime, port) = serve(RealtimeConfig::default());
    let (mut client, _) = Client::open(port, "/socket.io/?EIO=4&transport=websocket").await;
    client.text().await;
    client.send_text("40").await;
    client.text().await;
    tokio::time::sleep(Duration::from_millis(50)).await;

    // Enough to fill the socket buffers, not the backlog: frames wait for the client.
    let title = "x".repeat(256 * 1024);
    for _ in 0..64 {
        realtime.emit_all(NewAppeal {
            post_id: "p".into(),
            post_title: title.clone(),
        });
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(realtime.session_count(), 1);
    // The client asks to close but reads nothing: the session ends after its grace.
    client.send_text("1").await;
    eventually(
        "the session still waits for its client",
        Duration::from_secs(10),
        || realtime.session_count() == 0,
    )
    .await;
}

/// Namespace `/` of the protocol test suites' server: emits `auth` with the CONNECT payload.
struct Greeter;

impl NamespaceHandler for Greeter {
    fn on_connect(&self, socket: &Socket, auth: &Value) {
        socket.emit("auth", vec![auth.clone()]);
    }

    fn on_event(&self, _socket: &Socket, _event: ClientEvent) {}
}

/// The shortest time the server holds the packets after a CONNECT answer (the crate's
/// `CONNECT_SETTLE`), less nothing: the clock starts before the client's CONNECT is sent.
const CONNECT_SETTLE: Duration = Duration::from_millis(20);

#[actix_rt::test]
async fn the_packet_after_a_connect_answer_comes_in_a_later_read() {
    let realtime = Realtime::builder(RealtimeConfig::default())
        .namespace("/", Arc::new(Greeter))
        .start();
    let (_realtime, port) = serve_realtime(realtime);
    for connect in [r#"40{"token":"123"}"#, "40"] {
        let (mut client, _) = Client::open(port, "/socket.io/?EIO=4&transport=websocket").await;
        assert!(client.text().await.starts_with("0{"));
        let sent = Instant::now();
        client.send_text(connect).await;

        let (opcode, answer) = client.frame().await;
        let answered = sent.elapsed();
        assert_eq!(opcode, 1);
        let answer = String::from_utf8(answer).unwrap();
        let sid = answer
            .strip_prefix(r#"40{"sid":""#)
            .and_then(|rest| rest.strip_suffix(r#""}"#))
            .unwrap_or_else(|| panic!("a CONNECT answer: {answer}"));
        assert_eq!(sid.len(), 20, "{answer}");
        if answered < CONNECT_SETTLE {
            // Read before the next packet could have been written: nothing came with it.
            assert!(client.buf.is_empty(), "{:?}", client.buf);
        }

        let (opcode, auth) = client.frame().await;
        assert!(
            sent.elapsed() >= CONNECT_SETTLE,
            "the packet after the CONNECT answer came {:?} after the CONNECT",
            sent.elapsed()
        );
        assert_eq!(opcode, 1);
        let payload = connect
            .strip_prefix("40")
            .filter(|p| !p.is_empty())
            .unwrap_or("{}");
        assert_eq!(
            String::from_utf8(auth).unwrap(),
            format!(r#"42["auth",{payload}]"#)
        );
    }
}

/// A polling session's sid and a websocket opened to upgrade it.
async fn upgrading(port: u16) -> (String, Client) {
    let addr = ([127, 0, 0, 1], port).into();
    let (status, open) = http_request(addr, "GET", "/socket.io/?EIO=4&transport=polling", "").await;
    assert_eq!(status, 200, "{open}");
    let open: Value = serde_json::from_str(open.strip_prefix('0').unwrap()).unwrap();
    let sid = open["sid"].as_str().unwrap().to_owned();
    let (ws, head) = Client::open(
        port,
        &format!("/socket.io/?EIO=4&transport=websocket&sid={sid}"),
    )
    .await;
    assert!(
        head.starts_with("HTTP/1.1 101 Switching Protocols\r\n"),
        "{head}"
    );
    (sid, ws)
}

async fn poll(port: u16, sid: &str) -> (u16, String) {
    let addr = ([127, 0, 0, 1], port).into();
    http_request(
        addr,
        "GET",
        &format!("/socket.io/?EIO=4&transport=polling&sid={sid}"),
        "",
    )
    .await
}

const BAD_REQUEST: &str = r#"{"code":3,"message":"Bad request"}"#;

/// The websocket carries the session: a CONNECT on it is answered on it.
async fn carries_the_session(ws: &mut Client) {
    ws.send_text("40").await;
    let answer = ws.text().await;
    assert!(answer.starts_with(r#"40{"sid":""#), "{answer}");
}

#[actix_rt::test]
async fn a_poll_sent_after_the_probe_and_the_upgrade_packet_is_refused_in_either_order() {
    let (_realtime, port) = serve(RealtimeConfig::default());
    // Sent at once: the poll's handler may run before the websocket's reader handed over `5`
    // (or even `2probe`); the answer is the same.
    for _ in 0..10 {
        let (sid, mut ws) = upgrading(port).await;
        ws.send_text("2probe").await;
        ws.send_text("5").await;
        assert_eq!(poll(port, &sid).await, (400, BAD_REQUEST.to_owned()));
        assert_eq!(ws.text().await, "3probe");
        carries_the_session(&mut ws).await;
    }
    // The upgrade known to be complete first.
    let (sid, mut ws) = upgrading(port).await;
    ws.send_text("2probe").await;
    assert_eq!(ws.text().await, "3probe");
    ws.send_text("5").await;
    carries_the_session(&mut ws).await;
    assert_eq!(poll(port, &sid).await, (400, BAD_REQUEST.to_owned()));
}

#[actix_rt::test]
async fn a_poll_sent_between_the_probe_answer_and_the_upgrade_packet_gets_a_noop() {
    let (_realtime, port) = serve(RealtimeConfig::default());
    let (sid, mut ws) = upgrading(port).await;
    ws.send_text("2probe").await;
    assert_eq!(ws.text().await, "3probe");
    assert_eq!(poll(port, &sid).await, (200, "6".to_owned()));
    ws.send_text("5").await;
    carries_the_session(&mut ws).await;
    assert_eq!(poll(port, &sid).await, (400, BAD_REQUEST.to_owned()));
}
