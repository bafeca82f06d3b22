//! The websocket transport over the bare TCP stream: frames, the writer and the link a
//! session and the rooms share, and the reader.
//!
//! actix-http hands a websocket request, with its stream, to the handshake
//! (`socketio::handshake`, the upgrade service that `HttpServer` installs); the HTTP
//! dispatcher and its buffers are gone once the handshake is answered. From then on a
//! connection holds its socket and the session state: frames are written straight to the
//! socket (a session's own frames with `writev`, header on the stack and payload shared; a
//! broadcast encoded once, header included, since unmasked server frames are the same bytes
//! for every recipient), and a per-connection buffer exists only while a frame waits for the
//! socket (writes) or while a frame has arrived in part (reads).

use std::{
    collections::VecDeque,
    io::{self, IoSlice, Read as _},
    net::Shutdown,
    pin::Pin,
    sync::{Arc, Mutex, MutexGuard},
    task::{Context, Poll},
};

use actix_codec::Decoder;
use actix_http::ws;
use bytes::{Buf, Bytes, BytesMut};
use bytestring::ByteString;
use futures_util::Stream;
use tokio::{net::TcpStream, sync::oneshot};

use super::eio::Frame;

const FIN: u8 = 0x80;
const OP_TEXT: u8 = 0x1;
const OP_BINARY: u8 = 0x2;
pub(crate) const OP_CLOSE: u8 = 0x8;
const OP_PONG: u8 = 0xA;
/// Longest frame header a server writes (no mask).
pub(crate) const MAX_HEADER: usize = 10;
/// Bytes read from a socket per system call, into a buffer on the stack.
const READ_CHUNK: usize = 8 * 1024;
/// Frames handed to one `writev` when a backlog drains.
const FLUSH_SLICES: usize = 64;

/// Close code for a policy violation (too slow a reader, too big a message).
pub(crate) const CLOSE_POLICY: u16 = 1008;

/// The header of an unmasked, final frame with `op` and a payload of `len` bytes.
pub(crate) fn frame_header(op: u8, len: usize) -> ([u8; MAX_HEADER], usize) {
    let mut head = [0u8; MAX_HEADER];
    head[0] = FIN | op;
    if let Ok(short) = u8::try_from(len) {
        if short < 126 {
            head[1] = short;
            return (head, 2);
        }
    }
    if let Ok(medium) = u16::try_from(len) {
        head[1] = 126;
        head[2..4].copy_from_slice(&medium.to_be_bytes());
        return (head, 4);
    }
    head[1] = 127;
    head[2..10].copy_from_slice(&(len as u64).to_be_bytes());
    (head, 10)
}

/// A frame the server sends.
pub(crate) enum WsFrame<'a> {
    Text(&'a [u8]),
    Binary(&'a [u8]),
    Pong(&'a [u8]),
    /// A close frame, with a status code and reason when there is one to give.
    Close(Option<(u16, &'a str)>),
    /// A whole frame, header included, from [`encode`]: one encoding serves every recipient.
    Encoded(&'a Bytes),
}

/// The wire form of a data frame, header included.
pub(crate) fn encode(frame: &Frame) -> Bytes {
    let (op, payload): (u8, &[u8]) = match frame {
        Frame::Text(text) => (OP_TEXT, text.as_bytes()),
        Frame::Binary(data) => (OP_BINARY, data),
    };
    let (head, head_len) = frame_header(op, payload.len());
    let mut encoded = BytesMut::with_capacity(head_len + payload.len());
    encoded.extend_from_slice(&head[..head_len]);
    encoded.extend_from_slice(payload);
    encoded.freeze()
}

/// What became of a frame handed to [`WsWriter::send`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Written {
    /// Entirely in the socket.
    Sent,
    /// (Partly) waiting in the backlog: poll [`WsWriter::poll_flush`].
    Queued,
    /// The connection is broken.
    Failed,
}

/// The sending side of a websocket connection.
pub(crate) struct WsWriter {
    io: Arc<TcpStream>,
    /// Encoded frames (the first perhaps partly written) waiting for the socket.
    backlog: VecDeque<Bytes>,
    /// Whether dropping the writer ends the connection.
    owns_connection: bool,
    /// Frames wait in the backlog, whatever the socket would take (see [`Link::hold`]).
    held: bool,
}

impl WsWriter {
    pub(crate) fn new(io: Arc<TcpStream>) -> Self {
        WsWriter {
            io,
            backlog: VecDeque::new(),
            owns_connection: true,
            held: false,
        }
    }

    /// Gives the writer up without ending the connection (a refused upgrade still answers).
    pub(crate) fn release(mut self) {
        self.owns_connection = false;
    }

    /// Frames waiting for the socket.
    pub(crate) fn queued(&self) -> usize {
        self.backlog.len()
    }

    /// Writes a frame now if the socket takes it, else queues the rest of it.
    pub(crate) fn send(&mut self, frame: &WsFrame<'_>) -> Written {
        let mut close = [0u8; 125];
        let (op, payload): (u8, &[u8]) = match frame {
            WsFrame::Encoded(encoded) => return self.send_encoded(encoded),
            WsFrame::Text(data) => (OP_TEXT, data),
            WsFrame::Binary(data) => (OP_BINARY, data),
            WsFrame::Pong(data) => (OP_PONG, data),
            WsFrame::Close(None) => (OP_CLOSE, &[]),
            WsFrame::Close(Some((code, reason))) => {
                // A control frame carries at most 125 bytes: the code and the reason's start.
                let reason = &reason.as_bytes()[..reason.len().min(123)];
                close[..2].copy_from_slice(&code.to_be_bytes());
                close[2..2 + reason.len()].copy_from_slice(reason);
                (OP_CLOSE, &close[..2 + reason.len()])
            }
        };
        let (head, head_len) = frame_header(op, payload.len());
        let head = &head[..head_len];
        let mut written = 0;
        if self.backlog.is_empty() && !self.held {
            match self
                .io
                .try_write_vectored(&[IoSlice::new(head), IoSlice::new(payload)])
            {
                Ok(n) if n == head.len() + payload.len() => return Written::Sent,
                Ok(n) => written = n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return Written::Failed,
            }
        }
        let mut rest = BytesMut::with_capacity(head.len() + payload.len());
        rest.extend_from_slice(head);
        rest.extend_from_slice(payload);
        rest.advance(written);
        self.backlog.push_back(rest.freeze());
        Written::Queued
    }

    /// Writes an encoded frame: one `write`, and what the socket does not take is queued
    /// without a copy.
    fn send_encoded(&mut self, encoded: &Bytes) -> Written {
        let mut written = 0;
        if self.backlog.is_empty() && !self.held {
            match self.io.try_write(encoded) {
                Ok(n) if n == encoded.len() => return Written::Sent,
                Ok(n) => written = n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return Written::Failed,
            }
        }
        self.backlog.push_back(encoded.slice(written..));
        Written::Queued
    }

    /// Writes the backlog as the socket accepts it; ready when it is empty.
    pub(crate) fn poll_flush(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        loop {
            if self.backlog.is_empty() {
                // Give the queue's memory back: an idle connection holds no buffer.
                self.backlog = VecDeque::new();
                return Poll::Ready(Ok(()));
            }
            if self.held {
                // Released later, with a flush of its own.
                return Poll::Ready(Ok(()));
            }
            match self.io.poll_write_ready(cx) {
                Poll::Ready(Ok(())) => {}
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
            let mut slices = [IoSlice::new(&[]); FLUSH_SLICES];
            let count = self.backlog.len().min(FLUSH_SLICES);
            for (slice, frame) in slices.iter_mut().zip(self.backlog.iter()) {
                *slice = IoSlice::new(frame);
            }
            match self.io.try_write_vectored(&slices[..count]) {
                Ok(0) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Ok(mut n) => {
                    while let Some(front) = self.backlog.front_mut() {
                        if n < front.len() {
                            front.advance(n);
                            break;
                        }
                        n -= front.len();
                        self.backlog.pop_front();
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

impl Drop for WsWriter {
    /// The session is done with the connection: end it, which also ends its reader.
    fn drop(&mut self) {
        if self.owns_connection {
            shutdown(&self.io);
        }
    }
}

/// Ends the connection both ways.
pub(crate) fn shutdown(io: &TcpStream) {
    // The peer may have gone already; there is nothing else to do then.
    let _ = socket2::SockRef::from(io).shutdown(Shutdown::Both);
}

/// What became of frames handed to a [`Link`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pushed {
    /// In the socket.
    Sent,
    /// Behind others that wait for the socket; a flush is under way.
    Queued,
    /// Waiting for the socket: whoever got this starts the session's flush.
    StartFlush,
    /// The backlog is full: the client does not read. The link takes nothing more.
    Overflow,
    /// The link is closed or the connection broken; nothing was sent.
    Closed,
}

struct LinkState {
    writer: WsWriter,
    /// The session is draining the backlog.
    flushing: bool,
    /// Nothing more goes out (the session closed, or the backlog overflowed).
    closed: bool,
}

impl LinkState {
    fn push(&mut self, frame: &WsFrame<'_>, cap: usize) -> Pushed {
        if self.closed {
            return Pushed::Closed;
        }
        if self.writer.queued() >= cap {
            self.closed = true;
            return Pushed::Overflow;
        }
        match self.writer.send(frame) {
            Written::Sent => Pushed::Sent,
            Written::Failed => {
                self.closed = true;
                Pushed::Closed
            }
            Written::Queued if self.flushing || self.writer.held => Pushed::Queued,
            Written::Queued => {
                self.flushing = true;
                Pushed::StartFlush
            }
        }
    }
}

/// The sending side of a websocket connection, shared by its session and the hub: whoever
/// has frames for the client writes them to the socket at once, in order, under one lock;
/// frames the socket does not take wait in a bounded backlog that the session drains.
pub(crate) struct Link {
    state: Mutex<LinkState>,
    /// Frames the backlog may hold.
    cap: usize,
}

impl Link {
    pub(crate) fn new(writer: WsWriter, cap: usize) -> Arc<Self> {
        Arc::new(Link {
            state: Mutex::new(LinkState {
                writer,
                flushing: false,
                closed: false,
            }),
            cap,
        })
    }

    fn lock(&self) -> MutexGuard<'_, LinkState> {
        // A panic while writing leaves the state usable (at worst a frame is lost).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends data frames, in order.
    pub(crate) fn push(&self, frames: &[Frame]) -> Pushed {
        self.push_all(frames.iter().map(|frame| match frame {
            Frame::Text(text) => WsFrame::Text(text.as_bytes()),
            Frame::Binary(data) => WsFrame::Binary(data),
        }))
    }

    /// Sends frames from [`encode`], in order.
    pub(crate) fn push_encoded(&self, frames: &[Bytes]) -> Pushed {
        self.push_all(frames.iter().map(WsFrame::Encoded))
    }

    fn push_all<'f>(&self, frames: impl Iterator<Item = WsFrame<'f>>) -> Pushed {
        let mut state = self.lock();
        let mut outcome = Pushed::Sent;
        for frame in frames {
            match state.push(&frame, self.cap) {
                Pushed::Sent => {}
                Pushed::Queued if outcome == Pushed::Sent => outcome = Pushed::Queued,
                Pushed::Queued => {}
                Pushed::StartFlush => outcome = Pushed::StartFlush,
                refused @ (Pushed::Overflow | Pushed::Closed) => return refused,
            }
        }
        outcome
    }

    /// Sends one frame.
    pub(crate) fn push_frame(&self, frame: &WsFrame<'_>) -> Pushed {
        self.lock().push(frame, self.cap)
    }

    /// Keeps what is pushed next in the backlog, in order, until [`Link::release`]: the
    /// frames that follow go out in a later write than the ones before, so that a client that
    /// handles one read at a time sees them apart (see [`super::session::CONNECT_SETTLE`]).
    pub(crate) fn hold(&self) {
        self.lock().writer.held = true;
    }

    /// Ends a [`Link::hold`]: `StartFlush` when frames wait for the session's flush.
    pub(crate) fn release(&self) -> Pushed {
        let mut state = self.lock();
        state.writer.held = false;
        if state.closed || state.flushing || state.writer.queued() == 0 {
            return Pushed::Sent;
        }
        state.flushing = true;
        Pushed::StartFlush
    }

    /// Sends a close frame; nothing goes out after it.
    pub(crate) fn push_close(&self, reason: Option<(u16, &str)>) -> Pushed {
        let mut state = self.lock();
        // The close is the last frame: whatever was held goes out before it.
        state.writer.held = false;
        let pushed = state.push(&WsFrame::Close(reason), self.cap);
        state.closed = true;
        pushed
    }

    /// Whether a flush is under way.
    pub(crate) fn flushing(&self) -> bool {
        self.lock().flushing
    }

    /// Drains the backlog; ready (and no longer flushing) once it is empty.
    pub(crate) fn poll_flush(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut state = self.lock();
        let polled = state.writer.poll_flush(cx);
        if polled.is_ready() {
            state.flushing = false;
        }
        polled
    }

    /// Ends the connection now, whatever still waits.
    pub(crate) fn shutdown(&self) {
        let mut state = self.lock();
        state.closed = true;
        shutdown(&state.writer.io);
    }
}

/// A message received on a websocket.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum WsInbound {
    Text(ByteString),
    Binary(Bytes),
    Ping(Bytes),
    /// The client closed the connection (close frame, end of stream or a broken socket).
    Closed,
    /// A message over `maxPayload`.
    TooBig,
    /// A malformed frame (unmasked, bad opcode, text that is not UTF-8, ...).
    Invalid,
}

impl WsInbound {
    /// Whether this is the last item of the stream.
    pub(crate) fn is_last(&self) -> bool {
        matches!(
            self,
            WsInbound::Closed | WsInbound::TooBig | WsInbound::Invalid
        )
    }
}

/// The receiving side of a websocket connection: a stream of messages, continuations
/// joined, ending after its first [`WsInbound::is_last`] item.
pub(crate) struct WsReader {
    io: Arc<TcpStream>,
    /// Received bytes not decoded yet; without capacity while nothing waits.
    buf: BytesMut,
    codec: ws::Codec,
    /// A fragmented message being joined: whether it is text, and its data so far.
    partial: Option<(bool, BytesMut)>,
    max: usize,
    done: bool,
    /// The socket reached its end during [`WsReader::read_available`].
    eof: bool,
}

impl WsReader {
    /// Reads `io`, starting with `early` (bytes that came with the handshake request).
    pub(crate) fn new(io: Arc<TcpStream>, early: BytesMut, max_payload: usize) -> Self {
        WsReader {
            io,
            buf: early,
            codec: ws::Codec::new().max_size(max_payload),
            partial: None,
            max: max_payload,
            done: false,
            eof: false,
        }
    }

    /// Reads what the socket already holds, at once and whatever the reactor has seen so
    /// far: the items that follow include every byte that reached the socket before this
    /// call.
    pub(crate) fn read_available(&mut self) {
        if self.done || self.eof {
            return;
        }
        let socket = socket2::SockRef::from(&*self.io);
        let mut chunk = [0u8; READ_CHUNK];
        loop {
            match (&*socket).read(&mut chunk) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    continue;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => self.eof = true,
            }
            return;
        }
    }

    fn text(data: Bytes) -> WsInbound {
        ByteString::try_from(data).map_or(WsInbound::Invalid, WsInbound::Text)
    }

    fn continuation(&mut self, item: ws::Item) -> Option<WsInbound> {
        let (first, data, last) = match item {
            ws::Item::FirstText(data) => (Some(true), data, false),
            ws::Item::FirstBinary(data) => (Some(false), data, false),
            ws::Item::Continue(data) => (None, data, false),
            ws::Item::Last(data) => (None, data, true),
        };
        match (first, &mut self.partial) {
            (Some(text), None) => self.partial = Some((text, BytesMut::from(&data[..]))),
            (None, Some((_, joined))) => {
                if joined.len() + data.len() > self.max {
                    return Some(WsInbound::TooBig);
                }
                joined.extend_from_slice(&data);
            }
            _ => return Some(WsInbound::Invalid),
        }
        if !last {
            return None;
        }
        let (text, joined) = self.partial.take()?;
        let joined = joined.freeze();
        Some(if text {
            Self::text(joined)
        } else {
            WsInbound::Binary(joined)
        })
    }

    fn on_frame(&mut self, frame: ws::Frame) -> Option<WsInbound> {
        match frame {
            ws::Frame::Text(data) if self.partial.is_none() => Some(Self::text(data)),
            ws::Frame::Binary(data) if self.partial.is_none() => Some(WsInbound::Binary(data)),
            ws::Frame::Text(_) | ws::Frame::Binary(_) => Some(WsInbound::Invalid),
            ws::Frame::Continuation(item) => self.continuation(item),
            ws::Frame::Ping(data) => Some(WsInbound::Ping(data)),
            ws::Frame::Pong(_) => None,
            ws::Frame::Close(_) => Some(WsInbound::Closed),
        }
    }

    fn finish(&mut self, item: WsInbound) -> Poll<Option<WsInbound>> {
        if item.is_last() {
            self.done = true;
            self.buf = BytesMut::new();
            self.partial = None;
        }
        Poll::Ready(Some(item))
    }
}

impl Stream for WsReader {
    type Item = WsInbound;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<WsInbound>> {
        let this = self.get_mut();
        loop {
            if this.done {
                return Poll::Ready(None);
            }
            if !this.buf.is_empty() {
                match this.codec.decode(&mut this.buf) {
                    Ok(Some(frame)) => {
                        if let Some(item) = this.on_frame(frame) {
                            return this.finish(item);
                        }
                        continue;
                    }
                    Ok(None) => {}
                    Err(ws::ProtocolError::Overflow) => return this.finish(WsInbound::TooBig),
                    Err(_) => return this.finish(WsInbound::Invalid),
                }
            }
            if this.eof {
                return this.finish(WsInbound::Closed);
            }
            if this.buf.is_empty() && this.buf.capacity() > 0 {
                // Give the memory back: an idle connection holds no buffer.
                this.buf = BytesMut::new();
            }
            match this.io.poll_read_ready(cx) {
                Poll::Ready(Ok(())) => {}
                Poll::Ready(Err(_)) => return this.finish(WsInbound::Closed),
                Poll::Pending => return Poll::Pending,
            }
            let mut chunk = [0u8; READ_CHUNK];
            match this.io.try_read(&mut chunk) {
                Ok(0) => return this.finish(WsInbound::Closed),
                Ok(n) => this.buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return this.finish(WsInbound::Closed),
            }
        }
    }
}

/// Asks an upgrade's reader to hand its session everything that reached the socket so far;
/// answered once the session has handled it.
pub(crate) type CatchUp = oneshot::Sender<()>;

#[cfg(test)]
mod tests;
