//! `GET /metrics`: this node's metrics in the Prometheus text format. Served to loopback and to
//! `metrics.trusted` addresses connecting directly (a request that came through a proxy, with
//! `X-Forwarded-For` or `Forwarded`, is not "directly", whatever its peer), and to any request
//! with `Authorization: Bearer <metrics.token>` when a token is set. Everyone else gets the same
//! 404 as an unknown path, so the endpoint is not advertised.

use std::net::IpAddr;

use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use secrecy::ExposeSecret;

use crate::error::json_error;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn metrics(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if !allowed(&req, &state) {
        return json_error(StatusCode::NOT_FOUND, "not_found", "Not found");
    }
    crate::services::gauges::refresh(&state).await;
    let (body, content_type) = crate::metrics::render();
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body)
}

fn allowed(req: &HttpRequest, state: &AppState) -> bool {
    let token = state.settings.metrics.token.expose_secret();
    if !token.is_empty() {
        let offered = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let v = v.trim();
                (v.len() > 7 && v[..7].eq_ignore_ascii_case("bearer ")).then(|| v[7..].trim())
            });
        if offered.is_some_and(|offered| same_secret(offered.as_bytes(), token.as_bytes())) {
            return true;
        }
    }
    let proxied = req.headers().contains_key("x-forwarded-for")
        || req.headers().contains_key(header::FORWARDED);
    if proxied {
        return false;
    }
    let Some(peer) = req.peer_addr().map(|a| a.ip()) else {
        return false;
    };
    trusted_peer(peer, &state.settings.metrics.trusted)
}

/// Whether a direct peer may read the metrics without the token.
fn trusted_peer(peer: IpAddr, trusted: &[String]) -> bool {
    let peer = match peer {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(peer, IpAddr::V4),
        v4 => v4,
    };
    peer.is_loopback()
        || trusted
            .iter()
            .filter_map(|t| t.parse::<IpAddr>().ok())
            .any(|t| t == peer)
}

/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_and_listed_addresses_are_trusted_and_others_are_not() {
        let trusted = vec!["10.0.0.9".to_string()];
        for (peer, expected) in [
            ("127.0.0.1", true),
            ("::1", true),
            ("::ffff:127.0.0.1", true),
            ("10.0.0.9", true),
            ("::ffff:10.0.0.9", true),
            ("10.0.0.8", false),
            ("192.168.1.1", false),
        ] {
            let ip: IpAddr = peer.parse().unwrap();
            assert_eq!(trusted_peer(ip, &trusted), expected, "peer {peer}");
        }
    }

    #[test]
    fn secrets_match_only_when_equal() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd"));
        assert!(!same_secret(b"abc", b"abcd"));
    }
}
