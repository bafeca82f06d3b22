//! Bank account numbers at rest: AES-256-GCM (the RustCrypto `aes-gcm` crate) with a key from
//! configuration. Each value gets a fresh random 96-bit nonce; the stored form is
//! `v1:<base64 nonce>:<base64 ciphertext+tag>`, so a key rotation can add `v2` later.

use aes_gcm::aead::{Aead, KeyInit, OsRng};
use aes_gcm::{AeadCore, Aes256Gcm, Nonce};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;

const VERSION: &str = "v1";

/// Encrypts and decrypts account numbers.
#[derive(Clone)]
pub struct BankCipher {
    cipher: Aes256Gcm,
}

impl std::fmt::Debug for BankCipher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BankCipher(..)")
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CipherError {
    #[error("the key must be the base64 of exactly 32 bytes")]
    BadKey,
    #[error("the stored value is not one this key sealed")]
    Unreadable,
}

impl BankCipher {
    /// A cipher from the configured key: base64 of 32 bytes.
    pub fn from_base64(key: &str) -> Result<Self, CipherError> {
        let bytes = STANDARD
            .decode(key.trim())
            .map_err(|_| CipherError::BadKey)?;
        if bytes.len() != 32 {
            return Err(CipherError::BadKey);
        }
        let cipher = Aes256Gcm::new_from_slice(&bytes).map_err(|_| CipherError::BadKey)?;
        Ok(BankCipher { cipher })
    }

    /// Seals `plain` with a fresh nonce.
    pub fn seal(&self, plain: &str) -> String {
        let nonce = Aes256Gcm::generate_nonce(&mut OsRng);
        // Encryption into a Vec fails only when the buffer cannot grow, which aborts anyway.
        let sealed = self
            .cipher
            .encrypt(&nonce, plain.as_bytes())
            .unwrap_or_default();
        format!(
            "{VERSION}:{}:{}",
            STANDARD.encode(nonce),
            STANDARD.encode(sealed)
        )
    }

    /// Opens a value sealed by [`seal`](Self::seal) with the same key.
    pub fn open(&self, stored: &str) -> Result<String, CipherError> {
        let mut parts = stored.splitn(3, ':');
        let (Some(VERSION), Some(nonce), Some(sealed)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(CipherError::Unreadable);
        };
        let nonce: [u8; 12] = STANDARD
            .decode(nonce)
            .map_err(|_| CipherError::Unreadable)?
            .try_into()
            .map_err(|_| CipherError::Unreadable)?;
        let sealed = STANDARD
            .decode(sealed)
            .map_err(|_| CipherError::Unreadable)?;
        let plain = self
            .cipher
            .decrypt(&Nonce::from(nonce), sealed.as_ref())
            .map_err(|_| CipherError::Unreadable)?;
        String::from_utf8(plain).map_err(|_| CipherError::Unreadable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

    #[test]
    fn a_sealed_number_opens_with_the_same_key_and_never_shows_the_number() {
        let c = BankCipher::from_base64(KEY).unwrap();
        let sealed = c.seal("000123456789");
        assert!(sealed.starts_with("v1:"));
        assert!(!sealed.contains("123456789"));
        assert_eq!(c.open(&sealed).unwrap(), "000123456789");
    }

    #[test]
    fn the_same_number_seals_differently_each_time() {
        let c = BankCipher::from_base64(KEY).unwrap();
        assert_ne!(c.seal("42424242"), c.seal("42424242"));
    }

    #[test]
    fn another_key_or_a_changed_value_cannot_open_it() {
        let c = BankCipher::from_base64(KEY).unwrap();
        let other =
            BankCipher::from_base64("cHJlc3Nyb29tLWRldmVsb3BtZW50LWJhbmsta2V5ISE=").unwrap();
        let sealed = c.seal("000123456789");
        assert_eq!(other.open(&sealed), Err(CipherError::Unreadable));
        let mut tampered = sealed.clone();
        tampered.pop();
        tampered.push(if sealed.ends_with('A') { 'B' } else { 'A' });
        assert_eq!(c.open(&tampered), Err(CipherError::Unreadable));
        assert_eq!(c.open("plain text"), Err(CipherError::Unreadable));
    }

    #[test]
    fn a_key_of_the_wrong_length_is_refused() {
        assert_eq!(
            BankCipher::from_base64("c2hvcnQ=").unwrap_err(),
            CipherError::BadKey
        );
        assert_eq!(
            BankCipher::from_base64("not base64!").unwrap_err(),
            CipherError::BadKey
        );
    }
}
