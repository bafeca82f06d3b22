//! The websocket handshake: the upgrade service that `HttpServer` installs answers a
//! websocket request for one of its endpoints, then hands the connection to a new session or,
//! with a `sid`, to the polling session it upgrades (through a reader task); refusals get the
//! engine's error bodies.

use std::{io, net::Shutdown, sync::Arc, time::Duration};

use actix::Addr;
use actix_codec::Framed;
use actix_http::{h1, header, ws, Request, StatusCode};
use bytes::BytesMut;
use futures_util::{FutureExt as _, StreamExt};
use tokio::{net::TcpStream, sync::mpsc};

use super::{
    engine::{Engine, EngineError},
    session::{
        upgrade::{UpgradeEnded, UpgradeInbound, UpgradeStart},
        Session,
    },
    transport::{handshake_token, EngineQuery},
    websocket::{frame_header, shutdown, CatchUp, WsInbound, WsReader, WsWriter, OP_CLOSE},
};

/// How long answering the handshake request may take.
const HANDSHAKE_WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// The upgrade service: answers a websocket request for one of `engines`' paths and hands
/// the connection to its session, or refuses it with the engine's error body.
pub(crate) async fn accept(
    engines: Arc<[Arc<Engine<Session>>]>,
    req: Request,
    framed: Framed<TcpStream, h1::Codec>,
) -> Result<(), actix_http::Error> {
    let parts = framed.into_parts();
    // Bytes a client sent right after its request belong to the websocket; the dispatcher's
    // buffers themselves are dropped here.
    let early = BytesMut::from(&parts.read_buf[..]);
    let io = Arc::new(parts.io);
    drop(parts.read_buf);
    drop(parts.write_buf);

    let path = req.path().trim_end_matches('/');
    let Some(engine) = engines
        .iter()
        .find(|e| e.config.path.trim_end_matches('/') == path)
    else {
        refuse(&io, StatusCode::NOT_FOUND, "text/plain", "Not Found").await;
        return Ok(());
    };
    if let Err(error) = admit(engine, io.clone(), early, &req).await {
        let body = error.body();
        refuse(&io, error.status(), "application/json", &body).await;
    }
    Ok(())
}

async fn admit(
    engine: &Arc<Engine<Session>>,
    io: Arc<TcpStream>,
    early: BytesMut,
    req: &Request,
) -> Result<(), EngineError> {
    let query = EngineQuery::parse(req.uri().query().unwrap_or_default())?;
    if !query.websocket {
        // A polling request that also asked for a websocket upgrade.
        return Err(EngineError::BadRequest);
    }
    ws::verify_handshake(req.head()).map_err(|_| EngineError::BadRequest)?;
    let accept_key = req
        .head()
        .headers()
        .get(header::SEC_WEBSOCKET_KEY)
        .map(|key| ws::hash_key(key.as_bytes()))
        .ok_or(EngineError::BadRequest)?;
    // Small frames go out at once (Engine.IO packets are small and latency matters).
    let _ = io.set_nodelay(true);
    let max = engine.config.max_payload;
    match query.sid {
        None => {
            let token = handshake_token(req.head().headers());
            switch_protocols(&io, &accept_key).await?;
            let reader = WsReader::new(io.clone(), early, max);
            Session::start_websocket(engine.clone(), token, WsWriter::new(io), reader);
            Ok(())
        }
        Some(sid) => {
            let session = engine.find(&sid).ok_or(EngineError::UnknownSid)?;
            let (attempt, catch_up) =
                match session.send(UpgradeStart(WsWriter::new(io.clone()))).await {
                    Ok(Ok(started)) => started,
                    Ok(Err(refused)) => {
                        // Closing the connection with the writer would lose the answer.
                        refused.writer.release();
                        if refused.error == EngineError::BadRequest {
                            // Already upgraded or upgrading: the reference server accepts the
                            // websocket and closes it at once, which clients see as a close.
                            switch_protocols(&io, &accept_key).await?;
                            close_at_once(&io).await;
                            return Ok(());
                        }
                        return Err(refused.error);
                    }
                    Err(_) => return Err(EngineError::UnknownSid),
                };
            switch_protocols(&io, &accept_key).await?;
            spawn_upgrade_reader(session, attempt, WsReader::new(io, early, max), catch_up);
            Ok(())
        }
    }
}

/// Reads an upgrade's websocket and forwards what arrives to its session, which may live on
/// another thread than this connection. On a [`CatchUp`] it first reads what the socket
/// already holds and forwards it, then answers: the session can so handle a polling request
/// after the websocket packets that arrived before it, whatever the threads' timing.
fn spawn_upgrade_reader(
    session: Addr<Session>,
    attempt: u32,
    mut reader: WsReader,
    mut catch_up: mpsc::UnboundedReceiver<CatchUp>,
) {
    actix_rt::spawn(async move {
        let mut catching_up = true;
        loop {
            let item = tokio::select! {
                biased;
                request = catch_up.recv(), if catching_up => {
                    let Some(done) = request else {
                        // The upgrade is over: nothing will ask again.
                        catching_up = false;
                        continue;
                    };
                    reader.read_available();
                    while let Some(Some(item)) = reader.next().now_or_never() {
                        let last = item.is_last();
                        if !forward(&session, attempt, item).await {
                            return;
                        }
                        if last {
                            session.do_send(UpgradeEnded { attempt });
                            let _ = done.send(());
                            return;
                        }
                    }
                    let _ = done.send(());
                    continue;
                }
                item = reader.next() => item,
            };
            let Some(item) = item else { break };
            let last = item.is_last();
            if !forward(&session, attempt, item).await {
                return;
            }
            if last {
                break;
            }
        }
        session.do_send(UpgradeEnded { attempt });
    });
}

/// Hands one item to the session and waits until it was handled; false if the session is
/// gone.
async fn forward(session: &Addr<Session>, attempt: u32, item: WsInbound) -> bool {
    session.send(UpgradeInbound { attempt, item }).await.is_ok()
}

async fn switch_protocols(io: &TcpStream, accept_key: &[u8]) -> Result<(), EngineError> {
    let mut response = Vec::with_capacity(160);
    response.extend_from_slice(
        b"HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\nsec-websocket-accept: ",
    );
    response.extend_from_slice(accept_key);
    response.extend_from_slice(b"\r\n\r\n");
    // A client gone before the answer has nothing left to refuse.
    write_all(io, &response)
        .await
        .map_err(|_| EngineError::BadRequest)
}

/// Sends a close frame on a websocket just accepted, then waits (briefly) for the client to
/// end the connection, so that the close frame is read rather than cut by a reset.
async fn close_at_once(io: &TcpStream) {
    let (head, len) = frame_header(OP_CLOSE, 0);
    if write_all(io, &head[..len]).await.is_ok() {
        let _ = socket2::SockRef::from(io).shutdown(Shutdown::Write);
        let drain = async {
            let mut buf = [0u8; 256];
            loop {
                if io.readable().await.is_err() {
                    return;
                }
                match io.try_read(&mut buf) {
                    Ok(0) => return,
                    Ok(_) => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    Err(_) => return,
                }
            }
        };
        let _ = tokio::time::timeout(HANDSHAKE_WRITE_TIMEOUT, drain).await;
    }
    shutdown(io);
}

/// Answers with an HTTP error and closes the connection.
async fn refuse(io: &TcpStream, status: StatusCode, content_type: &str, body: &str) {
    let response = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        status.as_u16(),
        status.canonical_reason().unwrap_or_default(),
        body.len(),
    );
    let _ = write_all(io, response.as_bytes()).await;
    shutdown(io);
}

async fn write_all(io: &TcpStream, mut data: &[u8]) -> io::Result<()> {
    let write = async {
        while !data.is_empty() {
            io.writable().await?;
            match io.try_write(data) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => data = &data[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    };
    tokio::time::timeout(HANDSHAKE_WRITE_TIMEOUT, write)
        .await
        .unwrap_or_else(|_| Err(io::ErrorKind::TimedOut.into()))
}
