//! The client's address: the connection's peer, or `X-Forwarded-For` when the peer is a
//! configured proxy.

use std::net::IpAddr;

use actix_web::HttpRequest;

/// The address a request comes from. `X-Forwarded-For` is read right to left, skipping trusted
/// proxies, and only when the direct peer is itself trusted.
pub fn client_ip(req: &HttpRequest, trusted: &[IpAddr]) -> Option<IpAddr> {
    let peer = req.peer_addr().map(|a| a.ip())?;
    if !trusted.contains(&peer) {
        return Some(peer);
    }
    let forwarded = req
        .headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    forwarded_client(forwarded, trusted).or(Some(peer))
}

/// The rightmost address in a forwarded chain that is not a trusted proxy.
pub fn forwarded_client(header: &str, trusted: &[IpAddr]) -> Option<IpAddr> {
    header
        .split(',')
        .rev()
        .filter_map(|part| part.trim().parse::<IpAddr>().ok())
        .find(|ip| !trusted.contains(ip))
}

/// The address as a rate-limit key ("unknown" when the peer is not known).
pub fn client_key(req: &HttpRequest, trusted: &[IpAddr]) -> String {
    client_ip(req, trusted)
        .map(|ip| ip.to_string())
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rightmost_untrusted_address_is_the_client() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        assert_eq!(
            forwarded_client("1.2.3.4, 5.6.7.8, 10.0.0.1", &[proxy]),
            Some("5.6.7.8".parse().unwrap())
        );
        assert_eq!(forwarded_client("garbage", &[proxy]), None);
    }
}
