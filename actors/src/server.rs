//! The HTTP server that carries the realtime endpoints: actix-web's application for every
//! request, except websocket requests, which actix-http hands over with their connection to
//! the endpoints' websocket transport. (actix-web's own `HttpServer` would keep a websocket
//! inside its HTTP dispatcher, with two 8 KB buffers and a channel per connection for the
//! connection's whole life.)

use std::{fmt, io, net, sync::Arc, time::Duration};

use actix_http::{body::MessageBody, HttpService, Request, Response};
use actix_server::Server;
use actix_service::{fn_factory, fn_service, map_config, IntoServiceFactory, ServiceFactoryExt};
use actix_web::{
    dev::{AppConfig, Service, ServiceFactory},
    Error,
};

use crate::socketio::{engine::Engine, handshake, session::Session};

/// How long a client may take to send a request's head (actix-web's default).
const CLIENT_REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// How long closing a connection may take before it is dropped (actix-web's default).
const CLIENT_DISCONNECT_TIMEOUT: Duration = Duration::from_secs(1);

/// A realtime endpoint (Socket.IO or raw Engine.IO) whose websockets a [`HttpServer`]
/// serves; from [`crate::realtime::Realtime::endpoint`] or [`crate::realtime::EngineIo::endpoint`].
#[derive(Clone)]
pub struct Endpoint(pub(crate) Arc<Engine<Session>>);

/// Builds and runs the HTTP server: like `actix_web::HttpServer`, plus the websocket
/// hand-over of the [`Endpoint`]s it is given. Long-polling requests still go to the
/// application, which mounts the endpoints with their `configure`.
pub struct HttpServer<F> {
    factory: F,
    endpoints: Vec<Arc<Engine<Session>>>,
    workers: Option<usize>,
    allow_half_closed: bool,
}

impl<F> HttpServer<F> {
    /// A server for the applications `factory` makes (one per worker thread).
    pub fn new(factory: F) -> Self {
        HttpServer {
            factory,
            endpoints: Vec::new(),
            workers: None,
            allow_half_closed: true,
        }
    }

    /// Serves `endpoint`'s websockets.
    #[must_use]
    pub fn endpoint(mut self, endpoint: Endpoint) -> Self {
        self.endpoints.push(endpoint.0);
        self
    }

    /// Worker threads (default: one per core).
    #[must_use]
    pub fn workers(mut self, workers: usize) -> Self {
        self.workers = Some(workers);
        self
    }

    /// Whether an HTTP/1 connection whose client shut its sending side down stays until the
    /// response is out (actix-web's `h1_allow_half_closed`). With `false`, a pending
    /// long-poll ends as soon as its client goes, and so does the realtime session.
    #[must_use]
    pub fn h1_allow_half_closed(mut self, allow: bool) -> Self {
        self.allow_half_closed = allow;
        self
    }

    /// Starts serving on `listener`; the returned server runs until stopped (SIGINT/SIGTERM
    /// stop it gracefully).
    pub fn listen<I, S, B>(self, listener: net::TcpListener) -> io::Result<Server>
    where
        F: Fn() -> I + Send + Clone + 'static,
        I: IntoServiceFactory<S, Request>,
        S: ServiceFactory<Request, Config = AppConfig> + 'static,
        S::Error: Into<Error> + 'static,
        S::InitError: fmt::Debug,
        S::Response: Into<Response<B>> + 'static,
        <S::Service as Service<Request>>::Future: 'static,
        S::Service: 'static,
        B: MessageBody + 'static,
    {
        let addr = listener.local_addr()?;
        let endpoints: Arc<[Arc<Engine<Session>>]> = self.endpoints.into();
        let (factory, allow_half_closed) = (self.factory, self.allow_half_closed);
        let mut builder = Server::build();
        if let Some(workers) = self.workers {
            builder = builder.workers(workers);
        }
        builder
            .listen(format!("pressroom-{addr}"), listener, move || {
                let endpoints = endpoints.clone();
                let upgrade = fn_factory(move || {
                    let endpoints = endpoints.clone();
                    async move {
                        Ok::<_, ()>(fn_service(move |(req, framed)| {
                            handshake::accept(endpoints.clone(), req, framed)
                        }))
                    }
                });
                let app = factory()
                    .into_factory()
                    .map_err(|err| err.into().error_response());
                HttpService::build()
                    // An answer leaves as soon as it is written: a compressed body goes out in
                    // several writes, and with Nagle's algorithm each waited for the client's
                    // delayed acknowledgement of the one before (40 ms here).
                    .tcp_nodelay(true)
                    .client_request_timeout(CLIENT_REQUEST_TIMEOUT)
                    .client_disconnect_timeout(CLIENT_DISCONNECT_TIMEOUT)
                    .h1_allow_half_closed(allow_half_closed)
                    .local_addr(addr)
                    .upgrade(upgrade)
                    .finish(map_config(app, move |()| AppConfig::default()))
                    .tcp()
            })
            .map(|builder| builder.run())
    }
}
