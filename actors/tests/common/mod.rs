//! What the test binaries that talk to a real server over TCP share.

// Each test binary that includes this module uses only part of it.
#![allow(dead_code)]

use std::{net::SocketAddr, time::Duration};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    time::{sleep, Instant},
};

/// The request text of `method path_and_query` with `body`, on a connection it closes.
pub fn request_text(method: &str, path_and_query: &str, body: &str) -> String {
    format!(
        "{method} {path_and_query} HTTP/1.1\r\nHost: localhost\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// One request on its own connection; returns the status and the body.
pub async fn http_request(
    addr: SocketAddr,
    method: &str,
    path_and_query: &str,
    body: &str,
) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(request_text(method, path_and_query, body).as_bytes())
        .await
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_owned())
}

/// Waits until `check` holds, checking every 20 ms; fails the test with `what` after `within`.
pub async fn eventually(what: &str, within: Duration, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !check() {
        assert!(Instant::now() < deadline, "{what}");
        sleep(Duration::from_millis(20)).await;
    }
}
