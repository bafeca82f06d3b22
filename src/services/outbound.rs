//! What the server fetches or sends to addresses people give it (webhook endpoints, images and
//! feeds of an import): the host's addresses, looked up once, and the rule that they be public
//! (loopback only where a test setting allows it). Callers pin the connection to the addresses
//! checked, so a name cannot resolve elsewhere between the check and the connection.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use crate::domain::webhooks::is_public;

/// The addresses `host` (a name or an address, brackets allowed) resolves to on `port`; `None`
/// when it does not resolve within five seconds.
pub async fn lookup(host: &str, port: u16) -> Option<Vec<SocketAddr>> {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Some(vec![SocketAddr::new(ip, port)]);
    }
    let found: Vec<SocketAddr> = tokio::time::timeout(
        Duration::from_secs(5),
        tokio::net::lookup_host((host, port)),
    )
    .await
    .ok()?
    .ok()?
    .collect();
    Some(found).filter(|f| !f.is_empty())
}

/// The first of `addrs` that may not be reached: anything but a public address, loopback aside
/// when `loopback_ok`.
pub fn first_refused(addrs: &[SocketAddr], loopback_ok: bool) -> Option<IpAddr> {
    addrs
        .iter()
        .map(SocketAddr::ip)
        .find(|ip| !(is_public(*ip) || (loopback_ok && ip.is_loopback())))
}

/// Whether `host` is written as an address (nothing to pin).
pub fn is_address(host: &str) -> bool {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
        .is_ok()
}
