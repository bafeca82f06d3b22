//! Password rules and argon2id hashing.

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;

use crate::error::ApiError;

pub const MIN_PASSWORD_LEN: usize = 8;
pub const MAX_PASSWORD_LEN: usize = 128;

/// A password that satisfies the length rules.
pub struct Password(String);

impl Password {
    /// Checks the length rules (counted in characters).
    pub fn parse(raw: String) -> Result<Self, ApiError> {
        let len = raw.chars().count();
        if len < MIN_PASSWORD_LEN {
            return Err(ApiError::bad_request(format!(
                "Password must be at least {MIN_PASSWORD_LEN} characters"
            )));
        }
        if len > MAX_PASSWORD_LEN {
            return Err(ApiError::bad_request(format!(
                "Password must be at most {MAX_PASSWORD_LEN} characters"
            )));
        }
        Ok(Password(raw))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Hashes a password with argon2id on a blocking thread.
pub async fn hash(password: Password) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_str().as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| ApiError::internal(anyhow::anyhow!("hashing a password: {e}")))
    })
    .await
    .map_err(ApiError::internal)?
}

/// A fixed hash verified against when the account does not exist, so both failures take as long.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0kfu1YS2zC3nqLgOgj9bh/lDvx3mMhkKzQYAQOGwMtU";

/// Verifies a password against a stored hash (or the dummy hash when there is none).
pub async fn verify(candidate: String, stored: Option<String>) -> Result<bool, ApiError> {
    tokio::task::spawn_blocking(move || {
        let has_real = stored.is_some();
        let stored = stored.unwrap_or_else(|| DUMMY_HASH.to_string());
        let parsed = PasswordHash::new(&stored)
            .map_err(|e| ApiError::internal(anyhow::anyhow!("parsing a stored hash: {e}")))?;
        let ok = Argon2::default()
            .verify_password(candidate.as_bytes(), &parsed)
            .is_ok();
        Ok(ok && has_real)
    })
    .await
    .map_err(ApiError::internal)?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seven_character_password_is_rejected() {
        assert!(Password::parse("1234567".into()).is_err());
    }

    #[test]
    fn eight_to_128_characters_are_accepted() {
        assert!(Password::parse("12345678".into()).is_ok());
        assert!(Password::parse("x".repeat(128)).is_ok());
        assert!(Password::parse("x".repeat(129)).is_err());
    }

    #[tokio::test]
    async fn a_hash_verifies_only_its_password() {
        let h = hash(Password::parse("correct horse".into()).unwrap())
            .await
            .unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("correct horse".into(), Some(h.clone()))
            .await
            .unwrap());
        assert!(!verify("wrong horse".into(), Some(h)).await.unwrap());
        assert!(!verify("anything".into(), None).await.unwrap());
    }
}
