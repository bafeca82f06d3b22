//! The Socket.IO side of a session: namespaces (connect with authentication, events,
//! disconnect) and acknowledgements both ways.

use std::sync::Arc;

use actix::{ActorFutureExt, AsyncContext, Context, WrapFuture};
use serde_json::Value;

use super::{
    AppState, CloseBy, NsSocket, Session, SioState, Transport, CONNECT_SETTLE, MAX_PENDING_ACKS,
};
use crate::{
    auth::Identity,
    socketio::{
        ids::SocketId,
        mailbox::{AckCallback, AckReply},
        namespace::{AckSender, ClientEvent, NamespaceHandler, RawMessage, Socket},
        rooms::{Register, Unregister},
        sio::{Packet, PacketType},
    },
};

impl Session {
    pub(super) fn on_message(&mut self, ctx: &mut Context<Self>, message: RawMessage) {
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

    pub(super) fn sio(&mut self) -> Option<&mut SioState> {
        match &mut self.app {
            AppState::Sio(sio) => Some(sio),
            AppState::Raw { .. } => None,
        }
    }

    pub(super) fn on_sio_packet(&mut self, ctx: &mut Context<Self>, packet: Packet) {
        match packet.kind {
            PacketType::Connect => self.sio_connect(ctx, packet.nsp, packet.data),
            PacketType::Disconnect => self.sio_leave(&packet.nsp),
            PacketType::Event | PacketType::BinaryEvent => self.sio_event(ctx, packet),
            PacketType::Ack | PacketType::BinaryAck => self.sio_ack(packet),
            PacketType::ConnectError => {}
        }
    }

    pub(super) fn sio_connect(
        &mut self,
        ctx: &mut Context<Self>,
        nsp: String,
        data: Option<Value>,
    ) {
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

    pub(super) fn finish_connect(
        &mut self,
        ctx: &mut Context<Self>,
        nsp: String,
        handler: Arc<dyn NamespaceHandler>,
        identity: Option<Identity>,
        auth: Value,
    ) {
        let address = ctx.address().recipient();
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
    pub(super) fn sio_leave(&mut self, nsp: &str) {
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

    pub(super) fn sio_event(&mut self, ctx: &mut Context<Self>, packet: Packet) {
        let address = ctx.address().recipient();
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

    pub(super) fn sio_ack(&mut self, packet: Packet) {
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

    /// Leaves a namespace with a DISCONNECT packet (a socket handle or the rooms asked), and
    /// closes the connection too when asked.
    pub(super) fn disconnect_socket(
        &mut self,
        ctx: &mut Context<Self>,
        socket: SocketId,
        close_connection: bool,
    ) {
        if self.closing {
            return;
        }
        let nsp = self.sio().and_then(|sio| {
            sio.sockets
                .iter()
                .find(|s| s.socket.id() == socket)
                .map(|s| s.socket.namespace().to_owned())
        });
        if let Some(nsp) = nsp {
            self.push_packet(ctx, &Packet::disconnect(&nsp));
            self.sio_leave(&nsp);
        }
        if close_connection {
            self.close(ctx, CloseBy::ServerFlush, "server disconnect");
        }
    }

    /// Emits an event and remembers the callback for its ACK.
    pub(super) fn emit_with_ack(
        &mut self,
        ctx: &mut Context<Self>,
        socket: SocketId,
        packet: Packet,
        callback: AckCallback,
    ) {
        if self.closing {
            return;
        }
        let Some(sio) = self.sio() else { return };
        if !sio.sockets.iter().any(|s| s.socket.id() == socket) {
            return;
        }
        let id = sio.next_ack;
        sio.next_ack += 1;
        if sio.acks.len() >= MAX_PENDING_ACKS {
            sio.acks.pop_front();
        }
        sio.acks.push_back((socket, id, callback));
        let mut packet = packet;
        packet.id = Some(id);
        self.push_packet(ctx, &packet);
    }
}
