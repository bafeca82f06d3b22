//! The session actor: one per Engine.IO connection. It owns the transport (polling queue or
//! websocket sink, and an in-flight upgrade), the heartbeat, and the Socket.IO namespace
//! sockets of the connection, or hands raw messages to an [`EngineHandler`].
//!
//! This file holds the Engine.IO core (state, output, heartbeat, close); the long-polling
//! requests are in [`polling`], the upgrade in [`upgrade`], the Socket.IO namespaces and acks
//! in [`namespaces`].

mod namespaces;
pub(crate) mod polling;
pub(crate) mod upgrade;

use std::{
    collections::VecDeque,
    pin::Pin,
    sync::Arc,
    task::{self, Poll},
    time::Duration,
};

use actix::{
    fut::ActorFuture, Actor, ActorContext, Addr, AsyncContext, Context, Handler, SpawnHandle,
    StreamHandler,
};
use bytestring::ByteString;
use tokio::{
    sync::{mpsc, oneshot},
    time::Instant,
};

use super::{
    eio::{self, Frame},
    engine::{App, Engine, SioServer, TRANSPORT_WEBSOCKET},
    ids::{Sid, SocketId},
    mailbox::{AckCallback, Command},
    namespace::{EngineConn, EngineHandler, NamespaceHandler, RawMessage, Socket},
    rooms::Unregister,
    sio::{self, Packet},
    websocket::{CatchUp, Link, Pushed, WsFrame, WsInbound, WsReader, WsWriter, CLOSE_POLICY},
};

/// How long a websocket upgrade may take between the probe connection and its `5` packet.
pub const UPGRADE_TIMEOUT: Duration = Duration::from_secs(10);
/// Server-to-client acknowledgements awaited at once per connection; older ones are dropped.
pub const MAX_PENDING_ACKS: usize = 1_024;
/// How long a polling session closed on purpose keeps its last frames for the next poll.
pub const POLLING_CLOSE_GRACE: Duration = Duration::from_secs(5);
/// How long a polling session its client closed (close packet, no poll pending) waits for
/// the poll the client may have sent at the same time, which gets a noop as a pending one
/// would have.
pub const CLIENT_CLOSE_GRACE: Duration = Duration::from_secs(1);
/// How long a closing websocket session waits for its last frames to reach the socket.
pub const CLOSE_FLUSH_GRACE: Duration = Duration::from_secs(5);
/// How long the packets that follow a namespace's CONNECT answer on a websocket wait, so that
/// they reach the client in a later read than the answer. A client that handles the messages
/// of one read together (the `ws` library of the protocol test suites does) and starts
/// waiting for the next message only once it has the answer would otherwise miss the first
/// packet after it; the reference server writes that packet one turn of its event loop later.
pub const CONNECT_SETTLE: Duration = Duration::from_millis(20);
/// Longest wait for an upgrade's reader to hand over what reached its socket before a
/// polling request (see [`PollRequest`]).
pub const CATCH_UP_TIMEOUT: Duration = Duration::from_secs(1);
const PROBE: &str = "probe";

// ---- state ----------------------------------------------------------------------------

struct Ws {
    link: Arc<Link>,
    attempt: u32,
}

impl Ws {
    fn new(writer: WsWriter, cap: usize, attempt: u32) -> Self {
        Ws {
            link: Link::new(writer, cap),
            attempt,
        }
    }
}

#[derive(Default)]
struct Polling {
    queue: VecDeque<Frame>,
    waiting: Option<oneshot::Sender<String>>,
    /// A deliberate close is due once the queued packets have gone out in a poll of their own:
    /// socket.io-client handles the packets of one payload a tick after a close packet in it,
    /// so a DISCONNECT sharing a payload with the close would reach it after the close.
    close_after_queue: bool,
}

impl Polling {
    fn take_payload(&mut self, extra: Option<&str>) -> String {
        let queue = std::mem::take(&mut self.queue);
        let mut body = eio::encode_payload(&queue);
        if let Some(extra) = extra {
            if !body.is_empty() {
                body.push(eio::RECORD_SEPARATOR);
            }
            body.push_str(extra);
        }
        body
    }
}

enum Transport {
    Polling(Polling),
    WebSocket(Ws),
}

struct Upgrade {
    ws: Ws,
    probed: bool,
    timer: SpawnHandle,
    /// Asks the upgrade's reader to hand over what reached its socket.
    catch_up: mpsc::UnboundedSender<CatchUp>,
}

struct NsSocket {
    socket: Socket,
    handler: Arc<dyn NamespaceHandler>,
}

struct SioState {
    server: Arc<SioServer>,
    sockets: Vec<NsSocket>,
    decoder: sio::Decoder,
    acks: VecDeque<(SocketId, u64, AckCallback)>,
    next_ack: u64,
    connect_timer: Option<SpawnHandle>,
}

enum AppState {
    Sio(Box<SioState>),
    Raw {
        handler: Arc<dyn EngineHandler>,
        conn: Option<EngineConn>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CloseBy {
    /// The client asked (close packet, websocket closed): pending polls get `6`.
    Client,
    /// The server gave up on the client (timeout, error, overflow): pending polls get `1`.
    Server,
    /// The server closes on purpose (kick, revoked token, connect timeout): like `Server`, but
    /// when no poll is pending, the frames already queued for a polling client (its
    /// DISCONNECT; a noop when there are none) and `1` wait for its next poll, for up to
    /// [`POLLING_CLOSE_GRACE`].
    ServerFlush,
}

/// One Engine.IO connection.
pub(crate) struct Session {
    sid: Sid,
    engine: Arc<Engine<Session>>,
    transport: Transport,
    upgrade: Option<Box<Upgrade>>,
    upgrade_attempts: u32,
    heartbeat: Option<SpawnHandle>,
    awaiting_pong: bool,
    /// When the client has missed its ping: pingTimeout after the next ping is due. A polling
    /// request arriving then finds the session closed, even if the timer that closes it has
    /// not run yet.
    alive_until: Instant,
    /// When the last ping was due (the next one is due `pingInterval` later).
    ping_due: Instant,
    closing: bool,
    /// Why the session closed (the `reason` of its disconnect metric).
    close_reason: &'static str,
    torn_down: bool,
    app: AppState,
    /// Token from the handshake request (bearer header or `jwt` cookie), if any.
    handshake_token: Option<Box<str>>,
}

impl Session {
    fn new(
        sid: Sid,
        engine: Arc<Engine<Session>>,
        transport: Transport,
        handshake_token: Option<String>,
    ) -> Self {
        let app = match &engine.app {
            App::SocketIo(server) => AppState::Sio(Box::new(SioState {
                server: server.clone(),
                sockets: Vec::new(),
                decoder: sio::Decoder::default(),
                acks: VecDeque::new(),
                next_ack: 0,
                connect_timer: None,
            })),
            App::Raw(handler) => AppState::Raw {
                handler: handler.clone(),
                conn: None,
            },
        };
        Session {
            sid,
            engine,
            transport,
            upgrade: None,
            upgrade_attempts: 0,
            heartbeat: None,
            awaiting_pong: false,
            alive_until: Instant::now(),
            ping_due: Instant::now(),
            closing: false,
            close_reason: "server stop",
            torn_down: false,
            app,
            handshake_token: handshake_token.map(String::into_boxed_str),
        }
    }

    /// Starts a long-polling session; the caller answers the handshake GET with a poll.
    pub(crate) fn start_polling(
        engine: Arc<Engine<Session>>,
        token: Option<String>,
    ) -> Addr<Session> {
        let sid = Sid::with_prefix(&engine.config.sid_prefix);
        Session::create(move |ctx| {
            engine.insert(sid, ctx.address());
            Session::new(sid, engine, Transport::Polling(Polling::default()), token)
        })
    }

    /// Starts a websocket-only session on this thread.
    pub(crate) fn start_websocket(
        engine: Arc<Engine<Session>>,
        token: Option<String>,
        writer: WsWriter,
        reader: WsReader,
    ) {
        let sid = Sid::with_prefix(&engine.config.sid_prefix);
        let ws = Ws::new(writer, engine.config.outbound_queue, 0);
        Session::create(move |ctx| {
            engine.insert(sid, ctx.address());
            ctx.add_stream(reader);
            Session::new(sid, engine, Transport::WebSocket(ws), token)
        });
    }

    fn cap(&self) -> usize {
        self.engine.config.outbound_queue
    }

    // ---- output -----------------------------------------------------------------------

    fn push_frames(&mut self, ctx: &mut Context<Self>, frames: &[Frame]) {
        let cap = self.cap();
        match &mut self.transport {
            Transport::Polling(polling) => {
                polling.queue.extend(frames.iter().cloned());
                if polling.queue.len() > cap {
                    self.close(ctx, CloseBy::Server, "outbound queue full");
                    return;
                }
                let probing = self.upgrade.as_ref().is_some_and(|u| u.probed);
                if !probing {
                    if let Some(waiting) = polling.waiting.take() {
                        if waiting.send(polling.take_payload(None)).is_err() {
                            // The pending poll's request went away before this answer.
                            self.close(ctx, CloseBy::Server, "cancelled polling request");
                        }
                    }
                }
            }
            Transport::WebSocket(ws) => {
                let pushed = ws.link.push(frames);
                self.after_push(ctx, pushed);
            }
        }
    }

    fn push_packet(&mut self, ctx: &mut Context<Self>, packet: &Packet) {
        self.push_frames(ctx, &packet.encode());
    }

    fn push_ws(&mut self, ctx: &mut Context<Self>, frame: &WsFrame<'_>) {
        let Transport::WebSocket(ws) = &self.transport else {
            return;
        };
        let pushed = ws.link.push_frame(frame);
        self.after_push(ctx, pushed);
    }

    fn after_push(&mut self, ctx: &mut Context<Self>, pushed: Pushed) {
        match pushed {
            Pushed::Sent | Pushed::Queued => {}
            Pushed::StartFlush => {
                ctx.spawn(WsFlush);
            }
            Pushed::Overflow => self.overflowed(ctx),
            Pushed::Closed => {
                self.teardown();
                ctx.stop();
            }
        }
    }

    /// The client does not read what it is sent: it is dropped, backlog and all.
    fn overflowed(&mut self, ctx: &mut Context<Self>) {
        self.close(ctx, CloseBy::Server, "outbound queue full");
        self.teardown();
        ctx.stop();
    }

    fn poll_flush(&mut self, ctx: &mut Context<Self>, task: &mut task::Context<'_>) -> Poll<()> {
        let Transport::WebSocket(ws) = &self.transport else {
            return Poll::Ready(());
        };
        match ws.link.poll_flush(task) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(())) => {}
            Poll::Ready(Err(_)) => {
                self.teardown();
                ctx.stop();
                return Poll::Ready(());
            }
        }
        if self.closing {
            ctx.stop();
        }
        Poll::Ready(())
    }

    // ---- heartbeat --------------------------------------------------------------------

    /// Sends the next ping at `due`. Pings keep the rhythm of the handshake: one every
    /// `pingInterval`, however long the client took to answer the previous one ("at a given
    /// interval the server sends a ping packet", engine.io-protocol "Heartbeat"), so that a
    /// slow client does not stretch it.
    fn schedule_ping(&mut self, ctx: &mut Context<Self>, due: Instant) {
        let timeout = self.engine.config.ping_timeout;
        self.ping_due = due;
        self.alive_until = due + timeout;
        let wait = due.saturating_duration_since(Instant::now());
        self.heartbeat = Some(ctx.run_later(wait, move |act, ctx| {
            act.awaiting_pong = true;
            act.push_frames(ctx, &[eio::Packet::Ping(ByteString::new()).encode()]);
            act.heartbeat = Some(ctx.run_later(timeout, |act, ctx| {
                act.close(ctx, CloseBy::Server, "ping timeout");
            }));
        }));
    }

    fn on_pong(&mut self, ctx: &mut Context<Self>) {
        if !self.awaiting_pong {
            return;
        }
        self.awaiting_pong = false;
        if let Some(handle) = self.heartbeat.take() {
            ctx.cancel_future(handle);
        }
        let next = self.ping_due + self.engine.config.ping_interval;
        self.schedule_ping(ctx, next.max(Instant::now()));
    }

    /// Closes the session if its client missed a ping; true if it did.
    fn missed_ping(&mut self, ctx: &mut Context<Self>) -> bool {
        if self.closing || Instant::now() < self.alive_until {
            return false;
        }
        self.close(ctx, CloseBy::Server, "ping timeout");
        true
    }

    fn is_websocket(&self) -> bool {
        matches!(self.transport, Transport::WebSocket(_))
    }

    // ---- closing ----------------------------------------------------------------------

    fn close(&mut self, ctx: &mut Context<Self>, by: CloseBy, reason: &'static str) {
        if self.closing {
            return;
        }
        tracing::debug!(sid = %self.sid, reason, "closing realtime session");
        self.closing = true;
        self.close_reason = reason;
        if let Some(handle) = self.heartbeat.take() {
            ctx.cancel_future(handle);
        }
        if let Some(upgrade) = self.upgrade.take() {
            ctx.cancel_future(upgrade.timer);
        }
        self.teardown();
        match &mut self.transport {
            Transport::Polling(polling) => {
                if let Some(waiting) = polling.waiting.take() {
                    let last = match by {
                        CloseBy::Client => eio::kind::NOOP,
                        CloseBy::Server | CloseBy::ServerFlush => eio::kind::CLOSE,
                    };
                    let _ = waiting.send(polling.take_payload(Some(last.encode_utf8(&mut [0; 4]))));
                    ctx.stop();
                } else if by == CloseBy::ServerFlush {
                    // As the reference server does when it closes on purpose: the session
                    // stays until the client's next poll, which gets the close packet.
                    if polling.queue.is_empty() {
                        polling.queue.push_back(eio::Packet::Noop.encode());
                        polling.queue.push_back(eio::Packet::Close.encode());
                    } else {
                        polling.close_after_queue = true;
                    }
                    ctx.run_later(POLLING_CLOSE_GRACE, |_, ctx| ctx.stop());
                } else if by == CloseBy::Client {
                    // A poll sent together with the close packet may reach the session after
                    // it: it gets the noop a pending poll gets, whatever the order, and ends the
                    // session (the next request finds it gone).
                    polling.queue.clear();
                    polling.queue.push_back(eio::Packet::Noop.encode());
                    ctx.run_later(CLIENT_CLOSE_GRACE, |_, ctx| ctx.stop());
                } else {
                    // As the reference server does: no pending poll, the session is gone
                    // and the client's next request gets `Session ID unknown`.
                    ctx.stop();
                }
            }
            Transport::WebSocket(_) => {
                let reason = (reason == "outbound queue full" || reason == "message too big")
                    .then_some((CLOSE_POLICY, reason));
                if let Transport::WebSocket(ws) = &self.transport {
                    let pushed = ws.link.push_close(reason);
                    if pushed == Pushed::StartFlush {
                        ctx.spawn(WsFlush);
                    }
                    if ws.link.flushing() {
                        // The last frames get a moment to go out, not more: a client that
                        // stopped reading must not keep the session.
                        ctx.run_later(CLOSE_FLUSH_GRACE, |_, ctx| ctx.stop());
                    } else {
                        ctx.stop();
                    }
                }
            }
        }
    }

    /// Leaves every namespace and forgets the session; runs once.
    fn teardown(&mut self) {
        if self.torn_down {
            return;
        }
        self.torn_down = true;
        match &mut self.app {
            AppState::Sio(sio) => {
                sio.acks.clear();
                for ns in sio.sockets.drain(..) {
                    sio.server.hub.do_send(Unregister {
                        socket: ns.socket.id(),
                    });
                    ns.handler.on_disconnect(&ns.socket);
                }
            }
            AppState::Raw { handler, conn } => {
                if let Some(conn) = conn.take() {
                    handler.on_close(&conn);
                }
            }
        }
    }

    // ---- input ------------------------------------------------------------------------

    fn on_engine_packet(&mut self, ctx: &mut Context<Self>, packet: eio::Packet) {
        if self.closing {
            return;
        }
        match packet {
            eio::Packet::Pong(_) => self.on_pong(ctx),
            eio::Packet::Message(text) => self.on_message(ctx, RawMessage::Text(text)),
            eio::Packet::Binary(data) => self.on_message(ctx, RawMessage::Binary(data)),
            eio::Packet::Close => self.close(ctx, CloseBy::Client, "transport close"),
            eio::Packet::Open(_)
            | eio::Packet::Ping(_)
            | eio::Packet::Upgrade
            | eio::Packet::Noop => {}
        }
    }

    fn on_ws_item(&mut self, ctx: &mut Context<Self>, item: WsInbound) {
        match item {
            WsInbound::Text(text) => match eio::Packet::decode_text(&text) {
                Ok(packet) => self.on_engine_packet(ctx, packet),
                Err(_) => self.close(ctx, CloseBy::Server, "parse error"),
            },
            WsInbound::Binary(data) => self.on_engine_packet(ctx, eio::Packet::Binary(data)),
            WsInbound::Ping(data) => self.push_ws(ctx, &WsFrame::Pong(&data)),
            WsInbound::Closed => self.close(ctx, CloseBy::Client, "transport close"),
            WsInbound::TooBig => self.close(ctx, CloseBy::Server, "message too big"),
            WsInbound::Invalid => self.close(ctx, CloseBy::Server, "transport error"),
        }
    }
}

/// Drains a websocket backlog as the channel to the connection frees up.
struct WsFlush;

impl ActorFuture<Session> for WsFlush {
    type Output = ();

    fn poll(
        self: Pin<&mut Self>,
        act: &mut Session,
        ctx: &mut Context<Session>,
        task: &mut task::Context<'_>,
    ) -> Poll<()> {
        act.poll_flush(ctx, task)
    }
}

impl Actor for Session {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(self.cap());
        if crate::metrics::enabled() {
            let transport = crate::metrics::transport_label(self.is_websocket());
            crate::metrics::SOCKET_CONNECTS
                .with_label_values(&[transport])
                .inc();
            crate::metrics::ONLINE_SOCKETS
                .with_label_values(&[transport])
                .inc();
        }
        let upgrades: &[&str] = match self.transport {
            Transport::Polling(_) => &[TRANSPORT_WEBSOCKET],
            Transport::WebSocket(_) => &[],
        };
        let open = eio::Packet::Open(self.engine.handshake(self.sid, upgrades).into()).encode();
        self.push_frames(ctx, &[open]);
        self.schedule_ping(ctx, Instant::now() + self.engine.config.ping_interval);
        let connect_timeout = self.engine.config.connect_timeout;
        let address = ctx.address().recipient();
        let sid = self.sid;
        match &mut self.app {
            AppState::Sio(sio) => {
                sio.connect_timer = Some(ctx.run_later(connect_timeout, |act, ctx| {
                    if act.sio().is_some_and(|sio| sio.sockets.is_empty()) {
                        act.close(ctx, CloseBy::ServerFlush, "connect timeout");
                    }
                }));
            }
            AppState::Raw { handler, conn } => {
                let new_conn = EngineConn::new(sid, address);
                handler.on_open(&new_conn);
                *conn = Some(new_conn);
            }
        }
    }

    fn stopped(&mut self, _ctx: &mut Self::Context) {
        if crate::metrics::enabled() {
            crate::metrics::ONLINE_SOCKETS
                .with_label_values(&[crate::metrics::transport_label(self.is_websocket())])
                .dec();
            crate::metrics::SOCKET_DISCONNECTS
                .with_label_values(&[self.close_reason])
                .inc();
        }
        self.teardown();
        self.engine.remove(&self.sid);
        // The hub may still hold the link for a moment: end the connection now.
        if let Transport::WebSocket(ws) = &self.transport {
            ws.link.shutdown();
        }
        if let Some(upgrade) = &self.upgrade {
            upgrade.ws.link.shutdown();
        }
    }
}

impl StreamHandler<WsInbound> for Session {
    fn handle(&mut self, item: WsInbound, ctx: &mut Context<Self>) {
        self.on_ws_item(ctx, item);
    }

    fn finished(&mut self, ctx: &mut Context<Self>) {
        self.close(ctx, CloseBy::Client, "transport close");
        self.teardown();
        ctx.stop();
    }
}

impl Handler<Command> for Session {
    type Result = ();

    fn handle(&mut self, command: Command, ctx: &mut Context<Self>) {
        match command {
            Command::Deliver(out) => {
                if !self.closing {
                    self.push_frames(ctx, out.frames());
                }
            }
            Command::Overflowed => self.overflowed(ctx),
            Command::FlushLink => {
                ctx.spawn(WsFlush);
            }
            Command::Disconnect {
                socket,
                close_connection,
            } => self.disconnect_socket(ctx, socket, close_connection),
            Command::CloseTransport => self.close(ctx, CloseBy::ServerFlush, "forced close"),
            Command::EmitWithAck {
                socket,
                packet,
                callback,
            } => self.emit_with_ack(ctx, socket, packet, callback),
        }
    }
}
