//! Layered configuration: `config/default.toml`, then `config/<environment>.toml`, then
//! `PRESSROOM__SECTION__KEY` environment variables. `MONGODB_URI` overrides `database.uri`.

use std::path::{Path, PathBuf};

use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

/// The signing secret shipped in `config/default.toml`; refused in production.
pub const DEFAULT_JWT_SECRET: &str = "pressroom-development-secret-change-me";
/// The bank-details encryption key shipped in `config/default.toml` (base64 of 32 bytes); refused
/// in production.
pub const DEFAULT_BANK_KEY: &str = "cHJlc3Nyb29tLWRldmVsb3BtZW50LWJhbmsta2V5ISE=";

/// Where the server runs: selects `config/<environment>.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Environment {
    Development,
    Test,
    Production,
}

impl Environment {
    pub fn as_str(self) -> &'static str {
        match self {
            Environment::Development => "development",
            Environment::Test => "test",
            Environment::Production => "production",
        }
    }

    /// Reads `PRESSROOM_ENV` (default `development`).
    pub fn from_env() -> Result<Self, ConfigError> {
        let raw = std::env::var("PRESSROOM_ENV").unwrap_or_else(|_| "development".into());
        Self::parse(&raw)
    }

    pub fn parse(raw: &str) -> Result<Self, ConfigError> {
        match raw.trim().to_lowercase().as_str() {
            "development" | "dev" | "local" => Ok(Environment::Development),
            "test" => Ok(Environment::Test),
            "production" | "prod" => Ok(Environment::Production),
            other => Err(ConfigError::Invalid(format!(
                "PRESSROOM_ENV must be development, test or production, not '{other}'"
            ))),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration could not be loaded: {0}")]
    Load(#[from] config::ConfigError),
    #[error("invalid configuration: {0}")]
    Invalid(String),
}

/// All settings of one server process.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub redis: RedisSettings,
    pub auth: AuthSettings,
    pub rate_limit: RateLimitSettings,
    /// Who is counted for views, shares and reading time (`crate::counting`).
    #[serde(default)]
    pub counting: CountingSettings,
    pub mail: MailSettings,
    pub realtime: RealtimeSettings,
    /// Several nodes over one Redis (used only when Redis is configured).
    #[serde(default)]
    pub cluster: ClusterSettings,
    pub geoip: GeoIpSettings,
    pub geojson: GeoJsonSettings,
    pub daily_mail: DailyMailSettings,
    pub payments: PaymentSettings,
    pub log: LogSettings,
    /// Who may read `GET /metrics`.
    #[serde(default)]
    pub metrics: MetricsSettings,
    #[serde(default)]
    pub guest_cache: GuestCacheSettings,
    /// Accounts deleted by their owner.
    #[serde(default)]
    pub accounts: AccountSettings,
    /// Filled from `PRESSROOM_ENV`, not from files.
    #[serde(skip, default = "default_environment")]
    pub environment: Option<Environment>,
}

fn default_environment() -> Option<Environment> {
    None
}

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
    /// Email-only subscriptions asked for one email address (confirmation mails sent to it).
    #[serde(default = "default_newsletter_per_email")]
    pub newsletter_per_email: u32,
    /// Email-only subscriptions asked from one client address.
    #[serde(default = "default_newsletter_per_address")]
    pub newsletter_per_address: u32,
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
    fn check(&self, environment: Environment) -> Result<(), ConfigError> {
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
        crate::payments::cipher::BankCipher::from_base64(key)
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
            || self.grace_days < 0
            || self.reminder_days < 1
            || self.job_interval_seconds == 0
            || self.webhook_tolerance_seconds < 1
        {
            return Err(ConfigError::Invalid(
                "payments: min_payout, reminder_days, job_interval_seconds and webhook_tolerance_seconds must be positive; refund_window_days, refund_per_author_days and grace_days not negative".into(),
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

impl Settings {
    /// Loads settings for the environment named by `PRESSROOM_ENV` from `PRESSROOM_CONFIG_DIR`
    /// (default `./config`), then applies environment overrides and checks them.
    pub fn load() -> Result<Self, ConfigError> {
        let environment = Environment::from_env()?;
        let dir = std::env::var("PRESSROOM_CONFIG_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|_| PathBuf::from("config"));
        Self::load_from(&dir, environment, true)
    }

    /// Loads settings from `dir` for `environment`; `with_env` applies environment variables.
    pub fn load_from(
        dir: &Path,
        environment: Environment,
        with_env: bool,
    ) -> Result<Self, ConfigError> {
        let mut builder = config::Config::builder()
            .add_source(config::File::from(dir.join("default.toml")))
            .add_source(
                config::File::from(dir.join(format!("{}.toml", environment.as_str())))
                    .required(false),
            );
        if with_env {
            builder = builder.add_source(
                config::Environment::with_prefix("PRESSROOM")
                    .prefix_separator("__")
                    .separator("__")
                    .list_separator(",")
                    .with_list_parse_key("server.trusted_proxies")
                    .with_list_parse_key("realtime.cors_origins")
                    .with_list_parse_key("payments.currencies")
                    .with_list_parse_key("metrics.trusted")
                    .try_parsing(true),
            );
            if let Ok(uri) = std::env::var("MONGODB_URI") {
                if !uri.trim().is_empty() {
                    builder = builder.set_override("database.uri", uri)?;
                }
            }
            if let Ok(url) = std::env::var("REDIS_URL") {
                builder = builder.set_override("redis.url", url.trim())?;
            }
        }
        let mut settings: Settings = builder.build()?.try_deserialize()?;
        settings.environment = Some(environment);
        settings.check()?;
        Ok(settings)
    }

    pub fn environment(&self) -> Environment {
        self.environment.unwrap_or(Environment::Development)
    }

    /// Refuses settings that would run an unsafe or broken server.
    pub fn check(&self) -> Result<(), ConfigError> {
        let secret = self.auth.jwt_secret.expose_secret();
        if self.environment() == Environment::Production && secret == DEFAULT_JWT_SECRET {
            return Err(ConfigError::Invalid(
                "auth.jwt_secret still has its default value; set PRESSROOM__AUTH__JWT_SECRET to a long random secret before running in production".into(),
            ));
        }
        if secret.len() < 16 {
            return Err(ConfigError::Invalid(
                "auth.jwt_secret must be at least 16 characters".into(),
            ));
        }
        if self.auth.token_ttl_hours <= 0 {
            return Err(ConfigError::Invalid(
                "auth.token_ttl_hours must be positive".into(),
            ));
        }
        if self.auth.otp_ttl_minutes <= 0 || self.auth.otp_max_attempts <= 0 {
            return Err(ConfigError::Invalid(
                "auth.otp_ttl_minutes and auth.otp_max_attempts must be positive".into(),
            ));
        }
        if self.rate_limit.window_seconds == 0 || self.rate_limit.engagement_window_seconds == 0 {
            return Err(ConfigError::Invalid(
                "rate_limit.window_seconds must be positive".into(),
            ));
        }
        let redis_url = self.redis.url.expose_secret().trim();
        let known_scheme = ["redis://", "rediss://", "unix://"]
            .iter()
            .any(|scheme| redis_url.starts_with(scheme));
        if !redis_url.is_empty() && !known_scheme {
            return Err(ConfigError::Invalid(
                "redis.url must start with redis://, rediss:// or unix:// (or be empty)".into(),
            ));
        }
        if self.redis.timeout_ms == 0 || self.redis.pool_size == 0 {
            return Err(ConfigError::Invalid(
                "redis.timeout_ms and redis.pool_size must be positive".into(),
            ));
        }
        if self.server.body_limit < 1024 {
            return Err(ConfigError::Invalid(
                "server.body_limit must be at least 1024 bytes".into(),
            ));
        }
        if self.daily_mail.hour_utc > 23 || self.daily_mail.max_posts == 0 {
            return Err(ConfigError::Invalid(
                "daily_mail.hour_utc must be 0 to 23 and daily_mail.max_posts positive".into(),
            ));
        }
        if !(self.server.public_url.starts_with("http://")
            || self.server.public_url.starts_with("https://"))
        {
            return Err(ConfigError::Invalid(
                "server.public_url must be an http(s) address".into(),
            ));
        }
        self.payments.check(self.environment())?;
        for address in &self.metrics.trusted {
            address.parse::<std::net::IpAddr>().map_err(|_| {
                ConfigError::Invalid(format!("metrics.trusted: '{address}' is not an IP address"))
            })?;
        }
        for proxy in &self.server.trusted_proxies {
            proxy.parse::<std::net::IpAddr>().map_err(|_| {
                ConfigError::Invalid(format!(
                    "server.trusted_proxies: '{proxy}' is not an IP address"
                ))
            })?;
        }
        Ok(())
    }

    /// An absolute address on the site for `path` (starting with `/`).
    pub fn public_link(&self, path: &str) -> String {
        format!("{}{path}", self.server.public_url.trim_end_matches('/'))
    }

    /// The trusted proxy addresses, parsed.
    pub fn trusted_proxies(&self) -> Vec<std::net::IpAddr> {
        self.server
            .trusted_proxies
            .iter()
            .filter_map(|p| p.parse().ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config")
    }

    #[test]
    fn the_shipped_files_load_for_every_environment_but_production_needs_a_secret() {
        assert!(Settings::load_from(&dir(), Environment::Development, false).is_ok());
        assert!(Settings::load_from(&dir(), Environment::Test, false).is_ok());
        let err = Settings::load_from(&dir(), Environment::Production, false).unwrap_err();
        assert!(err.to_string().contains("jwt_secret"), "{err}");
    }

    #[test]
    fn secrets_are_not_printed() {
        let s = Settings::load_from(&dir(), Environment::Development, false).unwrap();
        let printed = format!("{s:?}");
        assert!(!printed.contains(DEFAULT_JWT_SECRET));
    }

    #[test]
    fn an_unknown_key_is_refused() {
        let tmp = std::env::temp_dir().join(format!("pressroom-config-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        let mut text = std::fs::read_to_string(dir().join("default.toml")).unwrap();
        text = text.replacen("[server]", "[server]\nno_such_key = 1", 1);
        std::fs::write(tmp.join("default.toml"), text).unwrap();
        let err = Settings::load_from(&tmp, Environment::Development, false).unwrap_err();
        assert!(err.to_string().contains("no_such_key"), "{err}");
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    #[test]
    fn production_refuses_local_payments_and_the_default_bank_key_unless_allowed() {
        let mut s = Settings::load_from(&dir(), Environment::Development, false).unwrap();
        s.environment = Some(Environment::Production);
        s.auth.jwt_secret = "a-long-production-secret-value".to_string().into();
        let err = s.check().unwrap_err().to_string();
        assert!(err.contains("payments.provider is local"), "{err}");
        s.payments.allow_local_in_production = true;
        let err = s.check().unwrap_err().to_string();
        assert!(err.contains("bank_encryption_key"), "{err}");
        s.payments.bank_encryption_key = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
            .to_string()
            .into();
        assert!(s.check().is_ok());
    }

    #[test]
    fn the_stripe_provider_needs_a_secret_key_and_a_webhook_secret() {
        let mut s = Settings::load_from(&dir(), Environment::Development, false).unwrap();
        s.payments.provider = PaymentProviderKind::Stripe;
        assert!(s.check().is_err());
        s.payments.stripe_secret_key = "sk_test_123".to_string().into();
        assert!(s.check().unwrap_err().to_string().contains("webhook"));
        s.payments.stripe_webhook_secret = "whsec_test".to_string().into();
        assert!(s.check().is_ok());
    }

    #[test]
    fn an_unknown_environment_is_refused() {
        assert!(Environment::parse("staging").is_err());
    }
}
