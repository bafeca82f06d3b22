//! The server side of `scripts/bench realtime`, built on the product's realtime crate.
//!
//! `cargo run --release -p pressroom-actors --example bench` listens on 127.0.0.1:3000 (`PORT`
//! overrides) with the default configuration. Namespace `/` does nothing on connect;
//! `GET /bench/broadcast?round=R&t=MICROS` emits `tick` with `{"round":R,"t":MICROS}` to every
//! socket, which is what the Node.js reference server of the benchmark does too.
//!
//! With `REDIS_URL` set it runs as one node of a cluster named `NODE` (`scripts/bench realtime
//! --nodes 2` starts two): a broadcast asked of one node reaches the sockets of every node,
//! carried by Redis pub/sub in the broker's message format (one publisher connection, one
//! subscriber connection), as the server crate's `redis` broker does. Presence stays per node
//! (the benchmark measures delivery).

use std::sync::Arc;

use actix_web::{web, App, HttpResponse};
use deadpool_redis::redis::{self, AsyncCommands};
use futures_util::{future::BoxFuture, StreamExt};
use pressroom_actors::{
    events::Event, ClientEvent, Cluster, HttpServer, NamespaceHandler, OnlineSnapshot, Person,
    PresenceChange, PresenceReset, PresenceStore, Realtime, RealtimeConfig, Socket, SocketId,
    Transport,
};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::mpsc;

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

/// Channel of the benchmark's cluster.
const CHANNEL: &str = "bench:realtime";

/// Publishes the broker's messages in order on one connection.
struct RedisTransport(mpsc::UnboundedSender<Vec<u8>>);

impl Transport for RedisTransport {
    fn publish(&self, message: Vec<u8>) {
        let _ = self.0.send(message);
    }
}

/// Presence counted per node: every call answers "unavailable".
struct NodeOnly;

impl PresenceStore for NodeOnly {
    fn up(&self, _: SocketId, _: Option<Person>) -> BoxFuture<'static, Option<PresenceChange>> {
        Box::pin(async { None })
    }
    fn down(&self, _: SocketId) -> BoxFuture<'static, Option<PresenceChange>> {
        Box::pin(async { None })
    }
    fn online(&self) -> BoxFuture<'static, Option<OnlineSnapshot>> {
        Box::pin(async { None })
    }
    fn reset(
        &self,
        _: Vec<(SocketId, Option<Person>)>,
    ) -> BoxFuture<'static, Option<PresenceReset>> {
        Box::pin(async { None })
    }
}

/// The cluster side of a node: a publisher task and a subscriber task over `url`.
async fn join_cluster(url: &str, node: String) -> std::io::Result<(Cluster, redis::Client)> {
    let to_io = |e: redis::RedisError| std::io::Error::other(e.to_string());
    let client = redis::Client::open(url).map_err(to_io)?;
    let mut publisher = client
        .get_multiplexed_async_connection()
        .await
        .map_err(to_io)?;
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
    tokio::spawn(async move {
        while let Some(message) = rx.recv().await {
            let _: Result<i64, _> = publisher.publish(CHANNEL, message).await;
        }
    });
    let cluster = Cluster {
        node,
        transport: Arc::new(RedisTransport(tx)),
        presence: Arc::new(NodeOnly),
    };
    Ok((cluster, client))
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
    // `METRICS=off`: the realtime metrics are not recorded (`scripts/bench realtime --metrics`
    // measures both ways).
    pressroom_actors::metrics::set_enabled(std::env::var("METRICS").as_deref() != Ok("off"));
    pressroom_actors::metrics::init();
    let mut builder = Realtime::builder(RealtimeConfig::default()).namespace("/", Arc::new(Quiet));
    let mut subscriber = None;
    if let Ok(url) = std::env::var("REDIS_URL") {
        let node = std::env::var("NODE").unwrap_or_else(|_| format!("bench-{port}"));
        let (cluster, client) = join_cluster(&url, node).await?;
        builder = builder.cluster(cluster);
        subscriber = Some(client);
    }
    let realtime = builder.start();
    if let Some(client) = subscriber {
        let mut pubsub = client
            .get_async_pubsub()
            .await
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        pubsub
            .subscribe(CHANNEL)
            .await
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let node = realtime.clone();
        tokio::spawn(async move {
            let mut messages = pubsub.into_on_message();
            while let Some(message) = messages.next().await {
                let _ = node.receive(message.get_payload_bytes());
            }
        });
    }
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
