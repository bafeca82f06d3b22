//! Prometheus metrics of the live side: presence on this node, connections and their ends,
//! events and their fan-out. They live in the process's default registry (the one the server's
//! `GET /metrics` gathers), so every node exports its own.
//!
//! Labels are bounded: `transport` is `polling` or `websocket`, `reason` one of the session's
//! fixed close reasons, `event` one of the server's event names.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::LazyLock;

use prometheus::core::Collector;
use prometheus::{Histogram, HistogramOpts, IntCounterVec, IntGauge, IntGaugeVec, Opts};

/// Fan-out buckets (seconds): a local fan-out takes well under a millisecond; a second is an alert.
const FANOUT_BUCKETS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// Registers `metric` in the default registry and hands it back. Each metric is created once
/// (behind a `LazyLock`), so registration only fails if another crate took the same name; the
/// metric then still counts, it just is not exported, and the failure is logged.
fn registered<C: Collector + Clone + 'static>(metric: C) -> C {
    if let Err(e) = prometheus::default_registry().register(Box::new(metric.clone())) {
        tracing::error!(error = %e, "a metric could not be registered");
    }
    metric
}

fn gauge(name: &str, help: &str) -> IntGauge {
    // The names and help texts are constants of this module, always valid.
    #[allow(clippy::expect_used)]
    registered(IntGauge::new(name, help).expect("valid metric name"))
}

fn gauge_vec(name: &str, help: &str, labels: &[&str]) -> IntGaugeVec {
    #[allow(clippy::expect_used)]
    registered(IntGaugeVec::new(Opts::new(name, help), labels).expect("valid metric name"))
}

fn counter_vec(name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    #[allow(clippy::expect_used)]
    registered(IntCounterVec::new(Opts::new(name, help), labels).expect("valid metric name"))
}

/// Distinct signed-in users with a socket on this node.
pub static ONLINE_USERS: LazyLock<IntGauge> = LazyLock::new(|| {
    gauge(
        "pressroom_online_users",
        "Distinct signed-in users with at least one socket on this node.",
    )
});

/// Guest sockets (no user) on this node.
pub static ONLINE_GUESTS: LazyLock<IntGauge> = LazyLock::new(|| {
    gauge(
        "pressroom_online_guests",
        "Sockets of guests (not signed in) on this node.",
    )
});

/// Open realtime connections on this node, by transport.
pub static ONLINE_SOCKETS: LazyLock<IntGaugeVec> = LazyLock::new(|| {
    gauge_vec(
        "pressroom_online_sockets",
        "Open realtime connections (Engine.IO sessions) on this node, by transport.",
        &["transport"],
    )
});

/// The cluster-wide online count this node sends its readers.
pub static CLUSTER_ONLINE: LazyLock<IntGauge> = LazyLock::new(|| {
    gauge(
        "pressroom_cluster_online_users",
        "The online count this node sends its sockets (every node's sockets in a cluster).",
    )
});

/// Realtime connections opened, by the transport they opened with.
pub static SOCKET_CONNECTS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_socket_connects_total",
        "Realtime connections opened on this node, by the transport they opened with.",
        &["transport"],
    )
});

/// Realtime connections closed, by reason.
pub static SOCKET_DISCONNECTS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_socket_disconnects_total",
        "Realtime connections closed on this node, by reason.",
        &["reason"],
    )
});

/// Events fanned out to this node's sockets, by event name.
pub static EVENTS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_realtime_events_total",
        "Events fanned out to this node's sockets, by event name.",
        &["event"],
    )
});

/// Time from an emit to the last of this node's sockets written.
pub static FANOUT: LazyLock<Histogram> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    registered(
        Histogram::with_opts(
            HistogramOpts::new(
                "pressroom_realtime_fanout_seconds",
                "Time from an emit to the last of this node's sockets written.",
            )
            .buckets(FANOUT_BUCKETS.to_vec()),
        )
        .expect("valid metric name"),
    )
});

/// Messages between nodes: published by this node, received from the others (its own
/// messages, which Redis hands back too, are not counted).
pub static BROKER_MESSAGES: LazyLock<IntCounterVec> = LazyLock::new(|| {
    counter_vec(
        "pressroom_broker_messages_total",
        "Messages between nodes over Redis: published by this node, received from the others.",
        &["direction"],
    )
});

/// Whether the live side records its metrics (`metrics.enabled`; on unless switched off, which
/// only the benchmarks do, to measure what recording costs).
static ENABLED: AtomicBool = AtomicBool::new(true);

/// Switches recording on or off for the whole process (at start, before any socket).
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether metrics are recorded.
#[inline]
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// The label of a transport.
pub fn transport_label(websocket: bool) -> &'static str {
    if websocket {
        "websocket"
    } else {
        "polling"
    }
}

/// Creates every family of this module, so that a scrape lists them before anything happened.
pub fn init() {
    LazyLock::force(&ONLINE_USERS);
    LazyLock::force(&ONLINE_GUESTS);
    for transport in ["polling", "websocket"] {
        ONLINE_SOCKETS.with_label_values(&[transport]);
        SOCKET_CONNECTS.with_label_values(&[transport]);
    }
    LazyLock::force(&CLUSTER_ONLINE);
    for reason in ["transport close", "ping timeout", "server disconnect"] {
        SOCKET_DISCONNECTS.with_label_values(&[reason]);
    }
    EVENTS.with_label_values(&["onlineUsersCount"]);
    for direction in ["published", "received"] {
        BROKER_MESSAGES.with_label_values(&[direction]);
    }
    LazyLock::force(&FANOUT);
}
