//! The app under test: `spawn_app()` and its options, the `TestApp` every test drives (its
//! database dropped and its answers held to the OpenAPI document when it goes away), and what an
//! operator does to a running app (waiting for its indexes, rebuilding its read index).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pressroom::config::{Environment, MailTransportKind, Settings, SmtpSecurity};
use pressroom::persistence::Db;
use pressroom::startup::Application;

use super::contract;
use super::proxy::DbProxy;
use super::store_cost::CommandRecorder;

pub fn required_env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!("{name} is not set: run the tests through scripts/test, which starts FerretDB and the SMTP sink")
    })
}

/// A change to the settings before the app is built.
pub type Tweak = Box<dyn FnOnce(&mut Settings)>;

/// Options for a test app.
#[derive(Default)]
pub struct AppOptions {
    /// Put a switchable TCP proxy between the app and the database.
    pub db_proxy: bool,
    /// Put a proxy that records every command between the app and the database
    /// (`TestApp::read_costs`).
    pub record_commands: bool,
    /// Put a switchable TCP proxy between the app and Redis.
    pub redis_proxy: bool,
    /// Run without Redis (reads go to the database).
    pub without_redis: bool,
    /// JWKS address for Google sign-in.
    pub google_jwks_url: Option<String>,
    /// Change the settings before the app is built.
    pub tweak: Option<Tweak>,
}

pub struct TestApp {
    pub address: String,
    pub db: Db,
    pub db_name: String,
    pub client: reqwest::Client,
    pub maildir: PathBuf,
    pub proxy: Option<DbProxy>,
    pub redis_proxy: Option<DbProxy>,
    pub recorder: Option<CommandRecorder>,
    pub settings: Settings,
    /// The running app's shared state (its read index, its Redis; jobs can be run from tests).
    pub state: actix_web::web::Data<pressroom::state::AppState>,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(AppOptions::default()).await
}

/// An app whose engagement rate limits let a test fire many simultaneous writes by one user (the
/// tests of races, not of the limits).
pub async fn spawn_app_bursting() -> TestApp {
    spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut Settings| {
            s.rate_limit.engagement_per_reader = 100_000;
            s.rate_limit.engagement_per_address = 100_000;
        })),
        ..AppOptions::default()
    })
    .await
}

pub async fn spawn_app_with(options: AppOptions) -> TestApp {
    let db_uri = required_env("PRESSROOM_TEST_MONGODB_URI");
    let smtp_port: u16 = required_env("PRESSROOM_TEST_SMTP_PORT")
        .parse()
        .expect("SMTP port");
    let maildir = PathBuf::from(required_env("PRESSROOM_TEST_MAILDIR"));
    let config_dir = Path::new(
        &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into()),
    )
    .join("config");
    let mut settings =
        Settings::load_from(&config_dir, Environment::Test, false).expect("settings");
    let db_name = format!("test_{}", uuid::Uuid::new_v4().simple());

    let redis_url = required_env("PRESSROOM_TEST_REDIS_URL");
    let proxy = if options.db_proxy {
        Some(DbProxy::start(&db_uri).await)
    } else {
        None
    };
    let redis_proxy = if options.redis_proxy {
        Some(DbProxy::start(&redis_url).await)
    } else {
        None
    };
    let app_redis_url = match (&redis_proxy, options.without_redis) {
        (_, true) => String::new(),
        (Some(p), false) => format!("redis://127.0.0.1:{}/", p.port),
        (None, false) => redis_url.clone(),
    };
    let recorder = if options.record_commands {
        Some(CommandRecorder::start(&db_uri).await)
    } else {
        None
    };
    let app_db_uri = match (&proxy, &recorder) {
        (Some(p), _) => format!("mongodb://127.0.0.1:{}/", p.port),
        (None, Some(r)) => format!("mongodb://127.0.0.1:{}/", r.port),
        (None, None) => db_uri.clone(),
    };
    settings.server.port = 0;
    settings.server.static_dir = PathBuf::from("/nonexistent-web-dist");
    settings.server.media_dir = std::env::temp_dir().join(&db_name).join("media");
    settings.accounts.export_dir = std::env::temp_dir().join(&db_name).join("exports");
    settings.import.dir = std::env::temp_dir().join(&db_name).join("imports");
    settings.database.uri = app_db_uri.into();
    settings.database.name = db_name.clone();
    settings.redis.url = app_redis_url.into();
    settings.mail.transport = MailTransportKind::Smtp;
    settings.mail.smtp_host = "127.0.0.1".into();
    settings.mail.smtp_port = smtp_port;
    settings.mail.smtp_security = SmtpSecurity::None;
    settings.auth.google_client_id = "pressroom-test-client".into();
    if let Some(url) = options.google_jwks_url {
        settings.auth.google_jwks_url = url;
    }
    if let Some(tweak) = options.tweak {
        tweak(&mut settings);
    }
    pressroom::telemetry::init(&settings.log);
    contract::install();

    let app = Application::build(settings.clone())
        .await
        .expect("app builds");
    let port = app.port();
    let state = app.state();
    tokio::spawn(app.run_until_stopped());

    let mut direct = settings.database.clone();
    direct.uri = db_uri.into();
    // Writes the tests make directly are reported to the app's read index and guest cache, as
    // the app's own are.
    let db = Db::connect(&direct)
        .await
        .expect("db client")
        .with_observer(std::sync::Arc::new(pressroom::guest_cache::Observer {
            feeds: state.feeds.clone(),
            cache: state.guest_cache.clone(),
        }));
    // Idle connections are let go well before the server's 5 s keep-alive ends them, so a request
    // never goes out on a connection the server is closing at that moment.
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .pool_idle_timeout(Duration::from_secs(2))
        .build()
        .unwrap();
    TestApp {
        address: format!("http://127.0.0.1:{port}"),
        db,
        db_name,
        client,
        maildir,
        proxy,
        redis_proxy,
        recorder,
        settings,
        state,
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        // Every answer this app gave must match the OpenAPI document.
        let port: u16 = self
            .address
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        let violations = contract::take_violations(port);
        let uri = required_env("PRESSROOM_TEST_MONGODB_URI");
        let redis_url = required_env("PRESSROOM_TEST_REDIS_URL");
        let name = self.db_name.clone();
        // The test's runtime is going away; drop the database from a runtime of our own.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                if let Ok(client) = mongodb::Client::with_uri_str(&uri).await {
                    let _ =
                        tokio::time::timeout(Duration::from_secs(5), client.database(&name).drop())
                            .await;
                }
                let _ = tokio::time::timeout(
                    Duration::from_secs(5),
                    drop_redis_keys(&redis_url, &format!("{name}:")),
                )
                .await;
            });
        })
        .join();
        if !violations.is_empty() && !std::thread::panicking() {
            panic!(
                "answers that do not match the OpenAPI document:\n{}",
                violations.join("\n")
            );
        }
    }
}

/// Removes every Redis key of a test's namespace.
pub async fn drop_redis_keys(url: &str, prefix: &str) {
    use deadpool_redis::redis::{self, AsyncCommands};
    let Ok(client) = redis::Client::open(url) else {
        return;
    };
    let Ok(mut conn) = client.get_multiplexed_async_connection().await else {
        return;
    };
    let keys: Vec<String> = {
        let Ok(mut iter) = conn.scan_match::<_, String>(format!("{prefix}*")).await else {
            return;
        };
        let mut keys = Vec::new();
        while let Some(Ok(key)) = futures_util::StreamExt::next(&mut iter).await {
            keys.push(key);
        }
        keys
    };
    for chunk in keys.chunks(500) {
        let _: Result<(), _> = conn.unlink(chunk).await;
    }
}

/// An app that trusts `X-Forwarded-For` from the test client (127.0.0.1), so tests choose the
/// client address the IP database sees.
pub async fn spawn_live_app() -> TestApp {
    spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut Settings| {
            s.server.trusted_proxies = vec!["127.0.0.1".into()];
        })),
        ..AppOptions::default()
    })
    .await
}

/// Addresses the test IP database knows (tests/fixtures/make_geoip_fixture.py).
pub const IP_MUMBAI: &str = "49.36.10.20";
pub const IP_LONDON: &str = "81.2.69.160";
pub const IP_BERLIN: &str = "89.160.20.112";

impl TestApp {
    /// Where the app keeps its imports' uploads.
    pub fn import_dir(&self) -> PathBuf {
        std::env::temp_dir().join(&self.db_name).join("imports")
    }

    /// Waits until the startup index creation has made the unique index `name` on `collection`
    /// (toggles rely on it).
    pub async fn wait_for_index(&self, collection: &str, name: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let names = self
                .db
                .database()
                .collection::<mongodb::bson::Document>(collection)
                .list_index_names()
                .await
                .unwrap_or_default();
            if names.iter().any(|n| n == name) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "index {name} on {collection} never appeared"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Rebuilds the read index as an operator does (`scripts/cli index rebuild`), waits until this
    /// server has switched to the new generation, and returns the command's report line.
    pub async fn rebuild_index(&self) -> String {
        let before = self.state.feeds.current().unwrap().number;
        let mut settings = self.settings.clone();
        settings.redis.url = required_env("PRESSROOM_TEST_REDIS_URL").into();
        settings.database.uri = required_env("PRESSROOM_TEST_MONGODB_URI").into();
        let line = pressroom::cli::run_index(&settings, pressroom::cli::IndexAction::Rebuild)
            .await
            .unwrap();
        assert!(line.starts_with("read index rebuilt"), "{line}");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while self
            .state
            .feeds
            .current()
            .is_none_or(|g| g.number == before)
        {
            assert!(
                std::time::Instant::now() < deadline,
                "the server did not switch to the rebuilt index"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        line
    }
}
