//! Engine.IO server state shared by the HTTP handlers and the session actors: the session
//! registry, the handshake, and the refusals with the reference server's error bodies.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, MutexGuard},
};

use actix::{Actor, Addr};
use actix_web::{http::StatusCode, HttpResponse};

use super::{
    ids::Sid,
    namespace::{EngineHandler, NamespaceHandler},
    rooms::Hub,
};
use crate::{auth::SocketAuth, config::RealtimeConfig};

/// What an endpoint serves on top of Engine.IO.
pub(crate) enum App {
    /// Socket.IO namespaces.
    SocketIo(Arc<SioServer>),
    /// Raw Engine.IO messages.
    Raw(Arc<dyn EngineHandler>),
}

/// The Socket.IO server: registered namespaces, authentication and the rooms.
pub(crate) struct SioServer {
    pub(crate) namespaces: HashMap<String, Arc<dyn NamespaceHandler>>,
    pub(crate) auth: Option<Arc<dyn SocketAuth>>,
    pub(crate) hub: Addr<Hub>,
}

/// The only Engine.IO protocol revision served.
pub const PROTOCOL_VERSION: &str = "4";
/// Name of the HTTP long-polling transport.
pub const TRANSPORT_POLLING: &str = "polling";
/// Name of the websocket transport.
pub const TRANSPORT_WEBSOCKET: &str = "websocket";
/// Refusals of an Engine.IO request, with the codes and messages of the reference server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// `transport` missing or not `polling`/`websocket`.
    #[error("Transport unknown")]
    UnknownTransport,
    /// `sid` unknown or already closed.
    #[error("Session ID unknown")]
    UnknownSid,
    /// A handshake with a method other than GET.
    #[error("Bad handshake method")]
    BadHandshakeMethod,
    /// Anything else malformed (wrong method, request on an upgraded sid, ...).
    #[error("Bad request")]
    BadRequest,
    /// Refused by policy.
    #[error("Forbidden")]
    Forbidden,
    /// `EIO` missing or not `4`.
    #[error("Unsupported protocol version")]
    UnsupportedProtocolVersion,
}

impl EngineError {
    /// Numeric code of the JSON error body.
    pub fn code(self) -> u8 {
        match self {
            EngineError::UnknownTransport => 0,
            EngineError::UnknownSid => 1,
            EngineError::BadHandshakeMethod => 2,
            EngineError::BadRequest => 3,
            EngineError::Forbidden => 4,
            EngineError::UnsupportedProtocolVersion => 5,
        }
    }

    /// HTTP status of the refusal.
    pub fn status(self) -> StatusCode {
        match self {
            EngineError::Forbidden => StatusCode::FORBIDDEN,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// The refusal's JSON body `{"code":N,"message":"..."}`.
    pub fn body(self) -> String {
        serde_json::json!({ "code": self.code(), "message": self.to_string() }).to_string()
    }

    /// The refusal as an HTTP response.
    pub fn response(self) -> HttpResponse {
        HttpResponse::build(self.status())
            .content_type("application/json")
            .body(self.body())
    }
}

/// Everything the handlers and sessions of one endpoint share; `S` is the session actor.
pub(crate) struct Engine<S: Actor> {
    pub(crate) config: RealtimeConfig,
    pub(crate) app: App,
    sessions: Mutex<HashMap<Sid, Addr<S>>>,
}

impl<S: Actor> Engine<S> {
    pub(crate) fn new(config: RealtimeConfig, app: App) -> Arc<Self> {
        Arc::new(Engine {
            config,
            app,
            sessions: Mutex::new(HashMap::new()),
        })
    }

    fn sessions(&self) -> MutexGuard<'_, HashMap<Sid, Addr<S>>> {
        // A panic while holding this lock leaves the map itself consistent.
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn insert(&self, sid: Sid, addr: Addr<S>) {
        self.sessions().insert(sid, addr);
    }

    pub(crate) fn remove(&self, sid: &Sid) {
        let mut sessions = self.sessions();
        sessions.remove(sid);
        crate::shrink::when_sparse(&mut *sessions);
    }

    pub(crate) fn find(&self, sid: &str) -> Option<Addr<S>> {
        let sid = Sid::parse(sid)?;
        self.sessions().get(&sid).cloned()
    }

    /// Number of open Engine.IO sessions.
    pub(crate) fn len(&self) -> usize {
        self.sessions().len()
    }

    /// The `open` packet payload for a new session.
    pub(crate) fn handshake(&self, sid: Sid, upgrades: &[&str]) -> String {
        serde_json::json!({
            "sid": sid.as_str(),
            "upgrades": upgrades,
            "pingInterval": duration_ms(self.config.ping_interval),
            "pingTimeout": duration_ms(self.config.ping_timeout),
            "maxPayload": self.config.max_payload,
        })
        .to_string()
    }
}

fn duration_ms(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::socketio::ids::SID_LEN;

    #[test]
    fn a_sid_is_twenty_url_safe_characters_and_parses_back() {
        let sid = Sid::random();
        assert_eq!(sid.as_str().len(), SID_LEN);
        assert_eq!(Sid::parse(sid.as_str()), Some(sid));
        assert_ne!(Sid::random(), sid);
    }

    #[test]
    fn a_prefixed_sid_starts_with_its_prefix_and_still_parses() {
        let sid = Sid::with_prefix("n2-");
        assert!(sid.as_str().starts_with("n2-"), "{sid}");
        assert_eq!(Sid::parse(sid.as_str()), Some(sid));
        assert!(Sid::with_prefix("n.2").as_str().starts_with("n2"));
    }

    #[test]
    fn foreign_sids_do_not_parse() {
        assert_eq!(Sid::parse("test"), None);
        assert_eq!(Sid::parse("abcdefghij!bcdefghij"), None);
    }

    #[test]
    fn refusals_carry_the_reference_codes() {
        let cases = [
            (EngineError::UnknownTransport, 0, "Transport unknown"),
            (EngineError::UnknownSid, 1, "Session ID unknown"),
            (EngineError::BadHandshakeMethod, 2, "Bad handshake method"),
            (EngineError::BadRequest, 3, "Bad request"),
            (EngineError::Forbidden, 4, "Forbidden"),
            (
                EngineError::UnsupportedProtocolVersion,
                5,
                "Unsupported protocol version",
            ),
        ];
        for (error, code, message) in cases {
            assert_eq!(error.code(), code);
            assert_eq!(error.to_string(), message);
        }
        assert_eq!(EngineError::Forbidden.status(), StatusCode::FORBIDDEN);
        assert_eq!(EngineError::UnknownSid.status(), StatusCode::BAD_REQUEST);
    }
}
