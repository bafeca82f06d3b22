//! The server side of `scripts/bench realtime`, built on the product's realtime crate.
//!
//! `cargo run --release -p pressroom-actors --example bench` listens on 127.0.0.1:3000 (`PORT`
//! overrides) with the default configuration. Namespace `/` does nothing on connect;
//! `GET /bench/broadcast?round=R&t=MICROS` emits `tick` with `{"round":R,"t":MICROS}` to every
//! socket, which is what the Node.js reference server of the benchmark does too.

use std::sync::Arc;

use actix_web::{web, App, HttpResponse};
use pressroom_actors::{
    events::Event, ClientEvent, HttpServer, NamespaceHandler, Realtime, RealtimeConfig, Socket,
};
use serde::Deserialize;
use serde_json::{json, Value};

const DEFAULT_PORT: u16 = 3000;
const BROADCAST_PATH: &str = "/bench/broadcast";

/// Namespace `/`: connecting does nothing special, client events are ignored.
struct Quiet;

impl NamespaceHandler for Quiet {
    fn on_connect(&self, _socket: &Socket, _auth: &Value) {}

    fn on_event(&self, _socket: &Socket, _event: ClientEvent) {}
}

/// The broadcast event: its round and when the load generator asked for it (Unix µs).
#[derive(Deserialize)]
struct Tick {
    round: u64,
    t: u64,
}

impl Event for Tick {
    const NAME: &'static str = "tick";

    fn args(&self) -> Vec<Value> {
        vec![json!({ "round": self.round, "t": self.t })]
    }
}

async fn broadcast(realtime: web::Data<Realtime>, tick: web::Query<Tick>) -> HttpResponse {
    realtime.emit_all(tick.into_inner());
    HttpResponse::Ok().body("ok")
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let port = match std::env::var("PORT") {
        Ok(port) => port
            .parse::<u16>()
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?,
        Err(_) => DEFAULT_PORT,
    };
    let realtime = Realtime::builder(RealtimeConfig::default())
        .namespace("/", Arc::new(Quiet))
        .start();
    let endpoint = realtime.endpoint();
    let server = HttpServer::new(move || {
        let realtime = realtime.clone();
        App::new()
            .app_data(web::Data::new(realtime.clone()))
            .route(BROADCAST_PATH, web::get().to(broadcast))
            .configure(|cfg| realtime.configure(cfg))
    })
    .endpoint(endpoint)
    .h1_allow_half_closed(false)
    .listen(std::net::TcpListener::bind(("127.0.0.1", port))?)?;
    println!("bench server listening on 127.0.0.1:{port}");
    server.await
}
