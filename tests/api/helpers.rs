//! `spawn_app()` and the typed helpers every test uses.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pressroom::config::{Environment, MailTransportKind, Settings, SmtpSecurity};
use pressroom::persistence::Db;
use pressroom::startup::Application;
use reqwest::{Response, StatusCode};
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

pub const PASSWORD: &str = "correct horse battery";

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
    let config_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("config");
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
    let app_db_uri = match &proxy {
        Some(p) => format!("mongodb://127.0.0.1:{}/", p.port),
        None => db_uri.clone(),
    };
    settings.server.port = 0;
    settings.server.static_dir = PathBuf::from("/nonexistent-web-dist");
    settings.server.media_dir = std::env::temp_dir().join(&db_name).join("media");
    settings.accounts.export_dir = std::env::temp_dir().join(&db_name).join("exports");
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
    crate::contract::install();

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
        let violations = crate::contract::take_violations(port);
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

/// A signed-up user.
#[derive(Debug, Clone)]
pub struct TestUser {
    pub id: String,
    pub email: String,
    pub token: String,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn post_json(&self, path: &str, body: &Value, token: Option<&str>) -> Response {
        let mut req = self.client.post(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn post_raw(&self, path: &str, body: &str, token: Option<&str>) -> Response {
        let mut req = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn patch_json(&self, path: &str, body: &Value, token: Option<&str>) -> Response {
        let mut req = self.client.patch(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn signup_raw(
        &self,
        name: &str,
        email: &str,
        password: &str,
        send_email: bool,
    ) -> Response {
        self.post_json(
            "/api/auth/signup",
            &json!({ "fullName": name, "email": email, "password": password, "sendEmail": send_email }),
            None,
        )
        .await
    }

    /// Signs up a fresh user with a unique email.
    pub async fn signup(&self) -> TestUser {
        let email = unique_email();
        self.signup_as(&email).await
    }

    pub async fn signup_as(&self, email: &str) -> TestUser {
        let res = self
            .signup_raw("Ada Lovelace", email, PASSWORD, false)
            .await;
        assert_eq!(res.status(), StatusCode::CREATED, "signup of {email}");
        let body: Value = res.json().await.unwrap();
        TestUser {
            id: body["_id"].as_str().unwrap().to_string(),
            email: email.to_lowercase(),
            token: body["token"].as_str().unwrap().to_string(),
        }
    }

    pub async fn login(&self, email: &str, password: &str) -> Response {
        self.post_json(
            "/api/auth/login",
            &json!({ "email": email, "password": password }),
            None,
        )
        .await
    }

    /// Waits for the newest message to `to` in the SMTP sink and returns its whole text.
    pub async fn wait_for_mail(&self, to: &str, newer_than: usize) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let mails = mails_to(&self.maildir, to);
            if mails.len() > newer_than {
                return mails.last().cloned().unwrap();
            }
            assert!(Instant::now() < deadline, "no mail to {to} arrived");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub fn mail_count(&self, to: &str) -> usize {
        mails_to(&self.maildir, to).len()
    }

    /// Asks for a code and returns it from the mail.
    pub async fn verification_code(&self, user: &TestUser) -> String {
        let before = self.mail_count(&user.email);
        let res = self
            .post_json(
                "/api/auth/send-verify-otp",
                &json!({ "userId": user.id }),
                Some(&user.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        code_in(&self.wait_for_mail(&user.email, before).await)
    }

    pub async fn reset_code(&self, email: &str) -> String {
        let before = self.mail_count(email);
        let res = self
            .post_json("/api/auth/send-reset-otp", &json!({ "email": email }), None)
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        code_in(&self.wait_for_mail(email, before).await)
    }

    /// Makes a user an administrator the way an operator does.
    pub async fn make_admin(&self, email: &str) {
        use pressroom::cli::{run_admin, AdminAction, Command};
        let mut settings = self.settings.clone();
        settings.database.uri = required_env("PRESSROOM_TEST_MONGODB_URI").into();
        run_admin(
            &settings,
            Command::Admin {
                action: AdminAction::Grant {
                    email: email.into(),
                },
            },
        )
        .await
        .expect("grant admin");
    }
}

/// The route's path with each `{param}` replaced by a fresh object id (nobody's object).
pub fn concrete(path: &str) -> String {
    let id = mongodb::bson::oid::ObjectId::new().to_hex();
    path.split('/')
        .map(|seg| {
            if seg.starts_with('{') {
                id.as_str()
            } else {
                seg
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

pub fn unique_email() -> String {
    format!("user-{}@example.com", uuid::Uuid::new_v4().simple())
}

/// Messages in the Maildir addressed to `to`, oldest first.
fn mails_to(maildir: &Path, to: &str) -> Vec<String> {
    let mut found: Vec<(std::time::SystemTime, String)> = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(entries) = std::fs::read_dir(maildir.join(sub)) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            let addressed = text.lines().take_while(|l| !l.is_empty()).any(|l| {
                l.to_ascii_lowercase().starts_with("to:")
                    && l.to_ascii_lowercase().contains(&to.to_ascii_lowercase())
            });
            if addressed {
                let at = entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                found.push((at, text));
            }
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, t)| t).collect()
}

/// The six-digit code in a message.
pub fn code_in(mail: &str) -> String {
    let marker = "code is ";
    let start = mail.find(marker).expect("a code in the mail") + marker.len();
    let code: String = mail[start..].chars().take(6).collect();
    assert!(code.chars().all(|c| c.is_ascii_digit()), "code {code}");
    code
}

pub async fn json_of(res: Response) -> Value {
    res.json().await.expect("a JSON body")
}

/// Asserts the status and the `{message, code}` error shape; returns the message.
pub async fn assert_error(res: Response, status: StatusCode) -> String {
    assert_eq!(res.status(), status);
    let body = json_of(res).await;
    assert!(body["code"].is_string(), "error without a code: {body}");
    body["message"].as_str().expect("error message").to_string()
}

/// A TCP proxy in front of the database (or Redis) that can be switched off (dropping every connection) and
/// back on.
pub struct DbProxy {
    pub port: u16,
    up: Arc<AtomicBool>,
    generation: watch::Sender<u64>,
}

impl DbProxy {
    /// A proxy to the host and port of `uri` (`mongodb://`, `redis://` or `http://`).
    pub async fn start(uri: &str) -> DbProxy {
        let target = uri
            .trim_start_matches("mongodb://")
            .trim_start_matches("redis://")
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let up = Arc::new(AtomicBool::new(true));
        let (generation, _) = watch::channel(0u64);
        let gen_rx = generation.subscribe();
        let up2 = up.clone();
        tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else {
                    return;
                };
                if !up2.load(Ordering::SeqCst) {
                    drop(inbound);
                    continue;
                }
                let target = target.clone();
                let mut gen_rx = gen_rx.clone();
                tokio::spawn(async move {
                    // Only a switch-off after this connection opened should end it.
                    gen_rx.borrow_and_update();
                    let Ok(mut outbound) = TcpStream::connect(&target).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = gen_rx.changed() => {}
                    }
                });
            }
        });
        DbProxy {
            port,
            up,
            generation,
        }
    }

    pub fn set_up(&self, up: bool) {
        self.up.store(up, Ordering::SeqCst);
        if !up {
            self.generation.send_modify(|g| *g += 1);
        }
    }
}

impl TestApp {
    pub async fn put_json(&self, path: &str, body: &Value, token: Option<&str>) -> Response {
        let mut req = self.client.put(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn delete_path(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.delete(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    /// POST without a body.
    pub async fn post_empty(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.post(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
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

    /// `post_json` with owned arguments, for many requests at once.
    pub async fn post_owned(&self, path: String, body: Value, token: Option<String>) -> Response {
        self.post_json(&path, &body, token.as_deref()).await
    }

    /// Signs up `n` users at once.
    /// A guest id issued by the server (what a guest's first visit gets).
    pub async fn guest_id(&self) -> String {
        let res = self.post_raw("/api/public/guest/visit", "", None).await;
        assert_eq!(res.status(), StatusCode::OK);
        json_of(res).await["guest"]["guestId"]
            .as_str()
            .unwrap()
            .to_string()
    }

    pub async fn signup_many(&self, n: usize) -> Vec<TestUser> {
        futures_util::future::join_all((0..n).map(|_| self.signup())).await
    }
}

// Live features: notifications, banners, locations, feedback, guest visits.

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
    pub async fn delete(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.delete(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    /// A request that comes from `ip` through the trusted proxy.
    pub async fn request_from(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        ip: &str,
        body: Option<&Value>,
    ) -> Response {
        let mut req = self
            .client
            .request(method, self.url(path))
            .header("x-forwarded-for", ip);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        req.send().await.expect("request")
    }

    /// Confirms the password in `user`'s session (step-up): for the next ten minutes it may
    /// change bank details, request payouts and refunds, change the password, grant roles.
    /// Signing in counts as such a confirmation, so a test needs this only for an older session.
    pub async fn reauth(&self, user: &TestUser) {
        let res = self
            .post_json(
                "/api/auth/reauth",
                &json!({ "password": PASSWORD }),
                Some(&user.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK, "reauth of {}", user.email);
    }

    /// Makes `user`'s session look as if it signed in (and last confirmed its password)
    /// `minutes` ago.
    pub async fn age_session(&self, token: &str, minutes: i64) {
        let claims: Value = {
            use base64::Engine;
            let payload = token.split('.').nth(1).unwrap();
            serde_json::from_slice(
                &base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .decode(payload)
                    .unwrap(),
            )
            .unwrap()
        };
        let then = mongodb::bson::DateTime::from_chrono(
            chrono::Utc::now() - chrono::Duration::minutes(minutes),
        );
        self.db
            .database()
            .collection::<mongodb::bson::Document>("sessions")
            .update_one(
                mongodb::bson::doc! { "_id": claims["jti"].as_str().unwrap() },
                mongodb::bson::doc! { "$set": { "createdAt": then }, "$unset": { "reauthAt": "" } },
            )
            .await
            .unwrap();
    }

    /// A fresh administrator.
    pub async fn admin(&self) -> TestUser {
        let user = self.signup().await;
        self.make_admin(&user.email).await;
        user
    }

    /// Records that `follower` follows `followee` the way the engagement API stores it.
    pub async fn follow_directly(&self, follower: &TestUser, followee: &TestUser) {
        use mongodb::bson::{doc, oid::ObjectId, DateTime};
        self.db
            .database()
            .collection::<mongodb::bson::Document>("follows")
            .insert_one(doc! {
                "followerId": ObjectId::parse_str(&follower.id).unwrap(),
                "followeeId": ObjectId::parse_str(&followee.id).unwrap(),
                "createdAt": DateTime::now(),
            })
            .await
            .expect("follow");
    }

    /// Records that `blocker` blocked `blocked` the way the engagement API stores it.
    pub async fn block_directly(&self, blocker: &TestUser, blocked: &TestUser) {
        use mongodb::bson::{doc, oid::ObjectId, DateTime};
        self.db
            .database()
            .collection::<mongodb::bson::Document>("blocks")
            .insert_one(doc! {
                "blockerId": ObjectId::parse_str(&blocker.id).unwrap(),
                "blockedId": ObjectId::parse_str(&blocked.id).unwrap(),
                "createdAt": DateTime::now(),
            })
            .await
            .expect("block");
    }

    /// Makes an account `days` days old.
    pub async fn age_account(&self, user: &TestUser, days: i64) {
        use mongodb::bson::{doc, oid::ObjectId, DateTime};
        let at = DateTime::from_millis(DateTime::now().timestamp_millis() - days * 86_400_000);
        self.db
            .database()
            .collection::<mongodb::bson::Document>("users")
            .update_one(
                doc! { "_id": ObjectId::parse_str(&user.id).unwrap() },
                doc! { "$set": { "createdAt": at } },
            )
            .await
            .expect("age account");
    }
}

impl TestApp {
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

/// Waits (up to 90 s) for an administrator's background job to end; returns the job.
pub async fn wait_for_job(app: &TestApp, admin: &TestUser, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let res = app
            .get(&format!("/api/admin/jobs/{id}"), Some(&admin.token))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let job = json_of(res).await["job"].clone();
        if job["status"] == "done" || job["status"] == "failed" {
            return job;
        }
        assert!(Instant::now() < deadline, "the job did not end: {job}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Queues a retry (answered 202 at once) and waits for its job: `{message, results}` of the job.
pub async fn retry_failed_emails(app: &TestApp, admin: &TestUser, kind: &str) -> Value {
    let res = app
        .post_json(
            "/api/admin/retry-failed-emails",
            &json!({ "type": kind }),
            Some(&admin.token),
        )
        .await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert_eq!(body["results"], json!([]), "{body}");
    let job = wait_for_job(app, admin, body["jobId"].as_str().unwrap()).await;
    json!({ "message": job["message"], "results": job["results"] })
}
