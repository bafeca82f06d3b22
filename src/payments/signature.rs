//! The `Stripe-Signature` header of webhook events: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
//! "<t>.<body>" keyed with the endpoint secret>` (several `v1` entries while a secret is rolled).
//! An event is accepted when one `v1` matches (compared in constant time) and `t` is within the
//! tolerance of now.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Why a signature was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("Missing Stripe-Signature header")]
    Missing,
    #[error("Malformed Stripe-Signature header")]
    Malformed,
    #[error("Webhook signature does not match")]
    Mismatch,
    #[error("Webhook timestamp is outside the tolerance")]
    Stale,
}

fn mac(secret: &str, timestamp: i64, body: &[u8]) -> HmacSha256 {
    // HMAC takes keys of any length.
    #[allow(clippy::expect_used)]
    let mut mac = HmacSha256::new_from_slice(secret.as_bytes()).expect("HMAC accepts any key");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The header value Stripe would send for `body` at `timestamp` (used by tests and tools).
pub fn sign(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let digest = mac(secret, timestamp, body).finalize().into_bytes();
    format!("t={timestamp},v1={}", hex::encode(digest))
}

/// Checks `header` for `body` against `secret` at time `now` (unix seconds).
pub fn verify(
    header: Option<&str>,
    body: &[u8],
    secret: &str,
    now: i64,
    tolerance_seconds: i64,
) -> Result<(), SignatureError> {
    let header = header
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .ok_or(SignatureError::Missing)?;
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        let Some((key, value)) = part.trim().split_once('=') else {
            return Err(SignatureError::Malformed);
        };
        match key {
            "t" => {
                timestamp = Some(
                    value
                        .parse::<i64>()
                        .map_err(|_| SignatureError::Malformed)?,
                )
            }
            "v1" => signatures.push(hex::decode(value).map_err(|_| SignatureError::Malformed)?),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(SignatureError::Malformed)?;
    if signatures.is_empty() {
        return Err(SignatureError::Malformed);
    }
    let matches = signatures
        .iter()
        .any(|sig| mac(secret, timestamp, body).verify_slice(sig).is_ok());
    if !matches {
        return Err(SignatureError::Mismatch);
    }
    if (now - timestamp).abs() > tolerance_seconds {
        return Err(SignatureError::Stale);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test_secret";
    const BODY: &[u8] = br#"{"id":"evt_1","type":"payment_intent.succeeded"}"#;
    const NOW: i64 = 1_700_000_000;

    #[test]
    fn a_fresh_signature_of_the_body_is_accepted() {
        let header = sign(SECRET, NOW - 10, BODY);
        assert_eq!(verify(Some(&header), BODY, SECRET, NOW, 300), Ok(()));
    }

    #[test]
    fn a_signature_among_several_is_enough() {
        let good = sign(SECRET, NOW, BODY);
        let header = format!("{},v1={},v0=abc", good, "00".repeat(32));
        assert_eq!(verify(Some(&header), BODY, SECRET, NOW, 300), Ok(()));
    }

    #[test]
    fn another_secret_or_another_body_is_a_mismatch() {
        let header = sign("whsec_other", NOW, BODY);
        assert_eq!(
            verify(Some(&header), BODY, SECRET, NOW, 300),
            Err(SignatureError::Mismatch)
        );
        let header = sign(SECRET, NOW, BODY);
        assert_eq!(
            verify(Some(&header), b"{}", SECRET, NOW, 300),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn an_event_older_than_five_minutes_is_stale() {
        let header = sign(SECRET, NOW - 301, BODY);
        assert_eq!(
            verify(Some(&header), BODY, SECRET, NOW, 300),
            Err(SignatureError::Stale)
        );
        let header = sign(SECRET, NOW + 301, BODY);
        assert_eq!(
            verify(Some(&header), BODY, SECRET, NOW, 300),
            Err(SignatureError::Stale)
        );
    }

    #[test]
    fn missing_and_malformed_headers_are_named() {
        assert_eq!(
            verify(None, BODY, SECRET, NOW, 300),
            Err(SignatureError::Missing)
        );
        for bad in ["garbage", "t=abc,v1=00", "v1=00", "t=1", "t=1,v1=zz"] {
            assert_eq!(
                verify(Some(bad), BODY, SECRET, NOW, 300),
                Err(SignatureError::Malformed),
                "{bad}"
            );
        }
    }
}
