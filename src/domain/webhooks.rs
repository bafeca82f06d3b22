//! Webhooks as the Standard Webhooks specification describes them: event types, `whsec_`
//! secrets, the `v1` signature of `id.timestamp.body`, and which addresses an endpoint may have.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::net::IpAddr;

/// An event type, who may subscribe to it and what it says.
#[derive(Debug, Clone, Copy)]
pub struct EventType {
    pub name: &'static str,
    pub about: &'static str,
    /// Only site-wide (administrators') endpoints receive it.
    pub admin: bool,
}

pub const EVENT_TYPES: [EventType; 10] = [
    EventType {
        name: "post.published",
        about: "A post was published.",
        admin: false,
    },
    EventType {
        name: "post.updated",
        about: "A published post was edited.",
        admin: false,
    },
    EventType {
        name: "post.unpublished",
        about: "A published post went back to draft.",
        admin: false,
    },
    EventType {
        name: "post.deleted",
        about: "A post was deleted.",
        admin: false,
    },
    EventType {
        name: "comment.created",
        about: "Someone commented on a post.",
        admin: false,
    },
    EventType {
        name: "follower.created",
        about: "Someone followed the writer.",
        admin: false,
    },
    EventType {
        name: "subscription.created",
        about: "A reader subscribed to a plan.",
        admin: false,
    },
    EventType {
        name: "subscription.cancelled",
        about: "A subscription was cancelled.",
        admin: false,
    },
    EventType {
        name: "tip.received",
        about: "A reader tipped a post.",
        admin: false,
    },
    EventType {
        name: "member.deleted",
        about: "An account was deleted (site-wide endpoints).",
        admin: true,
    },
];

pub fn event_type(name: &str) -> Option<&'static EventType> {
    EVENT_TYPES.iter().find(|e| e.name == name)
}

/// A new secret: `whsec_` and 24 random bytes in base64.
pub fn new_secret() -> String {
    use rand::RngCore;
    let mut raw = [0u8; 24];
    rand::thread_rng().fill_bytes(&mut raw);
    format!("whsec_{}", B64.encode(raw))
}

/// The `v1,<base64>` signature of a message under `secret` (a `whsec_` secret).
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = B64.decode(secret.strip_prefix("whsec_")?).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{id}.{timestamp}.{body}").as_bytes());
    Some(format!("v1,{}", B64.encode(mac.finalize().into_bytes())))
}

/// Whether an address is one an endpoint may be reached at in production: not loopback,
/// private, link-local (the cloud metadata address among them), shared, documentation,
/// multicast, broadcast or unspecified.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (64..128).contains(&o[1]))
                || (o[0] == 192 && o[1] == 0 && o[2] == 0)
                || (o[0] == 198 && (o[1] & 0xfe) == 18)
                || o[0] >= 240)
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            // Forms that carry an IPv4 address are judged by it: mapped (::ffff:a.b.c.d),
            // compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002:a.b.c.d::/48).
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let tail = std::net::Ipv4Addr::new(
                (s[6] >> 8) as u8,
                s[6] as u8,
                (s[7] >> 8) as u8,
                s[7] as u8,
            );
            if s[..6] == [0; 6] && !v6.is_loopback() && !v6.is_unspecified() {
                return is_public(IpAddr::V4(tail));
            }
            if s[0] == 0x0064 && s[1] == 0xff9b && s[2..6] == [0; 4] {
                return is_public(IpAddr::V4(tail));
            }
            if s[0] == 0x2002 {
                let inner = std::net::Ipv4Addr::new(
                    (s[1] >> 8) as u8,
                    s[1] as u8,
                    (s[2] >> 8) as u8,
                    s[2] as u8,
                );
                return is_public(IpAddr::V4(inner));
            }
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                || (s[0] & 0xffc0) == 0xfec0
                || (s[0] == 0x2001 && s[1] == 0x0db8))
        }
    }
}

/// `Retry-After` in seconds: a number of seconds, or an HTTP date (RFC 9110) from `now`.
pub fn retry_after_seconds(value: &str, now: chrono::DateTime<chrono::Utc>) -> Option<u64> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(seconds);
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let ahead = at.with_timezone(&chrono::Utc) - now;
    Some(u64::try_from(ahead.num_seconds()).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_the_specifications() {
        // The example of the Standard Webhooks specification's reference libraries.
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).unwrap(),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
        assert!(new_secret().starts_with("whsec_"));
    }

    #[test]
    fn only_public_addresses_pass() {
        for bad in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::127.0.0.1",
            "::10.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::7f00:1",
            "2002:7f00:1::",
            "2002:c0a8:101::1",
            "fec0::1",
            "198.18.0.1",
            "198.19.255.254",
        ] {
            assert!(!is_public(bad.parse().unwrap()), "{bad}");
        }
        for good in [
            "93.184.216.34",
            "2606:2800:220:1:248:1893:25c8:1946",
            "64:ff9b::5db8:d822",
            "2002:5db8:d822::1",
            "198.20.0.1",
        ] {
            assert!(is_public(good.parse().unwrap()), "{good}");
        }
    }

    #[test]
    fn retry_after_is_read_in_seconds_or_as_a_date() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-30T08:00:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        assert_eq!(retry_after_seconds(" 120 ", now), Some(120));
        assert_eq!(
            retry_after_seconds("Mon, 30 Nov 2026 08:10:00 GMT", now),
            Some(600)
        );
        assert_eq!(
            retry_after_seconds("Sun, 06 Nov 1994 08:49:37 GMT", now),
            Some(0)
        );
        assert_eq!(retry_after_seconds("soon", now), None);
    }
}
