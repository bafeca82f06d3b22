//! The live Operations section of the admin dashboard: every `OPERATIONS_INTERVAL` each node
//! sends administrators (of every node, through the broker) its figures, read from its metrics:
//! online users, guests and sockets, events and HTTP requests per second with their p99 over the
//! interval, the health of the database, Redis and the indexes, and the last run of each job.

use std::time::{Duration, Instant};

use actix_web::web;
use prometheus::core::Collector;
use serde_json::{json, Value};

use crate::metrics;
use crate::state::AppState;
use pressroom_actors::metrics as live;

/// How often each node sends its figures.
pub const OPERATIONS_INTERVAL: Duration = Duration::from_secs(3);
/// Longest the figures wait for the database's answer to a ping.
const DB_PING_TIMEOUT: Duration = Duration::from_secs(2);

/// Cumulative bucket counts of a histogram family (all label sets added), by upper bound.
fn buckets(collector: &dyn Collector) -> Vec<(f64, u64)> {
    let mut out: Vec<(f64, u64)> = Vec::new();
    for family in collector.collect() {
        for metric in family.get_metric() {
            let histogram = metric.get_histogram();
            for (i, bucket) in histogram.get_bucket().iter().enumerate() {
                match out.get_mut(i) {
                    Some(slot) => slot.1 += bucket.cumulative_count(),
                    None => out.push((bucket.upper_bound(), bucket.cumulative_count())),
                }
            }
            let total = histogram.get_sample_count();
            match out.iter_mut().find(|(bound, _)| bound.is_infinite()) {
                Some(slot) => slot.1 += total,
                None => out.push((f64::INFINITY, total)),
            }
        }
    }
    out
}

/// The sum of a counter family's values (all label sets).
fn total(collector: &dyn Collector) -> f64 {
    collector
        .collect()
        .iter()
        .flat_map(|f| f.get_metric())
        .map(|m| m.get_counter().get_value())
        .sum()
}

/// The upper bound of the bucket holding the `q` quantile of what was observed between two
/// readings of the same histogram; `None` when nothing was.
pub fn quantile_between(before: &[(f64, u64)], after: &[(f64, u64)], q: f64) -> Option<f64> {
    let delta: Vec<(f64, u64)> = after
        .iter()
        .enumerate()
        .map(|(i, (bound, count))| {
            let earlier = before.get(i).map_or(0, |b| b.1);
            (*bound, count.saturating_sub(earlier))
        })
        .collect();
    let count = delta.last()?.1;
    if count == 0 {
        return None;
    }
    let rank = (q * count as f64).ceil() as u64;
    delta
        .iter()
        .find(|(_, c)| *c >= rank)
        .map(|(bound, _)| *bound)
}

struct Reading {
    at: Instant,
    events: f64,
    requests: f64,
    fanout: Vec<(f64, u64)>,
    http: Vec<(f64, u64)>,
}

fn read() -> Reading {
    Reading {
        at: Instant::now(),
        events: total(&*live::EVENTS),
        requests: total(&*metrics::HTTP_REQUESTS),
        fanout: buckets(&*live::FANOUT),
        http: buckets(&*metrics::HTTP_DURATION),
    }
}

fn millis(seconds: Option<f64>) -> Value {
    match seconds {
        Some(s) if s.is_finite() => json!((s * 1000.0 * 100.0).round() / 100.0),
        Some(_) => json!("over the largest bucket"),
        None => Value::Null,
    }
}

async fn snapshot(state: &AppState, before: &Reading, now: &Reading) -> Value {
    let seconds = now.at.duration_since(before.at).as_secs_f64().max(0.001);
    let per_second = |a: f64, b: f64| ((b - a).max(0.0) / seconds * 100.0).round() / 100.0;
    let ping = {
        let db = state.db.clone();
        tokio::spawn(async move { db.ping().await })
    };
    let db_up = matches!(
        tokio::time::timeout(DB_PING_TIMEOUT, ping).await,
        Ok(Ok(Ok(())))
    );
    let sockets: i64 = ["polling", "websocket"]
        .iter()
        .map(|t| live::ONLINE_SOCKETS.with_label_values(&[*t]).get())
        .sum();
    let jobs: Vec<Value> = metrics::JOB_PERIOD
        .collect()
        .iter()
        .flat_map(|f| f.get_metric())
        .filter_map(|m| {
            let name = m
                .get_label()
                .iter()
                .find(|l| l.name() == "name")?
                .value()
                .to_owned();
            let last = metrics::JOB_LAST_RUN.with_label_values(&[&name]).get();
            Some(json!({
                "name": name,
                "periodSeconds": m.get_gauge().get_value(),
                "lastRunAt": chrono::DateTime::from_timestamp_millis((last * 1000.0) as i64)
                    .map(|t| t.to_rfc3339()),
                "runs": metrics::JOB_RUNS.with_label_values(&[&name]).get(),
                "failures": metrics::JOB_FAILURES.with_label_values(&[&name]).get(),
            }))
        })
        .collect();
    let configured = state.redis.is_configured();
    json!({
        "node": state.realtime.node().unwrap_or("this node"),
        "at": chrono::Utc::now().to_rfc3339(),
        "intervalSeconds": OPERATIONS_INTERVAL.as_secs(),
        "onlineUsers": live::ONLINE_USERS.get(),
        "guests": live::ONLINE_GUESTS.get(),
        "sockets": sockets,
        "eventsPerSecond": per_second(before.events, now.events),
        "fanoutP99Ms": millis(quantile_between(&before.fanout, &now.fanout, 0.99)),
        "httpPerSecond": per_second(before.requests, now.requests),
        "httpP99Ms": millis(quantile_between(&before.http, &now.http, 0.99)),
        "db": if db_up { "ok" } else { "down" },
        "redis": state.redis.status().as_str(),
        "readIndex": if !configured { "disabled" } else if state.feeds.current().is_some() { "ready" } else { "unavailable" },
        "searchIndex": if !configured { "disabled" } else if state.search.posts_ready() && state.search.users_ready() { "ready" } else { "unavailable" },
        "jobs": jobs,
    })
}

/// Sends this node's figures to administrators every `OPERATIONS_INTERVAL`, for the life of
/// the process.
pub fn spawn(state: web::Data<AppState>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(OPERATIONS_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.tick().await;
        let mut before = read();
        loop {
            tick.tick().await;
            let now = read();
            let figures = snapshot(&state, &before, &now).await;
            crate::live::operations_snapshot(&state.realtime, figures);
            before = now;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_p99_is_the_bucket_holding_the_99th_observation_of_the_interval() {
        let before = [(0.001, 10), (0.01, 10), (f64::INFINITY, 10)];
        // 100 more: 98 under 1 ms, 2 under 10 ms.
        let after = [(0.001, 108), (0.01, 110), (f64::INFINITY, 110)];
        assert_eq!(quantile_between(&before, &after, 0.99), Some(0.01));
        assert_eq!(quantile_between(&before, &after, 0.5), Some(0.001));
        assert_eq!(quantile_between(&after, &after, 0.99), None);
    }
}
