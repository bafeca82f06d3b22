//! Verification of Google ID tokens: RS256 against Google's published keys (fetched from a
//! configurable address and cached), audience, issuer and expiry.

use std::time::{Duration, Instant};

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{decode, decode_header, Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use tokio::sync::RwLock;

use crate::error::ApiError;

/// How long fetched keys are trusted before they are fetched again.
pub const JWKS_CACHE_TTL: Duration = Duration::from_secs(3600);
/// The issuers Google uses.
pub const GOOGLE_ISSUERS: [&str; 2] = ["accounts.google.com", "https://accounts.google.com"];
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

pub const MSG_INVALID_GOOGLE_TOKEN: &str =
    "Google sign-in failed: the token is invalid or has expired.";
pub const MSG_GOOGLE_DISABLED: &str = "Google sign-in is not enabled on this server.";

/// What Pressroom uses from a verified Google ID token.
#[derive(Debug, Clone, Deserialize)]
pub struct GoogleClaims {
    pub sub: String,
    pub email: Option<String>,
    #[serde(default, deserialize_with = "bool_or_string")]
    pub email_verified: bool,
    pub name: Option<String>,
    pub picture: Option<String>,
}

fn bool_or_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum B {
        Bool(bool),
        Str(String),
    }
    Ok(match B::deserialize(d)? {
        B::Bool(b) => b,
        B::Str(s) => s == "true",
    })
}

pub struct GoogleVerifier {
    client_id: String,
    jwks_url: String,
    http: reqwest::Client,
    cache: RwLock<Option<(Instant, JwkSet)>>,
}

impl GoogleVerifier {
    pub fn new(client_id: String, jwks_url: String) -> Self {
        let http = reqwest::Client::builder()
            .timeout(FETCH_TIMEOUT)
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        Self {
            client_id,
            jwks_url,
            http,
            cache: RwLock::new(None),
        }
    }

    pub fn enabled(&self) -> bool {
        !self.client_id.trim().is_empty()
    }

    pub fn client_id(&self) -> Option<&str> {
        self.enabled().then_some(self.client_id.as_str())
    }

    async fn fetch(&self) -> Result<JwkSet, ApiError> {
        let res = self
            .http
            .get(&self.jwks_url)
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .map_err(|e| ApiError::Unavailable(anyhow::anyhow!("fetching Google keys: {e}")))?;
        res.json::<JwkSet>()
            .await
            .map_err(|e| ApiError::Unavailable(anyhow::anyhow!("reading Google keys: {e}")))
    }

    /// The key with this id: from the cache, or fetched again when unknown or stale.
    async fn key(&self, kid: &str) -> Result<DecodingKey, ApiError> {
        {
            let cache = self.cache.read().await;
            if let Some((at, set)) = cache.as_ref() {
                if at.elapsed() < JWKS_CACHE_TTL {
                    if let Some(jwk) = set.find(kid) {
                        return DecodingKey::from_jwk(jwk).map_err(|_| invalid());
                    }
                }
            }
        }
        let set = self.fetch().await?;
        let key = set.find(kid).map(DecodingKey::from_jwk);
        *self.cache.write().await = Some((Instant::now(), set));
        match key {
            Some(Ok(k)) => Ok(k),
            _ => Err(invalid()),
        }
    }

    /// Verifies an ID token and returns its claims.
    pub async fn verify(&self, id_token: &str) -> Result<GoogleClaims, ApiError> {
        if !self.enabled() {
            return Err(ApiError::invalid("google_disabled", MSG_GOOGLE_DISABLED));
        }
        let header = decode_header(id_token).map_err(|_| invalid())?;
        if header.alg != Algorithm::RS256 {
            return Err(invalid());
        }
        let kid = header.kid.ok_or_else(invalid)?;
        let key = self.key(&kid).await?;
        let mut validation = Validation::new(Algorithm::RS256);
        validation.set_audience(&[self.client_id.as_str()]);
        validation.set_issuer(&GOOGLE_ISSUERS);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        decode::<GoogleClaims>(id_token, &key, &validation)
            .map(|d| d.claims)
            .map_err(|e| {
                tracing::debug!(error = %e, "Google token refused");
                invalid()
            })
    }
}

fn invalid() -> ApiError {
    ApiError::unauthorized_code("invalid_google_token", MSG_INVALID_GOOGLE_TOKEN)
}
