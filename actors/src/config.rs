//! Tunables of the realtime server. Every timing and size is a named default here.

use std::time::Duration;

/// Default mount path of the Socket.IO endpoint.
pub const DEFAULT_PATH: &str = "/socket.io";
/// Default interval between two server pings (Engine.IO `pingInterval`).
pub const DEFAULT_PING_INTERVAL: Duration = Duration::from_millis(25_000);
/// Default time a client has to answer a ping (Engine.IO `pingTimeout`).
pub const DEFAULT_PING_TIMEOUT: Duration = Duration::from_millis(20_000);
/// Default largest accepted message or HTTP body, in bytes (Engine.IO `maxPayload`).
pub const DEFAULT_MAX_PAYLOAD: usize = 1_000_000;
/// Default time a client has to send its first Socket.IO CONNECT packet.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_millis(45_000);
/// Default number of frames that may wait for one slow client before it is disconnected.
pub const DEFAULT_OUTBOUND_QUEUE: usize = 256;
/// Default shortest gap between two `onlineUsersCount` broadcasts.
pub const DEFAULT_PRESENCE_COALESCE: Duration = Duration::from_millis(200);

/// Configuration of one realtime endpoint (Socket.IO or raw Engine.IO).
///
/// The HTTP server that mounts the endpoint should be built with
/// `HttpServer::h1_allow_half_closed(false)`: then a client that closes its connection while a
/// long-poll is pending cancels that poll and the session closes, as with the reference server.
/// With half-closed connections allowed, actix-web keeps the pending poll until it is answered
/// and the session only ends at the next ping timeout.
#[derive(Debug, Clone)]
pub struct RealtimeConfig {
    /// Mount path, without trailing slash (`/socket.io`); both `path` and `path/` answer.
    pub path: String,
    /// Interval between server pings.
    pub ping_interval: Duration,
    /// Time a client has to answer a ping before the session is closed.
    pub ping_timeout: Duration,
    /// Largest accepted websocket message or polling request body, in bytes.
    pub max_payload: usize,
    /// Time a client has to connect to a namespace before the session is closed.
    pub connect_timeout: Duration,
    /// Origins allowed by CORS on the polling transport; `"*"` allows every origin.
    /// Empty: no CORS headers (same origin only).
    pub cors_origins: Vec<String>,
    /// Frames that may wait for one client (per session) before it is disconnected.
    pub outbound_queue: usize,
    /// Shortest gap between two `onlineUsersCount` broadcasts.
    pub presence_coalesce: Duration,
    /// Start of every Engine.IO session id of this node (empty: none), so that a load
    /// balancer can send a polling session's requests to its node by the `sid` alone.
    pub sid_prefix: String,
}

impl Default for RealtimeConfig {
    fn default() -> Self {
        Self {
            path: DEFAULT_PATH.to_owned(),
            ping_interval: DEFAULT_PING_INTERVAL,
            ping_timeout: DEFAULT_PING_TIMEOUT,
            max_payload: DEFAULT_MAX_PAYLOAD,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            cors_origins: Vec::new(),
            outbound_queue: DEFAULT_OUTBOUND_QUEUE,
            presence_coalesce: DEFAULT_PRESENCE_COALESCE,
            sid_prefix: String::new(),
        }
    }
}
