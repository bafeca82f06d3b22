//! Layered configuration: `config/default.toml`, then `config/<environment>.toml`, then
//! `PRESSROOM__SECTION__KEY` environment variables. `MONGODB_URI` overrides `database.uri`.

use std::path::{Path, PathBuf};

use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

mod sections;
pub use sections::*;

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
    /// Deliveries of events to registered webhook endpoints.
    #[serde(default)]
    pub webhooks: WebhookSettings,
    /// Archives brought in from other platforms and feeds.
    #[serde(default)]
    pub import: ImportSettings,
    /// Post revisions: how many are kept, how often autosaves become one.
    #[serde(default)]
    pub revisions: RevisionSettings,
    /// Web Push to people's devices.
    #[serde(default)]
    pub push: PushSettings,
    /// Filled from `PRESSROOM_ENV`, not from files.
    #[serde(skip, default = "default_environment")]
    pub environment: Option<Environment>,
}

fn default_environment() -> Option<Environment> {
    None
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
                    .with_list_parse_key("webhooks.retry_schedule_seconds")
                    .with_list_parse_key("push.retry_schedule_seconds")
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
        if self.environment() == Environment::Production && self.import.allow_loopback {
            return Err(ConfigError::Invalid(
                "import.allow_loopback lets imports fetch from this machine; it is for tests only and refused in production".into(),
            ));
        }
        if self.environment() == Environment::Production && self.webhooks.allow_loopback {
            return Err(ConfigError::Invalid(
                "webhooks.allow_loopback lets webhooks reach this machine over http; it is for tests only and refused in production".into(),
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
        PathBuf::from(
            &std::env::var("CARGO_MANIFEST_DIR")
                .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into()),
        )
        .join("config")
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
        // Webhooks to this machine over http are for tests only.
        s.webhooks.allow_loopback = true;
        let err = s.check().unwrap_err().to_string();
        assert!(err.contains("webhooks.allow_loopback"), "{err}");
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
