//! Long-polling over real TCP connections: what the server does when a client goes away in
//! the middle of a request, which the in-process test service cannot show.

// Test helpers fail the test loudly on unexpected input.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::{net::SocketAddr, sync::Arc, time::Duration};

use actix_web::{App, HttpServer};
use pressroom_actors::{EngineConn, EngineHandler, EngineIo, RawMessage, RealtimeConfig};
use serde_json::Value;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    time::{sleep, Instant},
};

/// Longest wait for the server to notice something.
const PATIENCE: Duration = Duration::from_secs(5);
/// Time for a request written on a socket to reach its handler.
const IN_FLIGHT: Duration = Duration::from_millis(200);
/// Gap between two checks of the session's state.
const RETRY: Duration = Duration::from_millis(20);
const PATH: &str = "/engine.io/";

/// Raw Engine.IO echo.
struct Echo;

impl EngineHandler for Echo {
    fn on_message(&self, conn: &EngineConn, message: RawMessage) {
        conn.send(message);
    }
}

/// Starts an Engine.IO endpoint with the default (long) heartbeat on a free port.
async fn spawn_server() -> SocketAddr {
    spawn_server_with(RealtimeConfig::default()).await
}

/// Starts an Engine.IO endpoint with `config` on a free port.
async fn spawn_server_with(config: RealtimeConfig) -> SocketAddr {
    let engine = EngineIo::new(
        RealtimeConfig {
            path: PATH.trim_end_matches('/').to_owned(),
            ..config
        },
        Arc::new(Echo),
    );
    let server = HttpServer::new(move || {
        let engine = engine.clone();
        App::new().configure(|cfg| engine.configure(cfg))
    })
    .workers(1)
    .h1_allow_half_closed(false)
    .bind(("127.0.0.1", 0))
    .unwrap();
    let addr = server.addrs()[0];
    actix_rt::spawn(server.run());
    addr
}

fn request_text(method: &str, query: &str, body: &str) -> String {
    common::request_text(method, &polling_path(query), body)
}

fn polling_path(query: &str) -> String {
    format!("{PATH}?EIO=4&transport=polling{query}")
}

/// One polling request on its own connection; returns the status and the body.
async fn request(addr: SocketAddr, method: &str, query: &str, body: &str) -> (u16, String) {
    common::http_request(addr, method, &polling_path(query), body).await
}

/// A poll sent on its own connection and given time to reach its handler; not answered yet.
async fn pending_poll(addr: SocketAddr, query: &str) -> TcpStream {
    let mut pending = TcpStream::connect(addr).await.unwrap();
    pending
        .write_all(request_text("GET", query, "").as_bytes())
        .await
        .unwrap();
    sleep(IN_FLIGHT).await;
    pending
}

async fn open_session(addr: SocketAddr) -> String {
    let (status, body) = request(addr, "GET", "", "").await;
    assert_eq!(status, 200, "{body}");
    let open: Value = serde_json::from_str(body.strip_prefix('0').unwrap()).unwrap();
    open["sid"].as_str().unwrap().to_owned()
}

#[actix_rt::test]
async fn a_cancelled_poll_closes_the_session() {
    let addr = spawn_server().await;
    let sid = open_session(addr).await;
    let query = format!("&sid={sid}");

    let pending = pending_poll(addr, &query).await;
    drop(pending);

    // The heartbeat would only end the session after 45 s: it has to be the cancelled poll.
    let deadline = Instant::now() + PATIENCE;
    let (status, body) = loop {
        let (status, body) = request(addr, "POST", &query, "6").await;
        if status != 200 || Instant::now() > deadline {
            break (status, body);
        }
        sleep(RETRY).await;
    };
    assert_eq!(status, 400, "{body}");
    assert_eq!(body, r#"{"code":1,"message":"Session ID unknown"}"#);
}

#[actix_rt::test]
async fn a_poll_answered_before_its_connection_closes_cancels_nothing() {
    let addr = spawn_server().await;
    let sid = open_session(addr).await;
    let query = format!("&sid={sid}");

    let mut pending = pending_poll(addr, &query).await;
    assert_eq!(
        request(addr, "POST", &query, "4hi").await,
        (200, "ok".into())
    );
    let mut response = String::new();
    pending.read_to_string(&mut response).await.unwrap();
    assert!(response.ends_with("\r\n\r\n4hi"), "{response}");
    drop(pending);
    sleep(IN_FLIGHT).await;

    assert_eq!(request(addr, "POST", &query, "6").await, (200, "ok".into()));
}

#[actix_rt::test]
async fn a_poll_and_a_close_packet_sent_together_end_with_a_noop_in_either_order() {
    let addr = spawn_server().await;
    const UNKNOWN: &str = r#"{"code":1,"message":"Session ID unknown"}"#;

    // The poll first: pending when the close packet comes.
    let sid = open_session(addr).await;
    let query = format!("&sid={sid}");
    let mut pending = pending_poll(addr, &query).await;
    assert_eq!(request(addr, "POST", &query, "1").await, (200, "ok".into()));
    let mut response = String::new();
    pending.read_to_string(&mut response).await.unwrap();
    assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
    assert!(response.ends_with("\r\n\r\n6"), "{response}");
    assert_eq!(
        request(addr, "GET", &query, "").await,
        (400, UNKNOWN.into())
    );

    // The close packet first: the poll that was under way gets the same noop.
    let sid = open_session(addr).await;
    let query = format!("&sid={sid}");
    assert_eq!(request(addr, "POST", &query, "1").await, (200, "ok".into()));
    assert_eq!(request(addr, "GET", &query, "").await, (200, "6".into()));
    assert_eq!(
        request(addr, "GET", &query, "").await,
        (400, UNKNOWN.into())
    );
}

#[actix_rt::test]
async fn pings_keep_the_rhythm_of_the_handshake_whatever_the_pongs_delay() {
    let interval = Duration::from_millis(300);
    let addr = spawn_server_with(RealtimeConfig {
        ping_interval: interval,
        ping_timeout: Duration::from_secs(2),
        ..RealtimeConfig::default()
    })
    .await;
    let opened = Instant::now();
    let sid = open_session(addr).await;
    let query = format!("&sid={sid}");
    assert_eq!(request(addr, "GET", &query, "").await, (200, "2".into()));
    // A slow client: the pong comes 250 ms after the ping.
    sleep(Duration::from_millis(250)).await;
    assert_eq!(request(addr, "POST", &query, "3").await, (200, "ok".into()));
    assert_eq!(request(addr, "GET", &query, "").await, (200, "2".into()));
    // The second ping is due 2 × 300 ms after the handshake, not 300 ms after the pong
    // (which would be 850 ms at the earliest).
    let second = opened.elapsed();
    assert!(
        second >= 2 * interval && second < Duration::from_millis(800),
        "second ping after {second:?}"
    );
}
