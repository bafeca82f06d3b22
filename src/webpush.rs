//! The Web Push sender: the server's VAPID key (RFC 8292; made once and kept sealed in the
//! store, or configured) and one message to one device, encrypted as `aes128gcm` (RFC 8291) by
//! `web-push-native` and posted over the shared HTTP client (RFC 8030). Push services are reached
//! at public addresses only (checked after DNS resolution by the client's resolver; no redirect
//! is followed) unless `push.allow_insecure_endpoints` lets tests reach loopback over `http`.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64URL;
use base64::Engine;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use web_push_native::jwt_simple::algorithms::{
    ECDSAP256KeyPairLike, ECDSAP256PublicKeyLike, ES256KeyPair,
};
use web_push_native::jwt_simple::claims::Claims;
use web_push_native::{p256, Auth, WebPushBuilder};

use crate::cipher::BankCipher;
use crate::config::PushSettings;
use crate::domain::webhooks::is_public;
use crate::persistence::push_devices::{self, Device};
use crate::persistence::Db;

/// How long a VAPID signature is valid (RFC 8292 allows at most 24 hours).
const SIGNATURE_HOURS: u64 = 12;

/// The server's VAPID key pair.
pub struct Keys {
    pair: ES256KeyPair,
    /// The public key, base64url of the uncompressed point (what browsers subscribe with).
    pub public: String,
}

impl Keys {
    fn from_private(bytes: &[u8]) -> Result<Self, String> {
        let pair = ES256KeyPair::from_bytes(bytes).map_err(|e| format!("bad VAPID key: {e}"))?;
        let public = B64URL.encode(pair.public_key().public_key().to_bytes_uncompressed());
        Ok(Keys { pair, public })
    }
}

/// What became of one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The push service took it (2xx).
    Accepted,
    /// The subscription is gone (404, 410): the device is removed.
    Gone,
    /// Try again later (5xx, 429, no answer); the service's `Retry-After` in seconds, if given.
    Later(Option<u64>),
    /// It will never be taken (another 4xx, a refused address, a broken subscription).
    Refused(String),
}

/// The sender, held by the application state.
pub struct WebPush {
    keys: tokio::sync::OnceCell<Arc<Keys>>,
    client: reqwest::Client,
    settings: PushSettings,
    subject: String,
}

/// Resolves names to public addresses only (loopback too when allowed).
struct PublicOnly {
    loopback_ok: bool,
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let loopback_ok = self.loopback_ok;
        let host = name.as_str().to_string();
        Box::pin(async move {
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if found.is_empty() || found.iter().any(|a| !allowed(a.ip(), loopback_ok)) {
                return Err(format!("{host} {NOT_PUBLIC}").into());
            }
            Ok(Box::new(found.into_iter()) as Addrs)
        })
    }
}

/// The resolver's refusal, found in the error's chain of causes (reqwest wraps it).
const NOT_PUBLIC: &str = "does not resolve to public addresses only";

fn refused_address(e: &reqwest::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        if c.to_string().contains(NOT_PUBLIC) {
            return true;
        }
        cause = c.source();
    }
    false
}

fn allowed(ip: IpAddr, loopback_ok: bool) -> bool {
    is_public(ip) || (loopback_ok && ip.is_loopback())
}

impl WebPush {
    /// A sender for these settings; `mail_from` is the contact when none is configured.
    pub fn new(settings: &PushSettings, mail_from: &str) -> Self {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(settings.timeout_seconds.max(1)))
            .dns_resolver(Arc::new(PublicOnly {
                loopback_ok: settings.allow_insecure_endpoints,
            }))
            .user_agent("Pressroom-Push/1")
            .build()
            .unwrap_or_default();
        let subject = if settings.subject.trim().is_empty() {
            let address = mail_from
                .rsplit_once('<')
                .map_or(mail_from, |(_, a)| a.trim_end_matches('>'))
                .trim();
            format!("mailto:{address}")
        } else {
            settings.subject.trim().to_string()
        };
        WebPush {
            keys: tokio::sync::OnceCell::new(),
            client,
            settings: settings.clone(),
            subject,
        }
    }

    /// The VAPID key: configured, else the stored one, else one made now and stored (two nodes
    /// starting at once keep the first stored).
    pub async fn keys(&self, db: &Db, cipher: &BankCipher) -> Result<Arc<Keys>, String> {
        self.keys
            .get_or_try_init(|| async {
                let configured = self.settings.vapid_private_key.trim();
                if !configured.is_empty() {
                    let bytes = crate::domain::push::decode(configured)
                        .ok_or("the configured VAPID key is not base64url")?;
                    return Keys::from_private(&bytes).map(Arc::new);
                }
                let stored = match push_devices::vapid_key(db)
                    .await
                    .map_err(|e| e.to_string())?
                {
                    Some(stored) => stored,
                    None => {
                        let made = B64URL.encode(ES256KeyPair::generate().to_bytes());
                        push_devices::keep_vapid_key(db, cipher.seal(&made))
                            .await
                            .map_err(|e| e.to_string())?
                    }
                };
                let plain = cipher
                    .open(&stored.sealed_private_key)
                    .map_err(|e| format!("the stored VAPID key cannot be opened: {e}"))?;
                let bytes = crate::domain::push::decode(&plain).ok_or("bad stored VAPID key")?;
                Keys::from_private(&bytes).map(Arc::new)
            })
            .await
            .cloned()
    }

    /// Sends one message (`payload`, JSON text) to `device`.
    pub async fn send(
        &self,
        keys: &Keys,
        device: &Device,
        payload: &str,
        topic: &str,
        urgency: &str,
    ) -> Outcome {
        let request = match self.request(keys, device, payload, topic, urgency) {
            Ok(request) => request,
            Err(why) => return Outcome::Refused(why),
        };
        let answer = match self.client.execute(request).await {
            Ok(answer) => answer,
            Err(e) if refused_address(&e) => {
                return Outcome::Refused("the push service is not at a public address".into())
            }
            Err(_) => return Outcome::Later(None),
        };
        let status = answer.status().as_u16();
        let retry_after = answer
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        match status {
            200..=299 => Outcome::Accepted,
            404 | 410 => Outcome::Gone,
            429 | 500..=599 => Outcome::Later(retry_after),
            other => {
                let text = answer.text().await.unwrap_or_default();
                Outcome::Refused(format!(
                    "the push service answered {other}: {}",
                    text.chars().take(200).collect::<String>()
                ))
            }
        }
    }

    fn request(
        &self,
        keys: &Keys,
        device: &Device,
        payload: &str,
        topic: &str,
        urgency: &str,
    ) -> Result<reqwest::Request, String> {
        let endpoint: http::Uri = device
            .endpoint
            .parse()
            .map_err(|_| "the endpoint is not a URL".to_string())?;
        let scheme = endpoint.scheme_str().unwrap_or_default().to_string();
        let host = endpoint.host().unwrap_or_default().to_string();
        let insecure_ok = self.settings.allow_insecure_endpoints;
        if scheme != "https" && !(insecure_ok && scheme == "http") {
            return Err("the endpoint is not https".into());
        }
        if let Ok(ip) = host.trim_matches(['[', ']']).parse::<IpAddr>() {
            if !allowed(ip, insecure_ok) {
                return Err("the push service is not at a public address".into());
            }
        }
        let ua_public = crate::domain::push::decode(&device.p256dh)
            .and_then(|k| p256::PublicKey::from_sec1_bytes(&k).ok())
            .ok_or("the subscription's key is not a P-256 point")?;
        let auth = crate::domain::push::decode(&device.auth)
            .and_then(|a| <[u8; 16]>::try_from(a.as_slice()).ok())
            .map(Auth::from)
            .ok_or("the subscription's auth secret is not 16 bytes")?;
        let built = WebPushBuilder::new(endpoint.clone(), ua_public, auth)
            .with_valid_duration(Duration::from_secs(self.settings.ttl_seconds))
            .build(payload.as_bytes().to_vec())
            .map_err(|e| format!("the message could not be encrypted: {e}"))?;
        // The audience is the push service's origin, its port included when it is not the
        // scheme's own (RFC 8292 §2).
        let audience = match endpoint.port_u16() {
            Some(port) if !matches!((scheme.as_str(), port), ("https", 443) | ("http", 80)) => {
                format!("{scheme}://{host}:{port}")
            }
            _ => format!("{scheme}://{host}"),
        };
        let claims = Claims::create(web_push_native::jwt_simple::prelude::Duration::from_hours(
            SIGNATURE_HOURS,
        ))
        .with_audience(audience)
        .with_subject(&self.subject);
        let token = keys
            .pair
            .sign(claims)
            .map_err(|e| format!("the VAPID signature failed: {e}"))?;
        let mut request = reqwest::Request::try_from(built)
            .map_err(|e| format!("the request could not be built: {e}"))?;
        let headers = request.headers_mut();
        let mut put = |name: &'static str, value: String| {
            if let Ok(value) = reqwest::header::HeaderValue::from_str(&value) {
                headers.insert(name, value);
            }
        };
        put(
            "authorization",
            format!("vapid t={token}, k={}", keys.public),
        );
        put("urgency", urgency.to_string());
        put("topic", topic.to_string());
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(endpoint: &str) -> Device {
        Device {
            id: mongodb::bson::oid::ObjectId::new(),
            user_id: mongodb::bson::oid::ObjectId::new(),
            endpoint: endpoint.into(),
            p256dh: "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY"
                .into(),
            auth: "_ordMnz7uTCmrpBTeUV4Bw".into(),
            label: "Phone".into(),
            created_at: mongodb::bson::DateTime::now(),
            last_delivery_at: None,
            expires_at: None,
        }
    }

    /// In production a device cannot point the server at a private address: by address, or by
    /// a name that resolves to one (refused by the resolver, found in the error's causes).
    #[tokio::test]
    async fn a_device_at_a_private_address_is_refused_not_retried() {
        let sender = WebPush::new(&PushSettings::default(), "Pressroom <news@example.com>");
        let keys = Keys::from_private(&ES256KeyPair::generate().to_bytes()).unwrap();
        for endpoint in [
            "https://127.0.0.1:9/push",
            "https://localhost:9/push",
            "http://10.0.0.1/p",
        ] {
            let outcome = sender
                .send(&keys, &device(endpoint), "{}", "t", "normal")
                .await;
            assert!(
                matches!(outcome, Outcome::Refused(_)),
                "{endpoint}: {outcome:?}"
            );
        }
        assert_eq!(sender.subject, "mailto:news@example.com");
    }
}
