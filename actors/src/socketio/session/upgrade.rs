//! The upgrade of a polling session to a websocket: the probe, the `upgrade` packet, and the
//! end of an attempt.

use actix::{ActorContext, AsyncContext, Context, Handler, Message};
use bytestring::ByteString;
use tokio::sync::mpsc;

use super::{CloseBy, Session, Transport, Upgrade, Ws, PROBE, UPGRADE_TIMEOUT};
use crate::socketio::{
    eio::{self, Frame},
    engine::{EngineError, TRANSPORT_WEBSOCKET},
    websocket::{CatchUp, Pushed, WsInbound, WsWriter},
};

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

impl Session {
    pub(super) fn abort_upgrade(&mut self, ctx: &mut Context<Self>) {
        if let Some(upgrade) = self.upgrade.take() {
            ctx.cancel_future(upgrade.timer);
            let _ = upgrade.ws.link.push_close(None);
            upgrade.ws.link.shutdown();
        }
    }

    pub(super) fn on_upgrade_item(&mut self, ctx: &mut Context<Self>, item: WsInbound) {
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

    pub(super) fn complete_upgrade(&mut self, ctx: &mut Context<Self>) {
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
