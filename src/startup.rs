//! Builds the application: binds the listener first (so tests can use port 0), starts the
//! singletons once, then the HTTP server.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::Server;
use actix_web::middleware::{from_fn, Compress};
use actix_web::{web, App};
use pressroom_actors::HttpServer;
use tracing_actix_web::TracingLogger;

use crate::auth::google::GoogleVerifier;
use crate::auth::TokenKeys;
use crate::config::Settings;
use crate::extract::{json_error_handler, path_error_handler, query_error_handler};
use crate::mail::Mailer;
use crate::persistence::{otps, revoked_tokens, Db};
use crate::ratelimit::RateLimiter;
use crate::redis_pool::Redis;
use crate::routes;
use crate::state::AppState;

/// How long startup waits for the database to take its indexes before going on without it.
const STARTUP_PREPARE_WAIT: Duration = Duration::from_secs(10);
/// How long startup waits for the read index (a rebuild of a large site goes on in the
/// background; reads use the database meanwhile).
const STARTUP_INDEX_WAIT: Duration = Duration::from_secs(5);
/// How often expired codes and revocations are purged.
const HOUSEKEEPING_INTERVAL: Duration = Duration::from_secs(3600);

pub struct Application {
    port: u16,
    server: Server,
    state: web::Data<AppState>,
}

impl Application {
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        pressroom_actors::metrics::set_enabled(settings.metrics.enabled);
        crate::metrics::init();
        crate::ratelimit::declare_metrics();
        let db = Db::connect(&settings.database).await?;
        db.prepare_or_retry(STARTUP_PREPARE_WAIT).await;
        let state = web::Data::new(build_state(settings.clone(), db)?);
        state.redis.spawn_monitor();
        if state.redis.is_configured() {
            // The first answer (or its absence) decides how the first requests are served.
            let _ = state.redis.ping().await;
            state.feeds.spawn_supervisor();
            state.search.spawn_follower();
            if state.redis.is_up() && !state.feeds.wait_ready(STARTUP_INDEX_WAIT).await {
                tracing::info!(
                    "the read index is not ready yet; reading from the database meanwhile"
                );
            }
        }
        if let Some(node) = state.realtime.node() {
            let live = state.live.clone();
            let guest_cache = state.guest_cache.clone();
            crate::live::cluster::spawn(
                state.realtime.clone(),
                state.redis.clone(),
                node.to_owned(),
                &state.settings.cluster,
                Arc::new(move |topic: &str, data| {
                    if topic == crate::guest_cache::NOTICE_TOPIC {
                        guest_cache.apply_notice(&data);
                    } else if topic == crate::live::cluster::REJOINED_TOPIC {
                        // Messages may have been missed while away.
                        guest_cache.clear();
                    }
                    if topic == crate::live::banners::NOTICE_TOPIC
                        || topic == crate::live::cluster::REJOINED_TOPIC
                    {
                        live.banners.do_send(crate::live::banners::Reload);
                    }
                }),
            );
        }
        spawn_housekeeping(state.clone());
        crate::persistence::counter_repair::spawn_at_start(state.db.clone());
        crate::services::jobs::spawn_content_jobs(state.clone());
        crate::services::jobs::billing::spawn(state.clone());
        crate::services::jobs::admin_tasks::spawn(state.clone());
        crate::operations::spawn(state.clone());

        let listener = TcpListener::bind((settings.server.host.as_str(), settings.server.port))?;
        let port = listener.local_addr()?.port();
        let server = run(listener, state.clone())?;
        tracing::info!(
            port,
            environment = settings.environment().as_str(),
            "Pressroom listening"
        );
        Ok(Self {
            port,
            server,
            state,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn state(&self) -> web::Data<AppState> {
        self.state.clone()
    }

    /// Runs until the server stops (SIGINT/SIGTERM stop it gracefully).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let stopped = self.server.await;
        if let Some(node) = self.state.realtime.node() {
            // A clean stop: the other nodes need not wait for the heartbeat to expire.
            crate::live::cluster::leave(&self.state.redis, node).await;
        }
        stopped
    }
}

/// The shared state with every singleton, started once.
pub fn build_state(settings: Settings, db: Db) -> anyhow::Result<AppState> {
    let redis = Redis::connect(&settings.redis, &settings.database.name)?;
    let feeds = crate::feeds::Feeds::new(redis.clone(), &db)?;
    let guest_cache = crate::guest_cache::GuestCache::new(&settings.guest_cache);
    {
        let cache = guest_cache.clone();
        feeds.on_switch(move || cache.clear());
    }
    // Every write through the state's database handle is reported to the read index, then to
    // the guest cache.
    let db = db.with_observer(Arc::new(crate::guest_cache::Observer {
        feeds: feeds.clone(),
        cache: guest_cache.clone(),
    }));
    let search = crate::search::Search::new(feeds.clone(), &db)?;
    feeds.set_follower(Arc::new(search.clone()));
    let tokens = TokenKeys::new(&settings.auth.jwt_secret, settings.auth.token_ttl_hours);
    let mailer = Arc::new(Mailer::new(&settings.mail, db.clone())?);
    let google = GoogleVerifier::new(
        settings.auth.google_client_id.clone(),
        settings.auth.google_jwks_url.clone(),
    );
    let limiter = RateLimiter::with_redis(settings.rate_limit.clone(), redis.clone());
    let trusted_proxies = settings.trusted_proxies();
    let (location_ctx, locations) = crate::live::actors::location_context();
    // With Redis, this node takes part in a cluster: emits, presence and revocations reach
    // every node (the `redis` broker); without it, the `local` broker.
    let cluster = redis.is_configured().then(|| {
        let node = crate::live::cluster::node_name(&settings.cluster, settings.server.port);
        pressroom_actors::Cluster {
            transport: Arc::new(crate::live::cluster::RedisTransport::start(redis.clone())),
            presence: Arc::new(crate::live::cluster::RedisPresence::new(
                redis.clone(),
                node.clone(),
            )),
            node,
        }
    });
    let mut realtime_config = settings.realtime.to_config();
    realtime_config.sid_prefix = settings.cluster.sid_prefix.clone();
    let realtime = crate::live::socket_auth::start_with_live(
        realtime_config,
        db.clone(),
        tokens.clone(),
        locations,
        cluster,
    );
    let live = crate::live::actors::start(
        db.clone(),
        realtime.clone(),
        redis.clone(),
        location_ctx,
        crate::geoip::GeoIp::open(&settings.geoip.database_path),
        crate::geojson::GeoData::new(settings.geojson.directory.clone()),
    );
    {
        let realtime = realtime.clone();
        guest_cache.set_publisher(move |notice| {
            realtime.notify_cluster(crate::guest_cache::NOTICE_TOPIC, notice)
        });
    }
    let payments = crate::payments::build(&settings.payments, db.clone())?;
    let bank_cipher = crate::cipher::BankCipher::from_base64(secrecy::ExposeSecret::expose_secret(
        &settings.payments.bank_encryption_key,
    ))
    .map_err(|e| anyhow::anyhow!("payments.bank_encryption_key: {e}"))?;
    let push = crate::webpush::WebPush::new(&settings.push, &settings.mail.from);
    Ok(AppState {
        push,
        payments,
        bank_cipher,
        settings,
        db,
        redis,
        feeds,
        guest_cache,
        search,
        tokens,
        mailer,
        google,
        limiter,
        trusted_proxies,
        realtime,
        live,
        wakes: crate::state::Wakes::default(),
        local_guests: crate::counting::LocalGuests::default(),
    })
}

fn spawn_housekeeping(state: web::Data<AppState>) {
    crate::metrics::job_declared("housekeeping", HOUSEKEEPING_INTERVAL);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(HOUSEKEEPING_INTERVAL);
        loop {
            tick.tick().await;
            if !crate::services::jobs::take_turn(&state, "housekeeping", HOUSEKEEPING_INTERVAL)
                .await
            {
                continue;
            }
            let codes = otps::purge_expired(&state.db).await;
            if let Err(e) = &codes {
                tracing::debug!(error = %e, "could not purge expired codes");
            }
            let revocations = revoked_tokens::purge_expired(&state.db).await;
            if let Err(e) = &revocations {
                tracing::debug!(error = %e, "could not purge expired revocations");
            }
            if let Err(e) = crate::persistence::two_factor::purge_expired(&state.db).await {
                tracing::debug!(error = %e, "could not purge login challenges");
            }
            if let Err(e) = crate::persistence::passkeys::purge_expired(&state.db).await {
                tracing::debug!(error = %e, "could not purge passkey ceremonies");
            }
            if let Err(e) = crate::persistence::sessions::purge_expired(&state.db).await {
                tracing::debug!(error = %e, "could not purge old sessions");
            }
            crate::metrics::job_ran(
                "housekeeping",
                HOUSEKEEPING_INTERVAL,
                codes.is_ok() && revocations.is_ok(),
            );
        }
    });
}

fn run(listener: TcpListener, state: web::Data<AppState>) -> anyhow::Result<Server> {
    let body_limit = state.settings.server.body_limit;
    let static_dir = state.settings.server.static_dir.clone();
    let workers = state.settings.server.workers;
    let endpoint = state.realtime.endpoint();
    let hsts = state.settings.environment() == crate::config::Environment::Production;
    let deadline = Duration::from_millis(state.settings.server.request_timeout_ms);
    let (guest_cache, feeds) = (state.guest_cache.clone(), state.feeds.clone());
    let api_document = web::Data::new(crate::routes::openapi::api_document());
    let site_caches = web::Data::new(crate::routes::site::SiteCaches::default());
    let mut server = HttpServer::new(move || {
        let (guest_cache, feeds) = (guest_cache.clone(), feeds.clone());
        App::new()
            .wrap(from_fn(move |req, next| {
                crate::guest_cache::serve(guest_cache.clone(), feeds.clone(), req, next)
            }))
            .wrap(from_fn(move |req, next| {
                crate::middleware::request_deadline(deadline, req, next)
            }))
            .wrap(from_fn(crate::middleware::same_origin_for_cookies))
            .wrap(from_fn(crate::middleware::catch_panic))
            .wrap(from_fn(crate::middleware::observe))
            .wrap(from_fn(crate::metrics::observe_http))
            .wrap(Compress::default())
            .wrap(TracingLogger::default())
            .wrap(from_fn(move |req, next| {
                crate::middleware::security_headers(hsts, req, next)
            }))
            .app_data(state.clone())
            .app_data(api_document.clone())
            .app_data(site_caches.clone())
            .app_data(web::PayloadConfig::new(body_limit))
            .app_data(
                web::JsonConfig::default()
                    .limit(body_limit)
                    .error_handler(json_error_handler),
            )
            .app_data(web::QueryConfig::default().error_handler(query_error_handler))
            .app_data(web::PathConfig::default().error_handler(path_error_handler))
            .configure(|cfg| routes::openapi::configure_viewer(cfg, &static_dir))
            .configure(routes::configure)
            .configure(|cfg| state.realtime.configure(cfg))
            .configure(|cfg| routes::web_app::configure(cfg, &static_dir))
    })
    // Websocket requests for the realtime endpoint are handed over with their connection.
    .endpoint(endpoint)
    // A pending long-poll must end when its client goes away, so that the realtime session closes
    // at once (as the reference server does) instead of at its next ping timeout.
    .h1_allow_half_closed(false);
    if workers > 0 {
        server = server.workers(workers);
    }
    Ok(server.listen(listener)?)
}
