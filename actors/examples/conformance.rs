//! The reference server of the Socket.IO and Engine.IO protocol test suites, built on the
//! product's realtime crate.
//!
//! `cargo run -p pressroom-actors --example conformance` listens on 127.0.0.1:3000 (`PORT`
//! overrides) with pingInterval 300 ms, pingTimeout 200 ms, maxPayload 1000000,
//! connectTimeout 1000 ms and CORS `*`:
//!
//! - `/socket.io/`, namespace `/`: emits `auth` with the CONNECT payload; answers `message`
//!   with `message-back` and the same arguments; acknowledges `message-with-ack` with its
//!   arguments; on `ask` emits `question` with the same arguments and an ack request, then
//!   emits `answer` with the client's acknowledgement; on `disconnect-me` drops the
//!   connection (the client reconnects); on `kick-me` sends a Socket.IO DISCONNECT.
//! - `/socket.io/`, namespace `/custom`: emits `auth` with the CONNECT payload.
//! - `/engine.io/`: raw Engine.IO echo.

use std::{sync::Arc, time::Duration};

use actix_web::App;
use pressroom_actors::{
    ClientEvent, EngineConn, EngineHandler, EngineIo, HttpServer, NamespaceHandler, RawMessage,
    Realtime, RealtimeConfig, Socket,
};
use serde_json::Value;

const DEFAULT_PORT: u16 = 3000;
const PING_INTERVAL: Duration = Duration::from_millis(300);
const PING_TIMEOUT: Duration = Duration::from_millis(200);
const MAX_PAYLOAD: usize = 1_000_000;
const CONNECT_TIMEOUT: Duration = Duration::from_millis(1_000);
const ENGINE_IO_PATH: &str = "/engine.io";

/// Namespace `/` of the reference server.
struct Main;

impl NamespaceHandler for Main {
    fn on_connect(&self, socket: &Socket, auth: &Value) {
        socket.emit("auth", vec![auth.clone()]);
    }

    fn on_event(&self, socket: &Socket, event: ClientEvent) {
        match event.name.as_str() {
            "message" => socket.emit_binary("message-back", event.args, event.attachments),
            "message-with-ack" => {
                if let Some(ack) = event.ack {
                    ack.send_binary(event.args, event.attachments);
                }
            }
            "ask" => {
                let asker = socket.clone();
                socket.emit_with_ack("question", event.args, event.attachments, move |reply| {
                    asker.emit_binary("answer", reply.args, reply.attachments);
                });
            }
            "disconnect-me" => socket.close_transport(),
            "kick-me" => socket.disconnect(),
            _ => {}
        }
    }
}

/// Namespace `/custom` of the reference server.
struct Custom;

impl NamespaceHandler for Custom {
    fn on_connect(&self, socket: &Socket, auth: &Value) {
        socket.emit("auth", vec![auth.clone()]);
    }

    fn on_event(&self, _socket: &Socket, _event: ClientEvent) {}
}

/// Raw Engine.IO echo.
struct Echo;

impl EngineHandler for Echo {
    fn on_message(&self, conn: &EngineConn, message: RawMessage) {
        conn.send(message);
    }
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();

    let port = match std::env::var("PORT") {
        Ok(port) => port
            .parse::<u16>()
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?,
        Err(_) => DEFAULT_PORT,
    };
    let config = RealtimeConfig {
        ping_interval: PING_INTERVAL,
        ping_timeout: PING_TIMEOUT,
        max_payload: MAX_PAYLOAD,
        connect_timeout: CONNECT_TIMEOUT,
        cors_origins: vec!["*".to_owned()],
        ..RealtimeConfig::default()
    };
    let realtime = Realtime::builder(config.clone())
        .namespace("/", Arc::new(Main))
        .namespace("/custom", Arc::new(Custom))
        .start();
    let engine_io = EngineIo::new(
        RealtimeConfig {
            path: ENGINE_IO_PATH.to_owned(),
            ..config
        },
        Arc::new(Echo),
    );

    let endpoints = [realtime.endpoint(), engine_io.endpoint()];
    let server = HttpServer::new(move || {
        let (realtime, engine_io) = (realtime.clone(), engine_io.clone());
        App::new()
            .configure(|cfg| realtime.configure(cfg))
            .configure(|cfg| engine_io.configure(cfg))
    })
    // A client that closes its connection while a poll is pending cancels that poll, and the
    // session ends (the reference server does so); actix-web drops the pending handler only
    // when it does not wait for half-closed connections.
    .endpoint(endpoints[0].clone())
    .endpoint(endpoints[1].clone())
    .h1_allow_half_closed(false)
    // One worker thread, as the reference server has one: two HTTP requests are handled in
    // the order they arrived (the suites send two polls 5 ms apart and expect the first to be
    // the pending one), which several worker threads on a loaded machine do not promise.
    .workers(1)
    .listen(std::net::TcpListener::bind(("127.0.0.1", port))?)?;
    println!("conformance server listening on 127.0.0.1:{port}");
    server.await
}
