//! Prometheus metrics of this node (`GET /metrics`): HTTP, storage, jobs, mail, payments, rate
//! limits, the process and the build, beside the live side's families (`pressroom_actors::metrics`).
//! Everything is kept in the `prometheus` crate's default registry of the process and written in
//! its text format by the crate's encoder.
//!
//! Updating a metric is an atomic add (counters) or a bucket search and two atomic adds
//! (histograms), done where the thing happens; what is cheaper to read than to follow (who is
//! online comes from the presence actor as it changes; database, Redis and index health) is set
//! when a scrape comes.
//!
//! Every label has a bounded set of values: route templates (never raw paths), methods, status
//! codes, command names from a fixed list, job names, mail outcomes, provider operations and rate
//! limit names.

use std::sync::LazyLock;
use std::time::{Duration, Instant};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use prometheus::core::Collector;
use prometheus::{
    Encoder, Gauge, GaugeVec, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, IntGaugeVec,
    Opts, TextEncoder,
};

/// HTTP latency buckets (seconds).
const HTTP_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0,
];
/// Storage operation buckets (seconds).
const STORAGE_BUCKETS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];
/// Index rebuild buckets (seconds).
const REBUILD_BUCKETS: &[f64] = &[0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 3600.0];

/// The route label of a request that matched no route (the web app's pages, unknown paths).
pub const UNMATCHED_ROUTE: &str = "unmatched";

/// The payment provider's operations (`payments::metered`).
const PAYMENT_OPERATIONS: &[&str] = &[
    "create_customer",
    "charge",
    "retrieve_charge",
    "refund",
    "create_destination",
    "update_destination",
    "delete_destination",
    "payout",
];

/// Database commands named in their own label; anything else is `other`.
const DB_COMMANDS: &[&str] = &[
    "find",
    "getMore",
    "insert",
    "update",
    "delete",
    "findAndModify",
    "aggregate",
    "count",
    "distinct",
    "createIndexes",
    "listIndexes",
    "listCollections",
    "drop",
    "dropDatabase",
    "ping",
    "killCursors",
];

fn registered<C: Collector + Clone + 'static>(metric: C) -> C {
    if let Err(e) = prometheus::default_registry().register(Box::new(metric.clone())) {
        tracing::error!(error = %e, "a metric could not be registered");
    }
    metric
}

// The constructors below are given constant, valid names and labels: they cannot fail.
#[allow(clippy::expect_used)]
fn counter_vec(name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    registered(IntCounterVec::new(Opts::new(name, help), labels).expect("valid metric"))
}

#[allow(clippy::expect_used)]
fn histogram_vec(name: &str, help: &str, labels: &[&str], buckets: &[f64]) -> HistogramVec {
    registered(
        HistogramVec::new(
            HistogramOpts::new(name, help).buckets(buckets.to_vec()),
            labels,
        )
        .expect("valid metric"),
    )
}

#[allow(clippy::expect_used)]
fn gauge(name: &str, help: &str) -> IntGauge {
    registered(IntGauge::new(name, help).expect("valid metric"))
}

#[allow(clippy::expect_used)]
fn gauge_vec(name: &str, help: &str, labels: &[&str]) -> IntGaugeVec {
    registered(IntGaugeVec::new(Opts::new(name, help), labels).expect("valid metric"))
}

#[allow(clippy::expect_used)]
fn float_gauge_vec(name: &str, help: &str, labels: &[&str]) -> GaugeVec {
    registered(GaugeVec::new(Opts::new(name, help), labels).expect("valid metric"))
}

// ---- HTTP ----------------------------------------------------------------------------------

pub static HTTP_REQUESTS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_http_requests_total",
        "HTTP requests answered, by route template, method and status.",
        &["route", "method", "status"],
    )
});

pub static HTTP_DURATION: LazyLock<HistogramVec> = LazyLock::new(|| {
    histogram_vec(
        "pressroom_http_request_duration_seconds",
        "Time to answer an HTTP request, by route template, method and status.",
        &["route", "method", "status"],
        HTTP_BUCKETS,
    )
});

// ---- storage -------------------------------------------------------------------------------

pub static DB_UP: LazyLock<IntGauge> = LazyLock::new(|| {
    gauge(
        "pressroom_db_up",
        "1 when the database answered this scrape's ping, else 0.",
    )
});

pub static REDIS_UP: LazyLock<IntGauge> = LazyLock::new(|| {
    gauge(
        "pressroom_redis_up",
        "1 when Redis answers, 0 when it is unreachable or not configured.",
    )
});

pub static REDIS_CONFIGURED: LazyLock<IntGauge> = LazyLock::new(|| {
    gauge(
        "pressroom_redis_configured",
        "1 when this node is configured with a Redis (redis.url), else 0.",
    )
});

pub static DB_DURATION: LazyLock<HistogramVec> = LazyLock::new(|| {
    histogram_vec(
        "pressroom_db_operation_duration_seconds",
        "Time of database commands (answered or failed), by command.",
        &["command"],
        STORAGE_BUCKETS,
    )
});

pub static DB_ERRORS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_db_errors_total",
        "Database commands that failed, by command.",
        &["command"],
    )
});

pub static REDIS_DURATION: LazyLock<HistogramVec> = LazyLock::new(|| {
    histogram_vec(
        "pressroom_redis_operation_duration_seconds",
        "Time of Redis operations through the pool (a command or a pipeline).",
        &[],
        STORAGE_BUCKETS,
    )
});

pub static REDIS_ERRORS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_redis_errors_total",
        "Redis operations that failed, by kind (timeout, unreachable, command).",
        &["kind"],
    )
});

pub static INDEX_READY: LazyLock<IntGaugeVec> = LazyLock::new(|| {
    gauge_vec(
        "pressroom_index_ready",
        "1 when the index answers reads (read: the Redis read index; search: the search index), else 0.",
        &["index"],
    )
});

pub static INDEX_GENERATION: LazyLock<IntGauge> = LazyLock::new(|| {
    gauge(
        "pressroom_read_index_generation",
        "The generation of the read index this node reads (0: none usable).",
    )
});

pub static INDEX_REBUILD: LazyLock<HistogramVec> = LazyLock::new(|| {
    histogram_vec(
        "pressroom_index_rebuild_seconds",
        "Time of complete index builds, by index.",
        &["index"],
        REBUILD_BUCKETS,
    )
});

// ---- work ----------------------------------------------------------------------------------

pub static JOB_RUNS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_job_runs_total",
        "Runs of a background job on this node, by job name.",
        &["name"],
    )
});

pub static JOB_FAILURES: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_job_failures_total",
        "Runs of a background job that failed, by job name.",
        &["name"],
    )
});

pub static JOB_LAST_RUN: LazyLock<GaugeVec> = LazyLock::new(|| {
    float_gauge_vec(
        "pressroom_job_last_run_timestamp_seconds",
        "When a job last finished a run on this node (Unix time; before the first run, when the node started it), by job name.",
        &["name"],
    )
});

pub static JOB_PERIOD: LazyLock<GaugeVec> = LazyLock::new(|| {
    float_gauge_vec(
        "pressroom_job_period_seconds",
        "How often a job is meant to run (one node of the cluster takes each turn), by job name.",
        &["name"],
    )
});

pub static MAIL: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_mail_total",
        "Mail sending attempts by outcome: sent, failed (to be retried), suppressed (given up: refused address or out of retries).",
        &["outcome"],
    )
});

pub static PUSH: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_push_total",
        "Web Push deliveries by outcome: accepted (by the push service), retried, gone (the device was removed), failed (given up).",
        &["outcome"],
    )
});

pub static PAYMENT_CALLS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_payment_provider_calls_total",
        "Calls to the payment provider, by operation.",
        &["operation"],
    )
});

pub static PAYMENT_FAILURES: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_payment_provider_failures_total",
        "Calls to the payment provider that failed, by operation.",
        &["operation"],
    )
});

pub static RATE_LIMITED: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_rate_limit_refusals_total",
        "Requests refused by a rate limit, by limit.",
        &["limit"],
    )
});

// ---- broker --------------------------------------------------------------------------------

pub static BROKER_LAG: LazyLock<Gauge> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    registered(
        Gauge::new(
            "pressroom_broker_lag_seconds",
            "Time the last probe of another node took from its publish to this node (0: none yet).",
        )
        .expect("valid metric"),
    )
});

// ---- build ---------------------------------------------------------------------------------

pub static BUILD_INFO: LazyLock<IntGaugeVec> = LazyLock::new(|| {
    gauge_vec(
        "pressroom_build_info",
        "Always 1; the labels name the running version and commit.",
        &["version", "commit"],
    )
});

/// Creates every family, so that the first scrape lists them all (with zero values where a
/// label set is known in advance).
pub fn init() {
    pressroom_actors::metrics::init();
    LazyLock::force(&HTTP_REQUESTS);
    LazyLock::force(&HTTP_DURATION);
    LazyLock::force(&DB_UP);
    LazyLock::force(&REDIS_UP);
    LazyLock::force(&REDIS_CONFIGURED);
    LazyLock::force(&DB_DURATION);
    for command in DB_COMMANDS.iter().chain(&["other"]) {
        DB_ERRORS.with_label_values(&[*command]);
    }
    REDIS_DURATION.with_label_values(&[] as &[&str]);
    for kind in ["timeout", "unreachable", "command"] {
        REDIS_ERRORS.with_label_values(&[kind]);
    }
    for index in ["read", "search"] {
        INDEX_READY.with_label_values(&[index]);
    }
    LazyLock::force(&INDEX_GENERATION);
    INDEX_REBUILD.with_label_values(&["read"]);
    LazyLock::force(&JOB_RUNS);
    LazyLock::force(&JOB_FAILURES);
    LazyLock::force(&JOB_LAST_RUN);
    LazyLock::force(&JOB_PERIOD);
    for outcome in ["sent", "failed", "suppressed"] {
        MAIL.with_label_values(&[outcome]);
    }
    for outcome in ["accepted", "retried", "gone", "failed"] {
        PUSH.with_label_values(&[outcome]);
    }
    for operation in PAYMENT_OPERATIONS {
        PAYMENT_CALLS.with_label_values(&[*operation]);
        PAYMENT_FAILURES.with_label_values(&[*operation]);
    }
    LazyLock::force(&BROKER_LAG);
    BUILD_INFO
        .with_label_values(&[
            env!("CARGO_PKG_VERSION"),
            option_env!("PRESSROOM_COMMIT").unwrap_or("unknown"),
        ])
        .set(1);
}

// ---- recording helpers -----------------------------------------------------------------

/// Counts and times every HTTP request by its route template (the matched resource's pattern,
/// `/api/public/post/{slug}`; `unmatched` when no route matched).
pub async fn observe_http(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if !pressroom_actors::metrics::enabled() {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body);
    }
    let started = Instant::now();
    let method = method_label(req.method());
    let result = next.call(req).await;
    let elapsed = started.elapsed().as_secs_f64();
    match result {
        Ok(res) => {
            let route = res
                .request()
                .match_pattern()
                .unwrap_or_else(|| UNMATCHED_ROUTE.to_owned());
            let status = res.status();
            let labels = [route.as_str(), method, status.as_str()];
            HTTP_REQUESTS.with_label_values(&labels).inc();
            HTTP_DURATION.with_label_values(&labels).observe(elapsed);
            Ok(res.map_into_boxed_body())
        }
        Err(e) => {
            // An error that leaves the chain is answered by its own `ResponseError`.
            let status = e.as_response_error().status_code();
            let labels = [UNMATCHED_ROUTE, method, status.as_str()];
            HTTP_REQUESTS.with_label_values(&labels).inc();
            HTTP_DURATION.with_label_values(&labels).observe(elapsed);
            Err(e)
        }
    }
}

fn method_label(method: &actix_web::http::Method) -> &'static str {
    use actix_web::http::Method;
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "OTHER",
    }
}

/// The label of a database command.
pub fn db_command_label(name: &str) -> &'static str {
    DB_COMMANDS
        .iter()
        .find(|c| c.eq_ignore_ascii_case(name))
        .copied()
        .unwrap_or("other")
}

/// Records a database command's time and whether it failed (the driver's command events).
pub fn record_db_command(event: mongodb::event::command::CommandEvent) {
    use mongodb::event::command::CommandEvent;
    match event {
        CommandEvent::Succeeded(e) => DB_DURATION
            .with_label_values(&[db_command_label(&e.command_name)])
            .observe(e.duration.as_secs_f64()),
        CommandEvent::Failed(e) => {
            let command = db_command_label(&e.command_name);
            DB_DURATION
                .with_label_values(&[command])
                .observe(e.duration.as_secs_f64());
            DB_ERRORS.with_label_values(&[command]).inc();
        }
        _ => {}
    }
}

/// Records the outcome of one run of a background job meant to run every `period`.
pub fn job_ran(name: &str, period: Duration, ok: bool) {
    JOB_RUNS.with_label_values(&[name]).inc();
    if !ok {
        JOB_FAILURES.with_label_values(&[name]).inc();
    }
    JOB_PERIOD
        .with_label_values(&[name])
        .set(period.as_secs_f64());
    JOB_LAST_RUN
        .with_label_values(&[name])
        .set(chrono::Utc::now().timestamp_millis() as f64 / 1000.0);
}

/// Declares a job (its period) when its loop starts, so its staleness can be watched: until
/// its first run, its last run is the time it was declared.
pub fn job_declared(name: &str, period: Duration) {
    JOB_PERIOD
        .with_label_values(&[name])
        .set(period.as_secs_f64());
    JOB_LAST_RUN
        .with_label_values(&[name])
        .set(chrono::Utc::now().timestamp_millis() as f64 / 1000.0);
    JOB_RUNS.with_label_values(&[name]);
    JOB_FAILURES.with_label_values(&[name]);
}

/// Counts a call to the payment provider and whether it failed.
/// Counts a push delivery's outcome.
pub fn push_sent(outcome: &str) {
    PUSH.with_label_values(&[outcome]).inc();
}

pub fn payment_call(operation: &'static str, ok: bool) {
    PAYMENT_CALLS.with_label_values(&[operation]).inc();
    if !ok {
        PAYMENT_FAILURES.with_label_values(&[operation]).inc();
    }
}

/// Every family of the process in the Prometheus text format, and its content type.
pub fn render() -> (String, String) {
    let encoder = TextEncoder::new();
    let families = prometheus::gather();
    let mut out = Vec::new();
    if let Err(e) = encoder.encode(&families, &mut out) {
        tracing::error!(error = %e, "the metrics could not be written");
    }
    (
        String::from_utf8_lossy(&out).into_owned(),
        encoder.format_type().to_owned(),
    )
}
