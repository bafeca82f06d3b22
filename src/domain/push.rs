//! Web Push as the product uses it: what a browser's subscription must hold (RFC 8030 endpoint,
//! RFC 8291 keys), the kinds of push a person can switch, quiet hours in their time zone, and the
//! message a device receives (`{title, body, url, tag, badge}`, at most 4 KB).

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64URL;
use base64::Engine;
use chrono::{DateTime, NaiveTime, Utc};
use serde::{Deserialize, Serialize};

use super::error::DomainError;

pub const MSG_ENDPOINT: &str = "Give the subscription's push endpoint (an https address).";
pub const MSG_ENDPOINT_HTTPS: &str = "The push endpoint must be an https address.";
pub const MSG_P256DH: &str =
    "The subscription's p256dh key must be a 65-byte P-256 point in base64url.";
pub const MSG_AUTH: &str = "The subscription's auth secret must be 16 bytes in base64url.";
pub const MSG_LABEL: &str = "A device label is at most 60 characters.";
pub const MSG_QUIET_HOURS: &str = "Quiet hours need a start and an end as HH:MM.";

/// Longest device label.
pub const LABEL_MAX: usize = 60;
/// Longest endpoint accepted.
pub const ENDPOINT_MAX: usize = 2000;
/// The largest message a push service must accept (RFC 8030 §7.2): the encrypted record adds
/// 86 bytes of header and padding delimiter and 16 of tag, so the plain text stays under this.
pub const PAYLOAD_MAX: usize = 4096 - 103;

/// The refusal to register one more device.
pub fn too_many_devices(max: u64) -> String {
    format!("You can register at most {max} devices. Remove one in Settings first.")
}

/// A browser's subscription, checked: the endpoint's URL and the two keys decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedSubscription {
    pub endpoint: String,
    /// The user agent's ECDH public key (uncompressed point), base64url as given.
    pub p256dh: String,
    /// The 16-byte authentication secret, base64url as given.
    pub auth: String,
    pub label: String,
}

/// Checks a subscription's parts. `insecure_ok`: an `http` endpoint is accepted (tests on
/// loopback); otherwise only `https`.
pub fn check_subscription(
    endpoint: &str,
    p256dh: &str,
    auth: &str,
    label: &str,
    insecure_ok: bool,
) -> Result<CheckedSubscription, DomainError> {
    let endpoint = endpoint.trim();
    if endpoint.is_empty() || endpoint.len() > ENDPOINT_MAX {
        return Err(DomainError::invalid(MSG_ENDPOINT));
    }
    let scheme = endpoint
        .split_once("://")
        .map(|(s, _)| s.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("https") => {}
        Some("http") if insecure_ok => {}
        Some("http") => return Err(DomainError::invalid(MSG_ENDPOINT_HTTPS)),
        _ => return Err(DomainError::invalid(MSG_ENDPOINT)),
    }
    let rest = endpoint.split_once("://").map_or("", |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.is_empty() || authority.contains('@') || endpoint.chars().any(char::is_whitespace)
    {
        return Err(DomainError::invalid(MSG_ENDPOINT));
    }
    let key = decode(p256dh).ok_or_else(|| DomainError::invalid(MSG_P256DH))?;
    if key.len() != 65 || key[0] != 4 {
        return Err(DomainError::invalid(MSG_P256DH));
    }
    let secret = decode(auth).ok_or_else(|| DomainError::invalid(MSG_AUTH))?;
    if secret.len() != 16 {
        return Err(DomainError::invalid(MSG_AUTH));
    }
    let label = label.trim();
    if label.chars().count() > LABEL_MAX {
        return Err(DomainError::invalid(MSG_LABEL));
    }
    Ok(CheckedSubscription {
        endpoint: endpoint.to_string(),
        p256dh: p256dh.trim().to_string(),
        auth: auth.trim().to_string(),
        label: if label.is_empty() {
            "This device".to_string()
        } else {
            label.to_string()
        },
    })
}

/// Decodes base64url with or without padding (browsers send it without).
pub fn decode(value: &str) -> Option<Vec<u8>> {
    B64URL.decode(value.trim().trim_end_matches('=')).ok()
}

/// What a push is about, each switchable in Settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PushKind {
    /// Comments on one's posts and replies.
    Replies,
    /// Likes of one's posts (batched per post).
    Likes,
    /// New posts by authors one follows with `instant` alerts.
    NewPosts,
    /// Administrators' notices and replies.
    Admin,
    /// Subscriptions, payouts and tips.
    Money,
    /// Banners marked urgent.
    Banners,
}

/// Quiet hours: no push between `start` and `end` (which may run past midnight) in `time_zone`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuietHours {
    pub enabled: bool,
    /// `HH:MM`.
    pub start: String,
    /// `HH:MM`.
    pub end: String,
    /// An IANA time zone (`Europe/Paris`).
    pub time_zone: String,
}

impl Default for QuietHours {
    fn default() -> Self {
        QuietHours {
            enabled: false,
            start: "22:00".into(),
            end: "07:00".into(),
            time_zone: "UTC".into(),
        }
    }
}

impl QuietHours {
    /// Checks the times and the zone.
    pub fn check(&self) -> Result<(), DomainError> {
        parse_time(&self.start)?;
        parse_time(&self.end)?;
        self.time_zone
            .parse::<chrono_tz::Tz>()
            .map_err(|_| DomainError::invalid(format!("Unknown time zone: {}", self.time_zone)))?;
        Ok(())
    }

    /// Whether `at` falls in the quiet hours (never when they are off or unreadable).
    pub fn silences(&self, at: DateTime<Utc>) -> bool {
        if !self.enabled {
            return false;
        }
        let (Ok(start), Ok(end), Ok(zone)) = (
            parse_time(&self.start),
            parse_time(&self.end),
            self.time_zone.parse::<chrono_tz::Tz>(),
        ) else {
            return false;
        };
        let local = at.with_timezone(&zone).time();
        if start <= end {
            start <= local && local < end
        } else {
            local >= start || local < end
        }
    }
}

fn parse_time(value: &str) -> Result<NaiveTime, DomainError> {
    let value = value.trim();
    if value.len() != 5 {
        return Err(DomainError::invalid(MSG_QUIET_HOURS));
    }
    NaiveTime::parse_from_str(value, "%H:%M").map_err(|_| DomainError::invalid(MSG_QUIET_HOURS))
}

/// A person's push switches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushPreferences {
    pub replies: bool,
    pub likes: bool,
    pub new_posts: bool,
    pub admin: bool,
    pub money: bool,
    pub banners: bool,
    pub quiet_hours: QuietHours,
}

impl Default for PushPreferences {
    fn default() -> Self {
        PushPreferences {
            replies: true,
            likes: true,
            new_posts: true,
            admin: true,
            money: true,
            banners: true,
            quiet_hours: QuietHours::default(),
        }
    }
}

impl PushPreferences {
    /// Whether a push of `kind` may go out at `at`.
    pub fn allows(&self, kind: PushKind, at: DateTime<Utc>) -> bool {
        let on = match kind {
            PushKind::Replies => self.replies,
            PushKind::Likes => self.likes,
            PushKind::NewPosts => self.new_posts,
            PushKind::Admin => self.admin,
            PushKind::Money => self.money,
            PushKind::Banners => self.banners,
        };
        on && !self.quiet_hours.silences(at)
    }
}

/// What a device receives (JSON), read by the service worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushMessage {
    pub title: String,
    pub body: String,
    /// A path inside the site.
    pub url: String,
    /// Groups notifications on the device: one with the same tag replaces the last.
    pub tag: String,
    /// The person's unread notifications (the app's badge).
    pub badge: u64,
}

impl PushMessage {
    /// The JSON text, its body shortened (on a character boundary) until it fits the limit.
    pub fn encode(&self) -> String {
        let mut message = self.clone();
        loop {
            let text = serde_json::to_string(&message).unwrap_or_default();
            if text.len() <= PAYLOAD_MAX || message.body.is_empty() {
                return text;
            }
            let keep = message.body.chars().count().saturating_sub(64);
            message.body = message.body.chars().take(keep).collect::<String>();
            if keep > 0 {
                message.body.push('…');
            }
        }
    }

    /// The `Topic` header (at most 32 base64url characters, RFC 8030 §5.4): a message with the
    /// same topic replaces one the push service still holds for the device.
    pub fn topic(&self) -> String {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(self.tag.as_bytes());
        B64URL.encode(&digest[..24])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const KEY: &str =
        "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY";
    const AUTH: &str = "_ordMnz7uTCmrpBTeUV4Bw";

    #[test]
    fn a_browser_subscription_is_accepted_and_bad_parts_are_named() {
        let ok = check_subscription("https://push.example/abc", KEY, AUTH, " Phone ", false);
        assert_eq!(ok.map(|s| s.label), Ok("Phone".to_string()));
        let err = |r: Result<CheckedSubscription, DomainError>| r.err().map(|e| e.to_string());
        assert_eq!(
            err(check_subscription(
                "http://push.example/a",
                KEY,
                AUTH,
                "",
                false
            )),
            Some(MSG_ENDPOINT_HTTPS.into())
        );
        assert!(check_subscription("http://127.0.0.1:9/a", KEY, AUTH, "", true).is_ok());
        assert_eq!(
            err(check_subscription("ftp://x/a", KEY, AUTH, "", true)),
            Some(MSG_ENDPOINT.into())
        );
        assert_eq!(
            err(check_subscription(
                "https://p/a",
                &KEY[..40],
                AUTH,
                "",
                false
            )),
            Some(MSG_P256DH.into())
        );
        assert_eq!(
            err(check_subscription("https://p/a", KEY, "AAAA", "", false)),
            Some(MSG_AUTH.into())
        );
        assert_eq!(
            err(check_subscription(
                "https://p/a",
                KEY,
                AUTH,
                &"x".repeat(61),
                false
            )),
            Some(MSG_LABEL.into())
        );
    }

    #[test]
    fn quiet_hours_run_past_midnight_in_the_persons_zone() {
        let q = QuietHours {
            enabled: true,
            start: "22:00".into(),
            end: "07:00".into(),
            time_zone: "Europe/Paris".into(),
        };
        // 21:30 UTC in July is 23:30 in Paris: quiet. 06:00 UTC is 08:00: not.
        assert!(q.silences(Utc.with_ymd_and_hms(2026, 7, 1, 21, 30, 0).unwrap()));
        assert!(!q.silences(Utc.with_ymd_and_hms(2026, 7, 1, 6, 0, 0).unwrap()));
        assert!(!QuietHours {
            enabled: false,
            ..q.clone()
        }
        .silences(Utc.with_ymd_and_hms(2026, 7, 1, 21, 30, 0).unwrap()));
        assert!(QuietHours {
            time_zone: "Mars/Olympus".into(),
            ..q.clone()
        }
        .check()
        .is_err());
        assert!(QuietHours {
            start: "7".into(),
            ..q
        }
        .check()
        .is_err());
    }

    #[test]
    fn a_long_message_is_cut_to_fit_the_push_limit() {
        let m = PushMessage {
            title: "t".into(),
            body: "é".repeat(5000),
            url: "/".into(),
            tag: "x".into(),
            badge: 1,
        };
        let text = m.encode();
        assert!(text.len() <= PAYLOAD_MAX);
        assert!(serde_json::from_str::<PushMessage>(&text).is_ok());
        assert_eq!(m.topic().len(), 32);
    }
}
