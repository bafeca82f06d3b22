//! Time-based one-time passwords (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps, one step of
//! drift either way) with `totp-rs`, and the single-use recovery codes of two-factor sign-in.

use hmac::{Hmac, Mac};
use rand::Rng;
use sha2::Sha256;
use totp_rs::{Algorithm, Secret, TOTP};

/// Seconds per step.
pub const STEP: u64 = 30;
/// Digits per code.
pub const DIGITS: usize = 6;
/// Steps of drift accepted either side of now.
pub const SKEW: u8 = 1;
/// Issuer named in authenticator apps.
pub const ISSUER: &str = "Pressroom";
/// Recovery codes handed out at once.
pub const RECOVERY_CODES: usize = 10;

/// A new random secret (160 bits, as RFC 4226 recommends), base32 without padding.
pub fn new_secret() -> String {
    match Secret::generate_secret().to_encoded() {
        Secret::Encoded(s) => s,
        Secret::Raw(bytes) => base32_encode(&bytes),
    }
}

fn base32_encode(bytes: &[u8]) -> String {
    Secret::Raw(bytes.to_vec()).to_encoded().to_string()
}

fn totp(secret_b32: &str, account: &str) -> Option<TOTP> {
    let bytes = Secret::Encoded(secret_b32.to_string()).to_bytes().ok()?;
    TOTP::new(
        Algorithm::SHA1,
        DIGITS,
        SKEW,
        STEP,
        bytes,
        Some(ISSUER.to_string()),
        account.to_string(),
    )
    .ok()
}

/// The `otpauth://totp/...` address authenticator apps read from the QR code.
pub fn otpauth_url(secret_b32: &str, account: &str) -> Option<String> {
    totp(secret_b32, account).map(|t| t.get_url())
}

/// The time step of `unix_secs`.
pub fn step_of(unix_secs: u64) -> u64 {
    unix_secs / STEP
}

/// The step whose code `code` is, within the allowed drift around `unix_secs`; `None` when the
/// code matches none.
pub fn matching_step(secret_b32: &str, code: &str, unix_secs: u64) -> Option<u64> {
    let code = code.trim();
    if code.len() != DIGITS || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let t = totp(secret_b32, "check")?;
    let now = step_of(unix_secs);
    let skew = u64::from(SKEW);
    (now.saturating_sub(skew)..=now + skew).find(|step| {
        let expected = t.generate(step * STEP);
        constant_eq(expected.as_bytes(), code.as_bytes())
    })
}

fn constant_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `code` looks like a TOTP code (six digits) rather than a recovery code.
pub fn is_totp_shape(code: &str) -> bool {
    let code = code.trim();
    code.len() == DIGITS && code.bytes().all(|b| b.is_ascii_digit())
}

/// Ten new recovery codes, `xxxxx-xxxxx` of lowercase letters and digits (about 51 bits each).
pub fn new_recovery_codes() -> Vec<String> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..RECOVERY_CODES)
        .map(|_| {
            let mut s = String::with_capacity(11);
            for i in 0..10 {
                if i == 5 {
                    s.push('-');
                }
                s.push(ALPHABET[rng.gen_range(0..ALPHABET.len())] as char);
            }
            s
        })
        .collect()
}

/// Normal form of a typed recovery code (case, spaces and dashes do not matter).
pub fn normalize_recovery_code(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Keyed hash of a recovery code (HMAC-SHA-256 with the server secret and the user id), the
/// only form in which it is stored.
pub fn hash_recovery_code(key: &[u8], user_id: &str, code: &str) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(key) else {
        return String::new();
    };
    mac.update(b"recovery:");
    mac.update(user_id.as_bytes());
    mac.update(b":");
    mac.update(normalize_recovery_code(code).as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 appendix B, SHA-1 (the key is the ASCII "12345678901234567890").
    #[test]
    fn rfc_6238_test_vectors() {
        let key = b"12345678901234567890".to_vec();
        let t = TOTP::new(Algorithm::SHA1, 8, 1, 30, key, None, "rfc".into()).unwrap();
        for (time, code) in [
            (59u64, "94287082"),
            (1_111_111_109, "07081804"),
            (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"),
            (20_000_000_000, "65353130"),
        ] {
            assert_eq!(t.generate(time), code, "at {time}");
        }
        // The six-digit codes the service uses are the last six digits of the same values.
        let b32 = base32_encode(b"12345678901234567890");
        assert_eq!(b32, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
        assert_eq!(matching_step(&b32, "287082", 59), Some(1));
        assert_eq!(
            matching_step(&b32, "081804", 1_111_111_109),
            Some(37_037_036)
        );
    }

    #[test]
    fn one_step_of_drift_either_way_and_no_more() {
        let secret = new_secret();
        let t = totp(&secret, "x").unwrap();
        let now = 1_700_000_000u64;
        let code_at = |step: u64| t.generate(step * STEP);
        let s = step_of(now);
        assert_eq!(matching_step(&secret, &code_at(s), now), Some(s));
        assert_eq!(matching_step(&secret, &code_at(s - 1), now), Some(s - 1));
        assert_eq!(matching_step(&secret, &code_at(s + 1), now), Some(s + 1));
        for far in [s - 2, s + 2] {
            let code = code_at(far);
            // A far code could collide with a near one by chance; only check when it does not.
            if [s - 1, s, s + 1].iter().all(|n| code_at(*n) != code) {
                assert_eq!(matching_step(&secret, &code, now), None);
            }
        }
        assert_eq!(matching_step(&secret, "12345", now), None);
        assert_eq!(matching_step(&secret, "abcdef", now), None);
    }

    #[test]
    fn recovery_codes_are_distinct_and_hashed_by_normal_form() {
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), 10);
        let set: std::collections::HashSet<_> = codes.iter().collect();
        assert_eq!(set.len(), 10);
        let h = hash_recovery_code(b"k", "u", &codes[0]);
        assert_eq!(
            h,
            hash_recovery_code(b"k", "u", &codes[0].to_uppercase().replace('-', " "))
        );
        assert_ne!(h, hash_recovery_code(b"k", "other", &codes[0]));
        assert!(new_secret().len() >= 32);
    }
}
