//! Fixed-window rate limits per (kind, key). With Redis they are counted there, so every node
//! of a cluster shares them (one script: check, count, start the window); without Redis, or
//! while it is unreachable, each node counts in its own memory with the same windows. See
//! `docs/decisions.md`.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use deadpool_redis::redis::Script;

use crate::config::RateLimitSettings;
use crate::error::ApiError;
use crate::redis_pool::Redis;

/// Who an engagement write is by, as the limits count it (`crate::counting::Identified`).
pub(crate) trait Engager {
    /// The reader's own key (`user:<id>`, `guest:<id>`), or `None` when the reader is only the
    /// client address (counted once, as the address).
    fn reader_key(&self) -> Option<String>;
    /// The client address.
    fn address(&self) -> &str;
}

/// KEYS[1]: the window's counter; ARGV[1]: the limit, ARGV[2]: the window in ms. Counts the
/// attempt unless the allowance is used up; answers {allowed (1/0), ms left in the window}.
static HIT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then
  local left = redis.call('PTTL', KEYS[1])
  if left < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    left = tonumber(ARGV[2])
  end
  return {0, left}
end
if redis.call('INCR', KEYS[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return {1, redis.call('PTTL', KEYS[1])}
",
    )
});

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
    NewsletterEmail,
    NewsletterAddress,
    /// Engagement writes (like, bookmark, share, view, vote, comment, follow) per reader.
    EngagementReader,
    /// Engagement writes per client address.
    EngagementAddress,
    /// Tips per reader.
    TipReader,
    /// Requests made with one personal API key.
    ApiKey,
    /// Passkey ceremonies begun, per client address (sign-in) or per account.
    PasskeyCeremony,
}

/// An engagement write, limited per reader and per address (each action on its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    Like,
    Bookmark,
    Share,
    View,
    Vote,
    Comment,
    Follow,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Like => "like",
            Action::Bookmark => "bookmark",
            Action::Share => "share",
            Action::View => "view",
            Action::Vote => "vote",
            Action::Comment => "comment",
            Action::Follow => "follow",
        }
    }
}

/// Declares the `rate_limited` counter of every limit at zero, so a scrape shows each one before
/// its first refusal (called once at start, after `metrics::init`).
pub(crate) fn declare_metrics() {
    for limit in Kind::ALL {
        crate::metrics::RATE_LIMITED.with_label_values(&[limit.name()]);
    }
}

impl Kind {
    /// Every limit.
    pub const ALL: [Kind; 16] = [
        Kind::LoginAccount,
        Kind::LoginAddress,
        Kind::OtpSendAccount,
        Kind::OtpSendAddress,
        Kind::OtpCheckAccount,
        Kind::OtpCheckAddress,
        Kind::ContactEmail,
        Kind::ContactAddress,
        Kind::ReportAccount,
        Kind::EngagementReader,
        Kind::EngagementAddress,
        Kind::NewsletterEmail,
        Kind::NewsletterAddress,
        Kind::TipReader,
        Kind::ApiKey,
        Kind::PasskeyCeremony,
    ];

    /// The limit's name (in Redis keys and the metrics).
    pub fn name(self) -> &'static str {
        match self {
            Kind::LoginAccount => "login-account",
            Kind::LoginAddress => "login-address",
            Kind::OtpSendAccount => "otp-send-account",
            Kind::OtpSendAddress => "otp-send-address",
            Kind::OtpCheckAccount => "otp-check-account",
            Kind::OtpCheckAddress => "otp-check-address",
            Kind::ContactEmail => "contact-email",
            Kind::ContactAddress => "contact-address",
            Kind::ReportAccount => "report-account",
            Kind::EngagementReader => "engagement-reader",
            Kind::EngagementAddress => "engagement-address",
            Kind::NewsletterEmail => "newsletter-email",
            Kind::NewsletterAddress => "newsletter-address",
            Kind::TipReader => "tip-reader",
            Kind::ApiKey => "api-key",
            Kind::PasskeyCeremony => "passkey-ceremony",
        }
    }
}

pub struct RateLimiter {
    window: Duration,
    engagement_window: Duration,
    limits: RateLimitSettings,
    windows: Mutex<HashMap<(Kind, String), (Instant, u32)>>,
    redis: Redis,
}

impl RateLimiter {
    /// Limits counted in this process's memory.
    pub fn new(limits: RateLimitSettings) -> Self {
        Self::with_redis(limits, Redis::disabled())
    }

    /// Limits counted in Redis (shared by every node), in memory while Redis is unreachable.
    pub fn with_redis(limits: RateLimitSettings, redis: Redis) -> Self {
        Self {
            window: Duration::from_secs(limits.window_seconds),
            engagement_window: Duration::from_secs(limits.engagement_window_seconds),
            limits,
            windows: Mutex::new(HashMap::new()),
            redis,
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
            Kind::EngagementReader => l.engagement_per_reader,
            Kind::EngagementAddress => l.engagement_per_address,
            Kind::NewsletterEmail => l.newsletter_per_email,
            Kind::NewsletterAddress => l.newsletter_per_address,
            Kind::TipReader => l.tips_per_reader,
            Kind::ApiKey => l.api_key_requests,
            Kind::PasskeyCeremony => l.passkey_ceremonies,
        }
    }

    /// The window a kind is counted in.
    fn window(&self, kind: Kind) -> Duration {
        match kind {
            Kind::EngagementReader | Kind::EngagementAddress | Kind::TipReader | Kind::ApiKey => {
                self.engagement_window
            }
            _ => self.window,
        }
    }

    /// Counts an engagement write against its reader and its address (cluster-wide with Redis);
    /// a 429 with `Retry-After` once either allowance of the window is used up.
    pub(crate) async fn engagement(
        &self,
        action: Action,
        who: &impl Engager,
    ) -> Result<(), ApiError> {
        let name = action.name();
        if let Some(reader) = who.reader_key() {
            self.hit(Kind::EngagementReader, &format!("{name}:{reader}"))
                .await?;
        }
        self.hit(
            Kind::EngagementAddress,
            &format!("{name}:{}", who.address()),
        )
        .await
    }

    /// Counts one attempt; refuses it with a 429 once the window's allowance is used up.
    pub async fn hit(&self, kind: Kind, key: &str) -> Result<(), ApiError> {
        let result = self.count_hit(kind, key).await;
        if result.is_err() {
            crate::metrics::RATE_LIMITED
                .with_label_values(&[kind.name()])
                .inc();
        }
        result
    }

    async fn count_hit(&self, kind: Kind, key: &str) -> Result<(), ApiError> {
        if self.redis.is_configured() {
            match self.hit_redis(kind, key).await {
                Some(Ok(())) => return Ok(()),
                Some(Err(retry_after)) => return Err(refusal(retry_after)),
                // Unreachable: this node counts on its own meanwhile.
                None => {}
            }
        }
        self.hit_memory(kind, key)
    }

    /// `None` when Redis did not answer; else whether the attempt is allowed, or the seconds
    /// until it would be.
    async fn hit_redis(&self, kind: Kind, key: &str) -> Option<Result<(), u64>> {
        let counter = self.redis.key(&format!("ratelimit:{}:{key}", kind.name()));
        let limit = self.limit(kind);
        let window_ms = u64::try_from(self.window(kind).as_millis()).unwrap_or(u64::MAX);
        let mut invocation = HIT.prepare_invoke();
        invocation.key(counter).arg(limit).arg(window_ms);
        let (allowed, left_ms): (i64, i64) = self
            .redis
            .run_if_up(|mut conn| async move { invocation.invoke_async(&mut conn).await })
            .await
            .ok()?;
        if allowed == 1 {
            return Some(Ok(()));
        }
        let left = u64::try_from(left_ms).unwrap_or(0);
        Some(Err(left.div_ceil(1000).max(1)))
    }

    fn hit_memory(&self, kind: Kind, key: &str) -> Result<(), ApiError> {
        let now = Instant::now();
        let limit = self.limit(kind);
        let window = self.window(kind);
        let mut windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        if windows.len() > SWEEP_THRESHOLD {
            let longest = self.window.max(self.engagement_window);
            windows.retain(|_, (start, _)| now.duration_since(*start) < longest);
        }
        let entry = windows.entry((kind, key.to_string())).or_insert((now, 0));
        if now.duration_since(entry.0) >= window {
            *entry = (now, 0);
        }
        if entry.1 >= limit {
            let retry_after = window
                .saturating_sub(now.duration_since(entry.0))
                .as_secs()
                .max(1);
            return Err(refusal(retry_after));
        }
        entry.1 += 1;
        Ok(())
    }

    /// Counts an attempt against both the account and the client address.
    pub async fn hit_both(
        &self,
        account: (Kind, &str),
        address: (Kind, &str),
    ) -> Result<(), ApiError> {
        self.hit(address.0, address.1).await?;
        self.hit(account.0, account.1).await
    }
}

/// The 429 of an attempt `retry_after` seconds too early.
fn refusal(retry_after: u64) -> ApiError {
    let minutes = retry_after.div_ceil(60);
    let message = if retry_after < 60 {
        format!(
            "Too many attempts. Please try again in {retry_after} second{}.",
            if retry_after == 1 { "" } else { "s" }
        )
    } else {
        format!(
            "Too many attempts. Please try again in {minutes} minute{}.",
            if minutes == 1 { "" } else { "s" }
        )
    };
    ApiError::RateLimited {
        message,
        retry_after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(n: u32) -> RateLimiter {
        RateLimiter::new(RateLimitSettings::uniform(60, n))
    }

    #[tokio::test]
    async fn the_attempt_past_the_limit_is_refused_with_a_retry_after() {
        let l = limiter(3);
        for _ in 0..3 {
            l.hit(Kind::LoginAccount, "a").await.unwrap();
        }
        match l.hit(Kind::LoginAccount, "a").await {
            Err(ApiError::RateLimited { retry_after, .. }) => {
                assert!((1..=60).contains(&retry_after))
            }
            other => panic!("expected a rate limit, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn keys_and_kinds_are_counted_apart() {
        let l = limiter(1);
        l.hit(Kind::LoginAccount, "a").await.unwrap();
        l.hit(Kind::LoginAccount, "b").await.unwrap();
        l.hit(Kind::OtpSendAccount, "a").await.unwrap();
        assert!(l.hit(Kind::LoginAccount, "a").await.is_err());
    }
}
