//! HTTP side of the engine: long-polling GET/POST, CORS, and refusals with the reference
//! server's `{"code":N,"message":"..."}` bodies. Websocket requests never get here when the
//! server is built with `HttpServer`: actix-http hands them to
//! the websocket handshake with their connection.

use std::sync::Arc;

use actix::Addr;
use actix_web::{
    http::{
        header::{self, HeaderMap, HeaderValue},
        Method,
    },
    web, HttpRequest, HttpResponse,
};
use bytes::BytesMut;
use bytestring::ByteString;
use futures_util::StreamExt;
use serde::Deserialize;

use super::{
    engine::{Engine, EngineError, PROTOCOL_VERSION, TRANSPORT_POLLING, TRANSPORT_WEBSOCKET},
    session::{
        polling::{PayloadTooLarge, PollCancelled, PollReply, PollRequest, Post},
        Session,
    },
};

/// Cookie that may carry the session token when the CONNECT packet has none.
pub const TOKEN_COOKIE: &str = "jwt";
/// Wildcard entry of `cors_origins`.
pub const ANY_ORIGIN: &str = "*";
const POLLING_CONTENT_TYPE: &str = "text/plain; charset=UTF-8";
const ALLOWED_METHODS: &str = "GET, POST, OPTIONS";

#[derive(Deserialize)]
struct RawQuery {
    #[serde(rename = "EIO")]
    eio: Option<String>,
    transport: Option<String>,
    sid: Option<String>,
}

/// The query of an Engine.IO request, checked.
pub(crate) struct EngineQuery {
    /// `transport=websocket` (else `polling`).
    pub(crate) websocket: bool,
    pub(crate) sid: Option<String>,
}

impl EngineQuery {
    /// Parses a query string; a bad transport or protocol version is refused.
    pub(crate) fn parse(query: &str) -> Result<Self, EngineError> {
        let query = web::Query::<RawQuery>::from_query(query)
            .map_err(|_| EngineError::BadRequest)?
            .into_inner();
        let websocket = match query.transport.as_deref() {
            Some(TRANSPORT_POLLING) => false,
            Some(TRANSPORT_WEBSOCKET) => true,
            _ => return Err(EngineError::UnknownTransport),
        };
        if query.eio.as_deref() != Some(PROTOCOL_VERSION) {
            return Err(EngineError::UnsupportedProtocolVersion);
        }
        Ok(EngineQuery {
            websocket,
            sid: query.sid,
        })
    }
}

/// Mounts the endpoint at `engine.config.path` (with and without trailing slash).
pub(crate) fn mount(engine: Arc<Engine<Session>>, cfg: &mut web::ServiceConfig) {
    let path = engine.config.path.trim_end_matches('/').to_owned();
    let paths = [path.clone(), format!("{path}/")];
    cfg.service(web::resource(paths).route(web::route().to(
        move |req: HttpRequest, body: web::Payload| {
            let engine = engine.clone();
            async move { handle(engine, req, body).await }
        },
    )));
}

async fn handle(
    engine: Arc<Engine<Session>>,
    req: HttpRequest,
    body: web::Payload,
) -> HttpResponse {
    let mut response = if req.method() == Method::OPTIONS {
        preflight(&req)
    } else {
        dispatch(&engine, &req, body).await
    };
    apply_cors(&engine.config.cors_origins, &req, &mut response);
    response
}

async fn dispatch(
    engine: &Arc<Engine<Session>>,
    req: &HttpRequest,
    body: web::Payload,
) -> HttpResponse {
    let query = match EngineQuery::parse(req.query_string()) {
        Ok(query) => query,
        Err(error) => return error.response(),
    };
    if query.websocket {
        // A websocket request without the upgrade headers (or served without the upgrade
        // service, which takes every request that has them).
        return EngineError::BadRequest.response();
    }
    match &query.sid {
        Some(sid) => {
            let Some(session) = engine.find(sid) else {
                return EngineError::UnknownSid.response();
            };
            match *req.method() {
                Method::GET => poll(session).await,
                Method::POST => post(engine, session, req, body).await,
                _ => EngineError::BadRequest.response(),
            }
        }
        None => {
            if req.method() != Method::GET {
                return EngineError::BadHandshakeMethod.response();
            }
            let token = handshake_token(req.headers());
            poll(Session::start_polling(engine.clone(), token)).await
        }
    }
}

/// Watches a poll: if its handler future is dropped before the answer came (actix-web drops it
/// when the client closes the connection, given `h1_allow_half_closed(false)`), the session
/// hears of it and closes, as the reference server does on a cancelled polling request.
struct PollGuard {
    session: Addr<Session>,
    answered: bool,
}

impl Drop for PollGuard {
    fn drop(&mut self) {
        if !self.answered {
            self.session.do_send(PollCancelled);
        }
    }
}

async fn poll(session: Addr<Session>) -> HttpResponse {
    let mut guard = PollGuard {
        session: session.clone(),
        answered: false,
    };
    let reply = session.send(PollRequest).await;
    let body = match reply {
        Ok(Ok(PollReply::Now(body))) => Some(body),
        Ok(Ok(PollReply::Later(rx))) => rx.await.ok(),
        Ok(Err(error)) => {
            guard.answered = true;
            return error.response();
        }
        Err(_) => None,
    };
    guard.answered = true;
    let Some(body) = body else {
        return EngineError::UnknownSid.response();
    };
    HttpResponse::Ok()
        .content_type(POLLING_CONTENT_TYPE)
        .body(body)
}

async fn post(
    engine: &Engine<Session>,
    session: Addr<Session>,
    req: &HttpRequest,
    mut body: web::Payload,
) -> HttpResponse {
    let max = engine.config.max_payload;
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|len| len > max) {
        session.do_send(PayloadTooLarge);
        return HttpResponse::PayloadTooLarge().finish();
    }
    let mut buf = BytesMut::new();
    while let Some(chunk) = body.next().await {
        let Ok(chunk) = chunk else {
            return EngineError::BadRequest.response();
        };
        if buf.len() + chunk.len() > max {
            session.do_send(PayloadTooLarge);
            return HttpResponse::PayloadTooLarge().finish();
        }
        buf.extend_from_slice(&chunk);
    }
    let Ok(text) = ByteString::try_from(buf.freeze()) else {
        return EngineError::BadRequest.response();
    };
    match session.send(Post(text)).await {
        Ok(Ok(())) => HttpResponse::Ok().content_type("text/html").body("ok"),
        Ok(Err(error)) => error.response(),
        Err(_) => EngineError::UnknownSid.response(),
    }
}

/// Token from the `Authorization: Bearer` header, else from the `jwt` cookie.
pub(crate) fn handshake_token(headers: &HeaderMap) -> Option<String> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty());
    bearer.or_else(|| {
        headers
            .get_all(header::COOKIE)
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(name, _)| *name == TOKEN_COOKIE)
            .map(|(_, value)| value.trim_matches('"').to_owned())
    })
}

fn preflight(req: &HttpRequest) -> HttpResponse {
    let mut response = HttpResponse::NoContent();
    response.insert_header((header::ACCESS_CONTROL_ALLOW_METHODS, ALLOWED_METHODS));
    if let Some(requested) = req.headers().get(header::ACCESS_CONTROL_REQUEST_HEADERS) {
        response.insert_header((header::ACCESS_CONTROL_ALLOW_HEADERS, requested.clone()));
    }
    response.finish()
}

fn apply_cors(origins: &[String], req: &HttpRequest, response: &mut HttpResponse) {
    let headers = response.headers_mut();
    if origins.iter().any(|o| o == ANY_ORIGIN) {
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static(ANY_ORIGIN),
        );
        return;
    }
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        return;
    };
    let allowed = origin
        .to_str()
        .is_ok_and(|o| origins.iter().any(|allowed| allowed == o));
    if allowed {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
            HeaderValue::from_static("true"),
        );
        headers.insert(header::VARY, HeaderValue::from_static("Origin"));
    }
}
