//! Fixed-window rate limits kept in memory, per (kind, key). Each node limits on its own; see
//! `docs/decisions.md`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::config::RateLimitSettings;
use crate::error::ApiError;

/// Entries beyond which expired windows are swept on the next check.
const SWEEP_THRESHOLD: usize = 10_000;

/// What is being limited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    LoginAccount,
    LoginAddress,
    OtpSendAccount,
    OtpSendAddress,
    OtpCheckAccount,
    OtpCheckAddress,
    ContactEmail,
    ContactAddress,
    ReportAccount,
}

pub struct RateLimiter {
    window: Duration,
    limits: RateLimitSettings,
    windows: Mutex<HashMap<(Kind, String), (Instant, u32)>>,
}

impl RateLimiter {
    pub fn new(limits: RateLimitSettings) -> Self {
        Self {
            window: Duration::from_secs(limits.window_seconds),
            limits,
            windows: Mutex::new(HashMap::new()),
        }
    }

    fn limit(&self, kind: Kind) -> u32 {
        let l = &self.limits;
        match kind {
            Kind::LoginAccount => l.login_per_account,
            Kind::LoginAddress => l.login_per_address,
            Kind::OtpSendAccount => l.otp_send_per_account,
            Kind::OtpSendAddress => l.otp_send_per_address,
            Kind::OtpCheckAccount => l.otp_check_per_account,
            Kind::OtpCheckAddress => l.otp_check_per_address,
            Kind::ContactEmail => l.contact_per_email,
            Kind::ContactAddress => l.contact_per_address,
            Kind::ReportAccount => l.report_per_account,
        }
    }

    /// Counts one attempt; refuses it with a 429 once the window's allowance is used up.
    pub fn hit(&self, kind: Kind, key: &str) -> Result<(), ApiError> {
        let now = Instant::now();
        let limit = self.limit(kind);
        let mut windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        if windows.len() > SWEEP_THRESHOLD {
            let window = self.window;
            windows.retain(|_, (start, _)| now.duration_since(*start) < window);
        }
        let entry = windows.entry((kind, key.to_string())).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1 >= limit {
            let retry_after = self
                .window
                .saturating_sub(now.duration_since(entry.0))
                .as_secs()
                .max(1);
            let minutes = retry_after.div_ceil(60);
            return Err(ApiError::RateLimited {
                message: format!(
                    "Too many attempts. Please try again in {minutes} minute{}.",
                    if minutes == 1 { "" } else { "s" }
                ),
                retry_after,
            });
        }
        entry.1 += 1;
        Ok(())
    }

    /// Counts an attempt against both the account and the client address.
    pub fn hit_both(&self, account: (Kind, &str), address: (Kind, &str)) -> Result<(), ApiError> {
        self.hit(address.0, address.1)?;
        self.hit(account.0, account.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(n: u32) -> RateLimiter {
        RateLimiter::new(RateLimitSettings {
            window_seconds: 60,
            login_per_account: n,
            login_per_address: n,
            otp_send_per_account: n,
            otp_send_per_address: n,
            otp_check_per_account: n,
            otp_check_per_address: n,
            contact_per_email: n,
            contact_per_address: n,
            report_per_account: n,
        })
    }

    #[test]
    fn the_attempt_past_the_limit_is_refused_with_a_retry_after() {
        let l = limiter(3);
        for _ in 0..3 {
            l.hit(Kind::LoginAccount, "a").unwrap();
        }
        match l.hit(Kind::LoginAccount, "a") {
            Err(ApiError::RateLimited { retry_after, .. }) => {
                assert!((1..=60).contains(&retry_after))
            }
            other => panic!("expected a rate limit, got {other:?}"),
        }
    }

    #[test]
    fn keys_and_kinds_are_counted_apart() {
        let l = limiter(1);
        l.hit(Kind::LoginAccount, "a").unwrap();
        l.hit(Kind::LoginAccount, "b").unwrap();
        l.hit(Kind::OtpSendAccount, "a").unwrap();
        assert!(l.hit(Kind::LoginAccount, "a").is_err());
    }
}
