//! Session tokens: HS256 JWTs carrying the user id, role, session epoch and a unique id.

use chrono::{Duration, Utc};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;

/// Claims of a Pressroom session token.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// User id (hex ObjectId).
    pub sub: String,
    /// Role at issue time (informational; the stored role decides).
    pub role: String,
    /// The user's session epoch at issue time; raising it ends every older token.
    pub ver: i64,
    /// Unique token id, used for logout.
    pub jti: String,
    pub iat: i64,
    pub exp: i64,
}

/// Issues and checks tokens with one secret, and remembers when this process last noted each
/// session's use (shared by its clones).
#[derive(Clone)]
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    ttl: Duration,
    secret: SecretString,
    pub(crate) sessions_seen: std::sync::Arc<std::sync::Mutex<SessionsSeen>>,
}

/// When this process last wrote each session's `lastSeenAt`, by token id.
pub(crate) type SessionsSeen = std::collections::HashMap<String, std::time::Instant>;

impl TokenKeys {
    pub fn new(secret: &SecretString, ttl_hours: i64) -> Self {
        let bytes = secret.expose_secret().as_bytes();
        Self {
            encoding: EncodingKey::from_secret(bytes),
            decoding: DecodingKey::from_secret(bytes),
            ttl: Duration::hours(ttl_hours),
            secret: secret.clone(),
            sessions_seen: Default::default(),
        }
    }

    /// The secret's bytes, for keyed hashes of one-time codes.
    pub fn secret_bytes(&self) -> &[u8] {
        self.secret.expose_secret().as_bytes()
    }

    /// Lifetime of a token in seconds.
    pub fn ttl_seconds(&self) -> i64 {
        self.ttl.num_seconds()
    }

    /// Signs a token for a user.
    pub fn issue(&self, user_id: &str, role: &str, ver: i64) -> Result<(String, Claims), ApiError> {
        let now = Utc::now();
        let claims = Claims {
            sub: user_id.to_string(),
            role: role.to_string(),
            ver,
            jti: uuid::Uuid::new_v4().to_string(),
            iat: now.timestamp(),
            exp: (now + self.ttl).timestamp(),
        };
        let token = encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| ApiError::internal(anyhow::anyhow!("signing a token: {e}")))?;
        Ok((token, claims))
    }

    /// Checks signature and expiry. Any failure is the same 401 to the client.
    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        decode::<Claims>(token, &self.decoding, &validation)
            .map(|data| data.claims)
            .map_err(|e| {
                tracing::debug!(error = %e, "token refused");
                ApiError::unauthorized_code(
                    "invalid_token",
                    "Your session is invalid or has expired. Please log in again.",
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> TokenKeys {
        TokenKeys::new(&SecretString::from("a-test-secret-of-some-length"), 1)
    }

    #[test]
    fn an_issued_token_verifies() {
        let k = keys();
        let (t, c) = k.issue("abc", "user", 3).unwrap();
        let back = k.verify(&t).unwrap();
        assert_eq!(back.sub, "abc");
        assert_eq!(back.ver, 3);
        assert_eq!(back.jti, c.jti);
    }

    #[test]
    fn a_tampered_token_is_refused() {
        let k = keys();
        let (t, _) = k.issue("abc", "user", 0).unwrap();
        let mut parts: Vec<String> = t.split('.').map(str::to_string).collect();
        parts[1] = parts[1].chars().rev().collect();
        assert!(k.verify(&parts.join(".")).is_err());
        let other = TokenKeys::new(&SecretString::from("another-secret-of-some-length"), 1);
        assert!(other.verify(&t).is_err());
    }

    #[test]
    fn an_expired_token_is_refused() {
        let k = TokenKeys::new(&SecretString::from("a-test-secret-of-some-length"), 1);
        let claims = Claims {
            sub: "abc".into(),
            role: "user".into(),
            ver: 0,
            jti: "x".into(),
            iat: 0,
            exp: Utc::now().timestamp() - 10,
        };
        let t = encode(&Header::new(Algorithm::HS256), &claims, &k.encoding).unwrap();
        assert!(k.verify(&t).is_err());
    }
}
