//! One-time codes: six digits, stored as an HMAC keyed by the server secret.

use hmac::{Hmac, Mac};
use rand::Rng;
use sha2::Sha256;

pub const OTP_DIGITS: usize = 6;

/// A fresh random six-digit code.
pub fn generate() -> String {
    let n: u32 = rand::thread_rng().gen_range(0..1_000_000);
    format!("{n:06}")
}

/// Whether the text looks like a code at all (six ASCII digits).
pub fn is_well_formed(code: &str) -> bool {
    code.len() == OTP_DIGITS && code.bytes().all(|b| b.is_ascii_digit())
}

fn mac(secret: &[u8], key: &str, code: &str) -> Hmac<Sha256> {
    // HMAC accepts keys of any length, so this cannot fail.
    #[allow(clippy::expect_used)]
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(key.as_bytes());
    mac.update(b":");
    mac.update(code.as_bytes());
    mac
}

/// The stored form of a code, bound to what it is for (`key`).
pub fn hash(secret: &[u8], key: &str, code: &str) -> String {
    hex::encode(mac(secret, key, code).finalize().into_bytes())
}

/// Constant-time comparison of a candidate code with a stored hash.
pub fn matches(secret: &[u8], key: &str, code: &str, stored_hex: &str) -> bool {
    match hex::decode(stored_hex) {
        Ok(expected) => mac(secret, key, code).verify_slice(&expected).is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_six_digits() {
        for _ in 0..200 {
            let c = generate();
            assert!(is_well_formed(&c), "{c}");
        }
    }

    #[test]
    fn a_code_matches_only_its_own_purpose_and_value() {
        let h = hash(b"secret", "verify:1", "123456");
        assert!(matches(b"secret", "verify:1", "123456", &h));
        assert!(!matches(b"secret", "verify:1", "123457", &h));
        assert!(!matches(b"secret", "reset:1", "123456", &h));
        assert!(!matches(b"other", "verify:1", "123456", &h));
    }

    #[test]
    fn malformed_codes_are_recognised() {
        assert!(!is_well_formed("12345"));
        assert!(!is_well_formed("12345a"));
        assert!(!is_well_formed("1234567"));
    }
}
