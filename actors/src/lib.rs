//! Live state for Pressroom: a Socket.IO v5 / Engine.IO v4 server on actix, with a session
//! actor per connection, the rooms (the hub actor: rooms, fan-out) and a presence actor (who
//! is online).
//!
//! The server crate uses [`Realtime`]:
//!
//! ```no_run
//! # use std::sync::Arc;
//! # use pressroom_actors::{Realtime, RealtimeConfig, SocketAuth, Identity, events::NewAppeal};
//! # struct Jwt;
//! # impl SocketAuth for Jwt {
//! #     fn authenticate(&self, _t: Option<String>)
//! #         -> futures_util::future::BoxFuture<'static, Result<Option<Identity>, String>> {
//! #         Box::pin(async { Ok(None) })
//! #     }
//! # }
//! # async fn run() -> std::io::Result<()> {
//! let realtime = Realtime::start(RealtimeConfig::default(), Arc::new(Jwt));
//! let handle = realtime.clone();
//! pressroom_actors::HttpServer::new(move || {
//!     let realtime = handle.clone();
//!     actix_web::App::new()
//!         .app_data(actix_web::web::Data::new(realtime.clone()))
//!         .configure(|cfg| realtime.configure(cfg))
//! })
//! .endpoint(realtime.endpoint())
//! .listen(std::net::TcpListener::bind(("127.0.0.1", 0))?)?
//! .await?;
//! realtime.emit_room("adminRoom", NewAppeal { post_id: "p".into(), post_title: "t".into() });
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod auth;
pub mod broker;
pub mod config;
pub mod events;
pub mod metrics;
pub mod presence;
mod realtime;
mod server;
mod shrink;
pub mod socketio;

pub use auth::{Identity, SocketAuth};
pub use broker::Transport;
pub use config::RealtimeConfig;
pub use events::{Event, ServerEvent};
pub use presence::{OnlineSnapshot, Person, PresenceChange, PresenceReset, PresenceStore};
pub use realtime::{Cluster, EngineIo, EventHandler, Realtime, RealtimeBuilder, JOIN_EVENT};
pub use server::{Endpoint, HttpServer};
pub use socketio::ids::SocketId;
pub use socketio::namespace::{
    AckReply, AckSender, ClientEvent, EngineConn, EngineHandler, NamespaceHandler, RawMessage,
    Socket,
};
pub use socketio::rooms::{Target, ADMIN_ROOM};
