//! The sections of the settings (`[server]`, `[database]`, …), each with its defaults and checks.

use super::*;

/// HTTP server settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    /// Address the HTTP server binds to.
    pub host: String,
    /// Port the HTTP server binds to (0 picks a free port).
    pub port: u16,
    /// Largest accepted request body in bytes.
    pub body_limit: usize,
    /// Proxies whose `X-Forwarded-For` is trusted.
    pub trusted_proxies: Vec<String>,
    /// Directory of the built web app.
    pub static_dir: PathBuf,
    /// Directory of stored media.
    pub media_dir: PathBuf,
    /// HTTP worker threads (0 = one per core).
    pub workers: usize,
    /// The site's address as readers reach it, for links in emails (no trailing slash).
    pub public_url: String,
    /// Longest an HTTP request may take before it is answered 503 (ms; 0: no limit). The realtime
    /// endpoint is not bound by it (its long-polls wait by design).
    pub request_timeout_ms: u64,
}

/// MongoDB settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseSettings {
    /// Connection string.
    pub uri: SecretString,
    /// Database name.
    pub name: String,
    /// Server selection timeout in milliseconds.
    pub server_selection_timeout_ms: u64,
}

/// Redis: the read index (feeds, counts, post cards) and whatever else needs state shared across
/// requests and nodes. One pool per process (`crate::redis_pool::Redis`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedisSettings {
    /// Connection string (`redis://host:port/db`, `rediss://` for TLS); empty: no Redis, reads go
    /// to the database. `REDIS_URL` overrides it.
    pub url: SecretString,
    /// Longest a command waits for Redis before the caller falls back to the database (ms).
    pub timeout_ms: u64,
    /// Connections in the pool (each is multiplexed).
    pub pool_size: usize,
}

/// Authentication settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthSettings {
    /// HS256 signing secret.
    pub jwt_secret: SecretString,
    /// Token lifetime in hours.
    pub token_ttl_hours: i64,
    /// Secure flag on the `jwt` cookie.
    pub cookie_secure: bool,
    /// One-time code lifetime in minutes.
    pub otp_ttl_minutes: i64,
    /// Wrong tries before a code dies.
    pub otp_max_attempts: i32,
    /// Google OAuth client id (empty: disabled).
    pub google_client_id: String,
    /// JWKS address for Google ID tokens.
    pub google_jwks_url: String,
}

/// Rate limits (per window).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimitSettings {
    pub window_seconds: u64,
    pub login_per_account: u32,
    pub login_per_address: u32,
    pub otp_send_per_account: u32,
    pub otp_send_per_address: u32,
    pub otp_check_per_account: u32,
    pub otp_check_per_address: u32,
    /// Contact messages per sender email address.
    pub contact_per_email: u32,
    /// Contact messages per client address.
    pub contact_per_address: u32,
    /// Post reports per account.
    pub report_per_account: u32,
    /// Window of the engagement limits, in seconds.
    pub engagement_window_seconds: u64,
    /// Each engagement write (like, bookmark, share, view, vote, comment, follow) per reader
    /// (signed-in user or guest) per engagement window.
    pub engagement_per_reader: u32,
    /// Each engagement write per client address per engagement window.
    pub engagement_per_address: u32,
    /// Tips a reader may make per engagement window.
    #[serde(default = "default_tips_per_reader")]
    pub tips_per_reader: u32,
    /// Requests one personal API key may make per engagement window (429 with Retry-After past
    /// it).
    #[serde(default = "default_api_key_requests")]
    pub api_key_requests: u32,
    /// Passkey ceremonies begun (options asked for: sign-in per client address, adding a passkey
    /// or a step-up per account), counted apart from sign-in attempts so that a sign-in page
    /// that offers passkey autofill on each load does not spend the password's allowance.
    #[serde(default = "default_passkey_ceremonies")]
    pub passkey_ceremonies: u32,
    /// Email-only subscriptions asked for one email address (confirmation mails sent to it).
    #[serde(default = "default_newsletter_per_email")]
    pub newsletter_per_email: u32,
    /// Email-only subscriptions asked from one client address.
    #[serde(default = "default_newsletter_per_address")]
    pub newsletter_per_address: u32,
}

fn default_passkey_ceremonies() -> u32 {
    200
}

fn default_newsletter_per_email() -> u32 {
    3
}

fn default_newsletter_per_address() -> u32 {
    10
}

impl RateLimitSettings {
    /// The same allowance of `per_window` for every kind, in windows of `window_seconds`.
    pub fn uniform(window_seconds: u64, per_window: u32) -> Self {
        Self {
            window_seconds,
            login_per_account: per_window,
            login_per_address: per_window,
            otp_send_per_account: per_window,
            otp_send_per_address: per_window,
            otp_check_per_account: per_window,
            otp_check_per_address: per_window,
            contact_per_email: per_window,
            contact_per_address: per_window,
            report_per_account: per_window,
            newsletter_per_email: per_window,
            newsletter_per_address: per_window,
            engagement_window_seconds: window_seconds,
            engagement_per_reader: per_window,
            engagement_per_address: per_window,
            tips_per_reader: per_window,
            api_key_requests: per_window,
            passkey_ceremonies: per_window,
        }
    }
}

/// Counting views, shares and reading time (`crate::counting`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CountingSettings {
    /// Distinct guest ids counted per client address per window; further guests from that
    /// address count as the address itself.
    pub guests_per_address: u32,
    /// The window of `guests_per_address`, in seconds.
    pub guest_window_seconds: u64,
    /// A reader's reading time on a post counts at most this many times the post's estimated
    /// reading time per view window (30 minutes), and never more than the window itself.
    pub reading_time_multiple: i64,
}

impl Default for CountingSettings {
    fn default() -> Self {
        Self {
            guests_per_address: 3,
            guest_window_seconds: 1800,
            reading_time_multiple: 3,
        }
    }
}

/// Outgoing mail.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailSettings {
    /// `file` or `smtp`.
    pub transport: MailTransportKind,
    pub outbox_dir: PathBuf,
    pub from: String,
    pub smtp_host: String,
    pub smtp_port: u16,
    pub smtp_security: SmtpSecurity,
    pub smtp_username: String,
    pub smtp_password: SecretString,
    pub max_attempts: u32,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MailTransportKind {
    File,
    Smtp,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SmtpSecurity {
    None,
    Starttls,
    Tls,
}

/// The Socket.IO endpoint.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RealtimeSettings {
    /// Server ping interval (ms).
    pub ping_interval_ms: u64,
    /// Time to answer a ping (ms).
    pub ping_timeout_ms: u64,
    /// Largest message or polling body (bytes).
    pub max_payload: usize,
    /// Time to connect to a namespace (ms).
    pub connect_timeout_ms: u64,
    /// CORS origins for polling (`*` for any).
    pub cors_origins: Vec<String>,
    /// Frames queued per slow client before it is dropped.
    pub outbound_queue: usize,
    /// Shortest gap between online-count broadcasts (ms).
    pub presence_coalesce_ms: u64,
}

impl RealtimeSettings {
    /// The actors crate's configuration.
    pub fn to_config(&self) -> pressroom_actors::RealtimeConfig {
        use std::time::Duration;
        pressroom_actors::RealtimeConfig {
            ping_interval: Duration::from_millis(self.ping_interval_ms),
            ping_timeout: Duration::from_millis(self.ping_timeout_ms),
            max_payload: self.max_payload,
            connect_timeout: Duration::from_millis(self.connect_timeout_ms),
            cors_origins: self.cors_origins.clone(),
            outbound_queue: self.outbound_queue,
            presence_coalesce: Duration::from_millis(self.presence_coalesce_ms),
            ..Default::default()
        }
    }
}

/// Taking part in a cluster of nodes (with Redis).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClusterSettings {
    /// This node's name, unique in the deployment and stable across restarts; empty: the
    /// host name and port.
    pub node_id: String,
    /// How long a node that stops refreshing its heartbeat keeps its sockets in the
    /// cluster's presence (ms); refreshed every third of it.
    pub heartbeat_ttl_ms: u64,
    /// Start of this node's Engine.IO session ids (letters, digits, `-`, `_`), for a load
    /// balancer that routes polling requests by `sid` (see docs/deploy.md); empty: none.
    pub sid_prefix: String,
}

/// Default heartbeat TTL of a node (ms).
pub const DEFAULT_HEARTBEAT_TTL_MS: u64 = 15_000;

impl Default for ClusterSettings {
    fn default() -> Self {
        Self {
            node_id: String::new(),
            heartbeat_ttl_ms: DEFAULT_HEARTBEAT_TTL_MS,
            sid_prefix: String::new(),
        }
    }
}

/// IP geolocation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeoIpSettings {
    /// The DB-IP City Lite database (MaxMind DB format); missing: every address is Unknown.
    pub database_path: PathBuf,
}

/// Map outlines.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeoJsonSettings {
    /// Directory holding world-atlas's `countries-50m.json` and `countries-110m.json`.
    pub directory: PathBuf,
}

/// The daily post email.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DailyMailSettings {
    /// Whether the server sends it by itself each day.
    pub enabled: bool,
    /// The hour (0-23, UTC) from which it is sent.
    pub hour_utc: u32,
    /// Most posts listed in one email (the rest are counted).
    pub max_posts: usize,
}

/// Money: the payment provider, fees, windows and the bank-details key.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentSettings {
    /// `local` (test mode: payments succeed at once, nothing real moves) or `stripe`.
    pub provider: PaymentProviderKind,
    /// Lets `local` run in production (a demonstration site); refused otherwise.
    pub allow_local_in_production: bool,
    /// Currencies plans may be priced in (ISO 4217, lowercase).
    pub currencies: Vec<String>,
    /// The platform's share of every charge, in percent (0 to 100).
    pub platform_fee_percent: f64,
    /// Smallest balance paid out, in minor units of its currency.
    pub min_payout: i64,
    /// Days after a charge during which its subscription may be refunded.
    pub refund_window_days: i64,
    /// A reader gets at most one refund per author within this many days (and never a second
    /// refund of the same plan).
    pub refund_per_author_days: i64,
    /// The largest tip, in minor units of its currency.
    #[serde(default = "default_tip_max_amount")]
    pub tip_max_amount: i64,
    /// Days a subscription whose renewal failed keeps access (past_due) before it ends.
    pub grace_days: i64,
    /// Readers are reminded when their renewal is due within this many days.
    pub reminder_days: i64,
    /// How often the renewal and reminder job runs, in seconds.
    pub job_interval_seconds: u64,
    /// Stripe secret key (`sk_test_...` or `sk_live_...`).
    pub stripe_secret_key: SecretString,
    /// Stripe API address (the official stripe-mock in tests).
    pub stripe_api_base: String,
    /// Secret that signs Stripe webhook events (`whsec_...`).
    pub stripe_webhook_secret: SecretString,
    /// How old a signed webhook event may be, in seconds.
    pub webhook_tolerance_seconds: i64,
    /// AES-256-GCM key for bank account numbers at rest: base64 of 32 bytes.
    pub bank_encryption_key: SecretString,
}

/// Which payment provider moves the money.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum PaymentProviderKind {
    Local,
    Stripe,
}

impl PaymentSettings {
    /// Refuses settings that would lose or fake money.
    pub(super) fn check(&self, environment: Environment) -> Result<(), ConfigError> {
        let production = environment == Environment::Production;
        if production
            && self.provider == PaymentProviderKind::Local
            && !self.allow_local_in_production
        {
            return Err(ConfigError::Invalid(
                "payments.provider is local (test mode) in production; set PRESSROOM__PAYMENTS__PROVIDER=stripe, or PRESSROOM__PAYMENTS__ALLOW_LOCAL_IN_PRODUCTION=true for a demonstration site".into(),
            ));
        }
        let key = self.bank_encryption_key.expose_secret();
        if production && key == DEFAULT_BANK_KEY {
            return Err(ConfigError::Invalid(
                "payments.bank_encryption_key still has its default value; set PRESSROOM__PAYMENTS__BANK_ENCRYPTION_KEY to the base64 of 32 random bytes before running in production".into(),
            ));
        }
        crate::cipher::BankCipher::from_base64(key)
            .map_err(|e| ConfigError::Invalid(format!("payments.bank_encryption_key: {e}")))?;
        if self.provider == PaymentProviderKind::Stripe {
            let secret = self.stripe_secret_key.expose_secret();
            if !(secret.starts_with("sk_test_")
                || secret.starts_with("sk_live_")
                || secret.starts_with("rk_"))
            {
                return Err(ConfigError::Invalid(
                    "payments.stripe_secret_key must be a Stripe secret key (sk_test_... or sk_live_...)".into(),
                ));
            }
            if self.stripe_webhook_secret.expose_secret().is_empty() {
                return Err(ConfigError::Invalid(
                    "payments.stripe_webhook_secret must be set when the provider is stripe".into(),
                ));
            }
        }
        if !(0.0..=100.0).contains(&self.platform_fee_percent) {
            return Err(ConfigError::Invalid(
                "payments.platform_fee_percent must be between 0 and 100".into(),
            ));
        }
        if self.currencies.is_empty()
            || self
                .currencies
                .iter()
                .any(|c| c.len() != 3 || !c.bytes().all(|b| b.is_ascii_lowercase()))
        {
            return Err(ConfigError::Invalid(
                "payments.currencies must list lowercase three-letter currency codes".into(),
            ));
        }
        if self.min_payout < 1
            || self.refund_window_days < 0
            || self.refund_per_author_days < 0
            || self.tip_max_amount < crate::domain::money::MIN_PRICE
            || self.grace_days < 0
            || self.reminder_days < 1
            || self.job_interval_seconds == 0
            || self.webhook_tolerance_seconds < 1
        {
            return Err(ConfigError::Invalid(
                "payments: tip_max_amount must be at least 50; min_payout, reminder_days, job_interval_seconds and webhook_tolerance_seconds must be positive; refund_window_days, refund_per_author_days and grace_days not negative".into(),
            ));
        }
        Ok(())
    }
}

/// Who may read `GET /metrics` (everyone else gets a 404): loopback and `trusted` addresses
/// connecting directly, and any request bearing `token` when one is set.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MetricsSettings {
    /// Bearer token that opens `/metrics` from anywhere; empty: no token is accepted.
    pub token: SecretString,
    /// Addresses (exact IPs, e.g. the Prometheus server's) allowed without the token.
    pub trusted: Vec<String>,
    /// Whether requests, database and Redis commands and realtime events are counted and timed
    /// (`false` only to measure what that costs: `/metrics` then shows gauges read at scrape
    /// time, and the counters stay at zero).
    pub enabled: bool,
}

/// Webhooks: deliveries of events to the endpoints people register (`services::webhooks`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WebhookSettings {
    /// Allows `http` endpoints on loopback addresses (tests only; production takes `https` to
    /// public addresses only).
    pub allow_loopback: bool,
    /// Seconds before each retry of a failed delivery (the Standard Webhooks schedule by
    /// default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).
    pub retry_schedule_seconds: Vec<u64>,
    /// Days an endpoint may fail every delivery before it is disabled and its owner told.
    pub disable_after_days: i64,
    /// Longest wait for an endpoint's answer (seconds).
    pub timeout_seconds: u64,
    /// How often the worker looks for due deliveries (milliseconds).
    pub poll_ms: u64,
    /// Endpoints one person may register.
    pub max_endpoints: u64,
    /// Days a finished delivery (its body and the endpoint's answer) is kept for the delivery
    /// log before it is removed.
    pub keep_deliveries_days: i64,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        WebhookSettings {
            allow_loopback: false,
            retry_schedule_seconds: vec![5, 300, 1800, 7200, 18000, 36000, 36000],
            disable_after_days: 5,
            timeout_seconds: 15,
            poll_ms: 1000,
            max_endpoints: 25,
            keep_deliveries_days: 30,
        }
    }
}

/// Writers' archives brought in from other platforms and feeds (`services::import`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ImportSettings {
    /// Lets image fetching and feed addresses reach loopback (tests only; production reaches
    /// public addresses only).
    pub allow_loopback: bool,
    /// Largest upload, in bytes (200 MB).
    pub max_upload_bytes: u64,
    /// Most bytes an archive's files may unpack to, all together.
    pub max_unpacked_bytes: u64,
    /// Most files an archive may hold.
    pub max_archive_files: usize,
    /// Largest image fetched, in bytes.
    pub max_image_bytes: u64,
    /// Largest feed fetched, in bytes.
    pub max_feed_bytes: u64,
    /// Longest wait for one image or feed, in seconds.
    pub fetch_timeout_seconds: u64,
    /// Images fetched at once.
    pub image_concurrency: usize,
    /// Where uploads are kept until their import ends (never served).
    pub dir: PathBuf,
    /// How often the worker looks for imports to read or write, in milliseconds.
    pub poll_ms: u64,
    /// Imports that take longer than this (seconds) end with an email as well as the live
    /// report.
    pub email_after_seconds: u64,
}

impl Default for ImportSettings {
    fn default() -> Self {
        ImportSettings {
            allow_loopback: false,
            max_upload_bytes: 200 * 1024 * 1024,
            max_unpacked_bytes: 2 * 1024 * 1024 * 1024,
            max_archive_files: 100_000,
            max_image_bytes: 20 * 1024 * 1024,
            max_feed_bytes: 20 * 1024 * 1024,
            fetch_timeout_seconds: 20,
            image_concurrency: 8,
            dir: PathBuf::from("data/imports"),
            poll_ms: 500,
            email_after_seconds: 120,
        }
    }
}

/// Accounts deleted by their owner (`POST /api/user/delete-account`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AccountSettings {
    /// Days between the request and the removal; signing in meanwhile cancels it.
    pub deletion_grace_days: i64,
    /// When above 0, the grace period in seconds instead of days (tests).
    pub deletion_grace_seconds: i64,
    /// How often the job worker looks for deletions whose grace period ended (seconds).
    pub deletion_check_seconds: u64,
    /// Directory of the data exports' ZIP files (not served as media).
    pub export_dir: PathBuf,
    /// How often the job worker looks for exports to build (seconds).
    pub export_check_seconds: u64,
}

impl Default for AccountSettings {
    fn default() -> Self {
        AccountSettings {
            deletion_grace_days: 14,
            deletion_grace_seconds: 0,
            deletion_check_seconds: 60,
            export_dir: PathBuf::from("data/exports"),
            export_check_seconds: 5,
        }
    }
}

impl AccountSettings {
    /// The grace period.
    pub fn grace(&self) -> chrono::Duration {
        if self.deletion_grace_seconds > 0 {
            chrono::Duration::seconds(self.deletion_grace_seconds)
        } else {
            chrono::Duration::days(self.deletion_grace_days.max(0))
        }
    }
}

impl Default for MetricsSettings {
    fn default() -> Self {
        MetricsSettings {
            token: SecretString::from(String::new()),
            trusted: Vec::new(),
            enabled: true,
        }
    }
}

/// The in-process cache of signed-out readers' answers (`guest_cache`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GuestCacheSettings {
    /// Whether guests' public lists, posts, counts, pages and feeds are served from memory
    /// (`false`: every request is computed, as signed-in ones are).
    pub enabled: bool,
    /// Longest life of an answer, the bound on staleness when a node misses another node's
    /// invalidation (kept under a second).
    pub max_age_ms: u64,
    /// Answers kept at most.
    pub max_entries: usize,
}

impl Default for GuestCacheSettings {
    fn default() -> Self {
        GuestCacheSettings {
            enabled: true,
            max_age_ms: 500,
            max_entries: 20_000,
        }
    }
}

/// Logging.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogSettings {
    /// `pretty` or `json`.
    pub format: LogFormat,
    /// Default filter when `RUST_LOG` is unset.
    pub level: String,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Pretty,
    Json,
}

fn default_api_key_requests() -> u32 {
    600
}

fn default_tips_per_reader() -> u32 {
    5
}

fn default_tip_max_amount() -> i64 {
    50_000
}

/// Post revisions (`services::revisions`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RevisionSettings {
    /// Revisions kept per post, oldest dropped first; published states and pinned evidence are
    /// never dropped and not counted.
    pub keep: u64,
    /// Shortest time between two autosave revisions of one post (seconds).
    pub autosave_every_seconds: i64,
    /// Edits this soon after publication (seconds) are not shown to readers as "Edited".
    pub edited_grace_seconds: i64,
}

impl Default for RevisionSettings {
    fn default() -> Self {
        RevisionSettings {
            keep: 25,
            autosave_every_seconds: 600,
            edited_grace_seconds: 600,
        }
    }
}

/// Web Push to people's devices (`services::push`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PushSettings {
    /// Allows `http` push endpoints on loopback addresses (tests only; production takes `https`
    /// endpoints at public addresses only).
    pub allow_insecure_endpoints: bool,
    /// The contact the push services may reach (the VAPID `sub` claim): a `mailto:` or `https:`
    /// address. Empty: `mailto:` and the mail sender's address.
    pub subject: String,
    /// The VAPID private key (base64url of the 32-byte P-256 scalar). Empty: one is made on the
    /// first start and kept in the store.
    pub vapid_private_key: String,
    /// Devices one person may register.
    pub max_devices: u64,
    /// Seconds a push service keeps an undelivered message (the `TTL` header).
    pub ttl_seconds: u64,
    /// Seconds before each retry of a delivery the push service refused for now (5xx, 429).
    pub retry_schedule_seconds: Vec<u64>,
    /// Longest wait for a push service's answer (seconds).
    pub timeout_seconds: u64,
    /// How often the worker looks for due deliveries when nothing woke it (milliseconds).
    pub poll_ms: u64,
    /// Deliveries one node sends at once.
    pub parallel: usize,
    /// Seconds between two pushes about likes of one post to one person.
    pub like_batch_seconds: i64,
    /// Seconds the new-post email to a follower with `instant` alerts who was pushed the post is
    /// held back: it goes only if they have not opened the post by then (0: never held).
    pub email_hold_seconds: i64,
}

impl Default for PushSettings {
    fn default() -> Self {
        PushSettings {
            allow_insecure_endpoints: false,
            subject: String::new(),
            vapid_private_key: String::new(),
            max_devices: 20,
            ttl_seconds: 86_400,
            retry_schedule_seconds: vec![5, 30, 120, 600, 3600],
            timeout_seconds: 15,
            poll_ms: 1000,
            parallel: 32,
            like_batch_seconds: 3600,
            email_hold_seconds: 600,
        }
    }
}
