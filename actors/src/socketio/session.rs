//! The session actor: one per Engine.IO connection. It owns the transport (polling queue or
//! websocket sink, and an in-flight upgrade), the heartbeat, and the Socket.IO namespace
//! sockets of the connection, or hands raw messages to an [`EngineHandler`].

use std::{
    collections::VecDeque,
    pin::Pin,
    sync::Arc,
    task::{self, Poll},
    time::Duration,
};

use actix::{
    fut::{ActorFuture, ActorFutureExt, WrapFuture},
    Actor, ActorContext, ActorResponse, Addr, AsyncContext, Context, Handler, Message, SpawnHandle,
    StreamHandler,
};
use bytestring::ByteString;
use serde_json::Value;
use tokio::{
    sync::{mpsc, oneshot},
    time::Instant,
};

use super::{
    eio::{self, Frame, Outbound},
    engine::{App, Engine, EngineError, SioServer, TRANSPORT_WEBSOCKET},
    ids::{Sid, SocketId},
    namespace::{
        AckCallback, AckReply, AckSender, ClientEvent, EngineConn, EngineHandler, NamespaceHandler,
        RawMessage, Socket,
    },
    rooms::{Register, Unregister},
    sio::{self, Packet, PacketType},
    websocket::{CatchUp, Link, Pushed, WsFrame, WsInbound, WsReader, WsWriter, CLOSE_POLICY},
};
use crate::auth::Identity;

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

// ---- messages -------------------------------------------------------------------------

/// Sent by any socket handle or the hub: frames to write to the client, in order.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Deliver(pub(crate) Outbound);

/// Sent by the hub when this session's mailbox or its link's backlog was full: the client
/// is too slow, close it.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Overflowed;

/// Sent by the hub when a frame it wrote to this session's link had to wait for the socket:
/// drain the link's backlog.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct FlushLink;

/// Sent by a socket handle or the hub: leave a namespace with a DISCONNECT packet, and
/// optionally close the whole connection afterwards.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct DisconnectSocket {
    pub(crate) socket: SocketId,
    pub(crate) close_connection: bool,
}

/// Sent by a socket handle: drop the connection without DISCONNECT (the client reconnects).
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct CloseTransport;

/// Sent by a socket handle: emit an event and remember the callback for its ACK.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct EmitWithAck {
    pub(crate) socket: SocketId,
    pub(crate) packet: Packet,
    pub(crate) callback: AckCallback,
}

/// Answer to a long-polling GET.
pub(crate) enum PollReply {
    /// Payload to send right away.
    Now(String),
    /// Payload will come when there is something to send.
    Later(oneshot::Receiver<String>),
}

/// Sent by the polling GET handler. The reply is the response body, now or later.
///
/// During an upgrade the request is answered as of after every packet that reached the
/// upgrade's websocket before it: a GET sent after `2probe` and `5` is a request after the
/// upgrade (400) even when this handler runs before the websocket's reader has handed those
/// packets over, as the reference server, which handles arrivals in order, answers.
#[derive(Message)]
#[rtype(result = "Result<PollReply, EngineError>")]
pub(crate) struct PollRequest;

/// Sent by the polling GET handler when its request went away before the answer came (the
/// client aborted it, or the connection closed): the session is closed, as the reference
/// server does for a cancelled polling request.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct PollCancelled;

/// Sent by the polling POST handler with the request body.
#[derive(Message)]
#[rtype(result = "Result<(), EngineError>")]
pub(crate) struct Post(pub(crate) ByteString);

/// Sent by the polling POST handler when the body broke `maxPayload`: close the session.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct PayloadTooLarge;

/// Sent by the websocket handshake for a request carrying this session's sid: the start of
/// an upgrade. The reply is the attempt number to tag forwarded frames with, and the requests
/// for the reader to catch up (see [`PollRequest`]).
#[derive(Message)]
#[rtype(result = "Result<(u32, mpsc::UnboundedReceiver<CatchUp>), UpgradeRefused>")]
pub(crate) struct UpgradeStart(pub(crate) WsWriter);

/// An upgrade the session refused, with the writer it was offered.
pub(crate) struct UpgradeRefused {
    pub(crate) error: EngineError,
    pub(crate) writer: WsWriter,
}

/// Sent by the task reading an upgrade websocket: one received message.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct UpgradeInbound {
    pub(crate) attempt: u32,
    pub(crate) item: WsInbound,
}

/// Sent by the task reading an upgrade websocket when the client closed it.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct UpgradeEnded {
    pub(crate) attempt: u32,
}

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
    engine: Arc<Engine>,
    transport: Transport,
    upgrade: Option<Box<Upgrade>>,
    upgrade_attempts: u32,
    heartbeat: Option<SpawnHandle>,
    awaiting_pong: bool,
    /// When the client has missed its ping: pingInterval + pingTimeout after the handshake
    /// or the last pong. A polling request arriving then finds the session closed, even if
    /// the timer that closes it has not run yet.
    alive_until: Instant,
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
        engine: Arc<Engine>,
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
            closing: false,
            close_reason: "server stop",
            torn_down: false,
            app,
            handshake_token: handshake_token.map(String::into_boxed_str),
        }
    }

    /// Starts a long-polling session; the caller answers the handshake GET with a poll.
    pub(crate) fn start_polling(engine: Arc<Engine>, token: Option<String>) -> Addr<Session> {
        let sid = Sid::with_prefix(&engine.config.sid_prefix);
        Session::create(move |ctx| {
            engine.insert(sid, ctx.address());
            Session::new(sid, engine, Transport::Polling(Polling::default()), token)
        })
    }

    /// Starts a websocket-only session on this thread.
    pub(crate) fn start_websocket(
        engine: Arc<Engine>,
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

    fn schedule_ping(&mut self, ctx: &mut Context<Self>) {
        let interval = self.engine.config.ping_interval;
        let timeout = self.engine.config.ping_timeout;
        self.alive_until = Instant::now() + interval + timeout;
        self.heartbeat = Some(ctx.run_later(interval, move |act, ctx| {
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
        self.schedule_ping(ctx);
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

    fn on_message(&mut self, ctx: &mut Context<Self>, message: RawMessage) {
        let decoded = match &mut self.app {
            AppState::Raw { handler, conn } => {
                if let Some(conn) = conn {
                    handler.on_message(conn, message);
                }
                return;
            }
            AppState::Sio(sio) => match message {
                RawMessage::Text(text) => sio.decoder.feed_text(&text),
                RawMessage::Binary(data) => sio.decoder.feed_binary(data),
            },
        };
        match decoded {
            Ok(Some(packet)) => self.on_sio_packet(ctx, packet),
            Ok(None) => {}
            Err(error) => {
                tracing::debug!(sid = %self.sid, %error, "invalid Socket.IO packet");
                self.close(ctx, CloseBy::Server, "invalid packet");
            }
        }
    }

    fn sio(&mut self) -> Option<&mut SioState> {
        match &mut self.app {
            AppState::Sio(sio) => Some(sio),
            AppState::Raw { .. } => None,
        }
    }

    fn on_sio_packet(&mut self, ctx: &mut Context<Self>, packet: Packet) {
        match packet.kind {
            PacketType::Connect => self.sio_connect(ctx, packet.nsp, packet.data),
            PacketType::Disconnect => self.sio_leave(&packet.nsp),
            PacketType::Event | PacketType::BinaryEvent => self.sio_event(ctx, packet),
            PacketType::Ack | PacketType::BinaryAck => self.sio_ack(packet),
            PacketType::ConnectError => {}
        }
    }

    fn sio_connect(&mut self, ctx: &mut Context<Self>, nsp: String, data: Option<Value>) {
        let token_from_handshake = self.handshake_token.as_deref().map(str::to_owned);
        let Some(sio) = self.sio() else { return };
        let Some(handler) = sio.server.namespaces.get(&nsp).cloned() else {
            self.push_packet(ctx, &Packet::connect_error(&nsp, "Invalid namespace"));
            return;
        };
        if sio.sockets.iter().any(|s| s.socket.namespace() == nsp) {
            return;
        }
        let auth = data.unwrap_or_else(|| Value::Object(serde_json::Map::new()));
        let Some(authenticator) = sio.server.auth.clone() else {
            self.finish_connect(ctx, nsp, handler, None, auth);
            return;
        };
        let token = auth
            .get("token")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or(token_from_handshake);
        ctx.wait(authenticator.authenticate(token).into_actor(self).map(
            move |result, act, ctx| {
                if act.closing {
                    return;
                }
                match result {
                    Ok(identity) => act.finish_connect(ctx, nsp, handler, identity, auth),
                    Err(message) => act.push_packet(ctx, &Packet::connect_error(&nsp, &message)),
                }
            },
        ));
    }

    fn finish_connect(
        &mut self,
        ctx: &mut Context<Self>,
        nsp: String,
        handler: Arc<dyn NamespaceHandler>,
        identity: Option<Identity>,
        auth: Value,
    ) {
        let address = ctx.address();
        // A connection that is a websocket for good lets the hub write to it directly; one
        // that may still upgrade gets the hub's frames through its mailbox.
        let link = match &self.transport {
            Transport::WebSocket(ws) => Some(ws.link.clone()),
            Transport::Polling(_) => None,
        };
        let Some(sio) = self.sio() else { return };
        if sio.sockets.iter().any(|s| s.socket.namespace() == nsp) {
            return;
        }
        let user = identity
            .as_ref()
            .map(|i| Arc::<str>::from(i.user_id.as_str()));
        let login = identity
            .as_ref()
            .and_then(|i| i.session.as_deref())
            .map(Arc::<str>::from);
        let nsp: Arc<str> = nsp.into();
        let socket = Socket::new(
            nsp.clone(),
            identity,
            address.clone(),
            sio.server.hub.clone(),
        );
        let hub = sio.server.hub.clone();
        if let Some(timer) = sio.connect_timer.take() {
            ctx.cancel_future(timer);
        }
        // The CONNECT answer goes out before the hub may write to the socket, and alone.
        self.push_packet(ctx, &Packet::connected(&nsp, socket.public_id()));
        if let Transport::WebSocket(ws) = &self.transport {
            ws.link.hold();
            let link = ws.link.clone();
            ctx.run_later(CONNECT_SETTLE, move |act, ctx| {
                let pushed = link.release();
                act.after_push(ctx, pushed);
            });
        }
        if self.closing || self.torn_down {
            // The connection broke while answering: the socket never existed.
            return;
        }
        let Some(sio) = self.sio() else { return };
        sio.sockets.push(NsSocket {
            socket: socket.clone(),
            handler: handler.clone(),
        });
        hub.do_send(Register {
            socket: socket.id(),
            nsp,
            user,
            login,
            session: address,
            link,
        });
        handler.on_connect(&socket, &auth);
    }

    /// The client left `nsp` (DISCONNECT packet).
    fn sio_leave(&mut self, nsp: &str) {
        let Some(sio) = self.sio() else { return };
        let Some(index) = sio.sockets.iter().position(|s| s.socket.namespace() == nsp) else {
            return;
        };
        let ns = sio.sockets.remove(index);
        let id = ns.socket.id();
        sio.acks.retain(|(socket, _, _)| *socket != id);
        sio.server.hub.do_send(Unregister { socket: id });
        ns.handler.on_disconnect(&ns.socket);
    }

    fn sio_event(&mut self, ctx: &mut Context<Self>, packet: Packet) {
        let address = ctx.address();
        let Some(sio) = self.sio() else { return };
        let Some(ns) = sio
            .sockets
            .iter()
            .find(|s| s.socket.namespace() == packet.nsp)
        else {
            return;
        };
        let Some(Value::Array(mut items)) = packet.data else {
            return;
        };
        if items.is_empty() {
            return;
        }
        let name = match items.remove(0) {
            Value::String(name) => name,
            Value::Number(n) => n.to_string(),
            _ => return,
        };
        let ack = packet
            .id
            .map(|id| AckSender::new(address, ns.socket.nsp_arc(), id));
        let (socket, handler) = (ns.socket.clone(), ns.handler.clone());
        handler.on_event(
            &socket,
            ClientEvent {
                name,
                args: items,
                attachments: packet.attachments,
                ack,
            },
        );
    }

    fn sio_ack(&mut self, packet: Packet) {
        let Some(sio) = self.sio() else { return };
        let Some(id) = packet.id else { return };
        let Some(socket) = sio
            .sockets
            .iter()
            .find(|s| s.socket.namespace() == packet.nsp)
            .map(|s| s.socket.id())
        else {
            return;
        };
        let Some(index) = sio
            .acks
            .iter()
            .position(|(s, ack_id, _)| *s == socket && *ack_id == id)
        else {
            return;
        };
        let Some((_, _, callback)) = sio.acks.remove(index) else {
            return;
        };
        let args = match packet.data {
            Some(Value::Array(args)) => args,
            _ => Vec::new(),
        };
        callback(AckReply {
            args,
            attachments: packet.attachments,
        });
    }

    // ---- upgrade ----------------------------------------------------------------------

    fn abort_upgrade(&mut self, ctx: &mut Context<Self>) {
        if let Some(upgrade) = self.upgrade.take() {
            ctx.cancel_future(upgrade.timer);
            let _ = upgrade.ws.link.push_close(None);
            upgrade.ws.link.shutdown();
        }
    }

    fn on_upgrade_item(&mut self, ctx: &mut Context<Self>, item: WsInbound) {
        let packet = match &item {
            WsInbound::Text(text) => eio::Packet::decode_text(text).ok(),
            _ => None,
        };
        match packet {
            Some(eio::Packet::Ping(data)) if &*data == PROBE => {
                let Some(upgrade) = self.upgrade.as_mut() else {
                    return;
                };
                let pong = eio::Packet::Pong(ByteString::from_static(PROBE)).encode();
                if upgrade.ws.link.push(&[pong]) != Pushed::Sent {
                    self.abort_upgrade(ctx);
                    return;
                }
                upgrade.probed = true;
                if let Transport::Polling(polling) = &mut self.transport {
                    if let Some(waiting) = polling.waiting.take() {
                        let _ = waiting.send(eio::kind::NOOP.to_string());
                    }
                }
            }
            Some(eio::Packet::Upgrade) if self.upgrade.as_ref().is_some_and(|u| u.probed) => {
                self.complete_upgrade(ctx);
            }
            _ => self.abort_upgrade(ctx),
        }
    }

    fn complete_upgrade(&mut self, ctx: &mut Context<Self>) {
        let Some(upgrade) = self.upgrade.take() else {
            return;
        };
        ctx.cancel_future(upgrade.timer);
        let previous = std::mem::replace(&mut self.transport, Transport::WebSocket(upgrade.ws));
        if crate::metrics::enabled() {
            crate::metrics::ONLINE_SOCKETS
                .with_label_values(&[crate::metrics::transport_label(false)])
                .dec();
            crate::metrics::ONLINE_SOCKETS
                .with_label_values(&[crate::metrics::transport_label(true)])
                .inc();
        }
        if let Transport::Polling(mut polling) = previous {
            if let Some(waiting) = polling.waiting.take() {
                let _ = waiting.send(eio::kind::NOOP.to_string());
            }
            let queued: Vec<Frame> = polling.queue.into_iter().collect();
            self.push_frames(ctx, &queued);
        }
        tracing::trace!(sid = %self.sid, "upgraded to {TRANSPORT_WEBSOCKET}");
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
        self.schedule_ping(ctx);
        let connect_timeout = self.engine.config.connect_timeout;
        let address = ctx.address();
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

impl Handler<Deliver> for Session {
    type Result = ();

    fn handle(&mut self, msg: Deliver, ctx: &mut Context<Self>) {
        if !self.closing {
            self.push_frames(ctx, msg.0.frames());
        }
    }
}

impl Handler<Overflowed> for Session {
    type Result = ();

    fn handle(&mut self, _: Overflowed, ctx: &mut Context<Self>) {
        self.overflowed(ctx);
    }
}

impl Handler<FlushLink> for Session {
    type Result = ();

    fn handle(&mut self, _: FlushLink, ctx: &mut Context<Self>) {
        ctx.spawn(WsFlush);
    }
}

impl Handler<DisconnectSocket> for Session {
    type Result = ();

    fn handle(&mut self, msg: DisconnectSocket, ctx: &mut Context<Self>) {
        if self.closing {
            return;
        }
        let nsp = self.sio().and_then(|sio| {
            sio.sockets
                .iter()
                .find(|s| s.socket.id() == msg.socket)
                .map(|s| s.socket.namespace().to_owned())
        });
        if let Some(nsp) = nsp {
            self.push_packet(ctx, &Packet::disconnect(&nsp));
            self.sio_leave(&nsp);
        }
        if msg.close_connection {
            self.close(ctx, CloseBy::ServerFlush, "server disconnect");
        }
    }
}

impl Handler<CloseTransport> for Session {
    type Result = ();

    fn handle(&mut self, _: CloseTransport, ctx: &mut Context<Self>) {
        self.close(ctx, CloseBy::ServerFlush, "forced close");
    }
}

impl Handler<EmitWithAck> for Session {
    type Result = ();

    fn handle(&mut self, msg: EmitWithAck, ctx: &mut Context<Self>) {
        if self.closing {
            return;
        }
        let Some(sio) = self.sio() else { return };
        if !sio.sockets.iter().any(|s| s.socket.id() == msg.socket) {
            return;
        }
        let id = sio.next_ack;
        sio.next_ack += 1;
        if sio.acks.len() >= MAX_PENDING_ACKS {
            sio.acks.pop_front();
        }
        sio.acks.push_back((msg.socket, id, msg.callback));
        let mut packet = msg.packet;
        packet.id = Some(id);
        self.push_packet(ctx, &packet);
    }
}

impl Handler<PollRequest> for Session {
    type Result = ActorResponse<Self, Result<PollReply, EngineError>>;

    fn handle(&mut self, _: PollRequest, ctx: &mut Context<Self>) -> Self::Result {
        if let Some(upgrade) = &self.upgrade {
            let (done, caught_up) = oneshot::channel();
            if upgrade.catch_up.send(done).is_ok() {
                let wait = tokio::time::timeout(CATCH_UP_TIMEOUT, caught_up);
                return ActorResponse::r#async(
                    async move {
                        // A reader gone or slow leaves the session as it is.
                        let _ = wait.await;
                    }
                    .into_actor(self)
                    .map(|(), act, ctx| act.poll(ctx)),
                );
            }
        }
        // Answered at once: a session that stops while answering still answers.
        ActorResponse::reply(self.poll(ctx))
    }
}

impl Session {
    /// Answers a polling GET.
    fn poll(&mut self, ctx: &mut Context<Self>) -> Result<PollReply, EngineError> {
        if self.missed_ping(ctx) {
            return Err(EngineError::UnknownSid);
        }
        let probing = self.upgrade.as_ref().is_some_and(|u| u.probed);
        let closing = self.closing;
        let Transport::Polling(polling) = &mut self.transport else {
            return Err(EngineError::BadRequest);
        };
        if closing {
            let body = polling.take_payload(None);
            if polling.close_after_queue {
                // The queued packets go out now; the next poll gets the close.
                polling.close_after_queue = false;
                polling.queue.push_back(eio::Packet::Noop.encode());
                polling.queue.push_back(eio::Packet::Close.encode());
            } else {
                ctx.stop();
            }
            return Ok(PollReply::Now(body));
        }
        if let Some(waiting) = &polling.waiting {
            if waiting.is_closed() {
                // The previous poll was cancelled; its `PollCancelled` has not come yet.
                self.close(ctx, CloseBy::Server, "cancelled polling request");
                return Err(EngineError::UnknownSid);
            }
            self.close(ctx, CloseBy::Server, "overlapping poll");
            return Err(EngineError::BadRequest);
        }
        if probing {
            return Ok(PollReply::Now(eio::kind::NOOP.to_string()));
        }
        if !polling.queue.is_empty() {
            return Ok(PollReply::Now(polling.take_payload(None)));
        }
        let (tx, rx) = oneshot::channel();
        polling.waiting = Some(tx);
        Ok(PollReply::Later(rx))
    }
}

impl Handler<PollCancelled> for Session {
    type Result = ();

    fn handle(&mut self, _: PollCancelled, ctx: &mut Context<Self>) {
        let Transport::Polling(polling) = &self.transport else {
            return;
        };
        // A poll answered before its request went away left no sender behind; a newer
        // pending poll has an open one.
        if polling.waiting.as_ref().is_some_and(|w| w.is_closed()) {
            self.close(ctx, CloseBy::Server, "cancelled polling request");
        }
    }
}

impl Handler<Post> for Session {
    type Result = Result<(), EngineError>;

    fn handle(&mut self, msg: Post, ctx: &mut Context<Self>) -> Self::Result {
        if !matches!(self.transport, Transport::Polling(_)) {
            return Err(EngineError::BadRequest);
        }
        if self.missed_ping(ctx) {
            return Err(EngineError::UnknownSid);
        }
        if self.closing {
            // As the reference server does: packets to a closing session are dropped.
            return Ok(());
        }
        let packets = match eio::decode_payload(&msg.0) {
            Ok(packets) => packets,
            Err(_) => {
                self.close(ctx, CloseBy::Server, "parse error");
                return Err(EngineError::BadRequest);
            }
        };
        for packet in packets {
            self.on_engine_packet(ctx, packet);
        }
        Ok(())
    }
}

impl Handler<PayloadTooLarge> for Session {
    type Result = ();

    fn handle(&mut self, _: PayloadTooLarge, ctx: &mut Context<Self>) {
        self.close(ctx, CloseBy::Server, "payload too large");
    }
}

impl Handler<UpgradeStart> for Session {
    type Result = Result<(u32, mpsc::UnboundedReceiver<CatchUp>), UpgradeRefused>;

    fn handle(&mut self, msg: UpgradeStart, ctx: &mut Context<Self>) -> Self::Result {
        if self.closing
            || self.upgrade.is_some()
            || !matches!(self.transport, Transport::Polling(_))
        {
            return Err(UpgradeRefused {
                error: EngineError::BadRequest,
                writer: msg.0,
            });
        }
        self.upgrade_attempts += 1;
        let attempt = self.upgrade_attempts;
        let timer = ctx.run_later(UPGRADE_TIMEOUT, |act, ctx| act.abort_upgrade(ctx));
        let (catch_up, requests) = mpsc::unbounded_channel();
        self.upgrade = Some(Box::new(Upgrade {
            ws: Ws::new(msg.0, self.cap(), attempt),
            probed: false,
            timer,
            catch_up,
        }));
        Ok((attempt, requests))
    }
}

impl Handler<UpgradeInbound> for Session {
    type Result = ();

    fn handle(&mut self, msg: UpgradeInbound, ctx: &mut Context<Self>) {
        if self
            .upgrade
            .as_ref()
            .is_some_and(|u| u.ws.attempt == msg.attempt)
        {
            self.on_upgrade_item(ctx, msg.item);
        } else if matches!(&self.transport, Transport::WebSocket(ws) if ws.attempt == msg.attempt) {
            self.on_ws_item(ctx, msg.item);
        }
    }
}

impl Handler<UpgradeEnded> for Session {
    type Result = ();

    fn handle(&mut self, msg: UpgradeEnded, ctx: &mut Context<Self>) {
        if self
            .upgrade
            .as_ref()
            .is_some_and(|u| u.ws.attempt == msg.attempt)
        {
            self.abort_upgrade(ctx);
        } else if matches!(&self.transport, Transport::WebSocket(ws) if ws.attempt == msg.attempt) {
            self.close(ctx, CloseBy::Client, "transport close");
            self.teardown();
            ctx.stop();
        }
    }
}
