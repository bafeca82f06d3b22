//! The long-polling side of a session: polls (answered now, later, or after an upgrade's
//! websocket caught up), posted payloads and their refusals.

use actix::{ActorContext, ActorFutureExt, ActorResponse, Context, Handler, Message, WrapFuture};
use bytestring::ByteString;
use tokio::sync::oneshot;

use super::{CloseBy, Session, Transport, CATCH_UP_TIMEOUT};
use crate::socketio::{eio, engine::EngineError};

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
