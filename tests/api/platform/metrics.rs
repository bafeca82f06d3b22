//! `GET /metrics`: who may read it, and counters that follow requests, mail, rate limits and
//! jobs. (The exposition is parsed by the Prometheus client library's parser, and the presence
//! gauges followed with real Socket.IO clients, in tests/ops against the suite server: the
//! metrics are per process, and this binary runs many apps in one.)

use std::time::{Duration, Instant};

use pressroom::config::Settings;
use reqwest::StatusCode;
use secrecy::SecretString;
use serde_json::json;

use crate::support::*;

const TOKEN: &str = "metrics-token-for-tests";

async fn spawn_with_token() -> TestApp {
    spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut Settings| {
            s.metrics.token = SecretString::from(TOKEN.to_string());
        })),
        ..AppOptions::default()
    })
    .await
}

async fn scrape(app: &TestApp) -> String {
    let res = app.get("/metrics", None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let content_type = res.headers()["content-type"].to_str().unwrap().to_string();
    assert!(content_type.starts_with("text/plain"), "{content_type}");
    res.text().await.unwrap()
}

/// The sum of the samples named `name` whose label sets contain every `labels` pair.
fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            let (metric, rest) = series.split_once('{').unwrap_or((series, ""));
            (metric == name
                && labels
                    .iter()
                    .all(|(k, v)| rest.contains(&format!("{k}=\"{v}\""))))
            .then(|| value.parse::<f64>().ok())
            .flatten()
        })
        .sum()
}

#[actix_web::test]
async fn metrics_are_served_to_loopback_and_to_the_token_and_are_a_404_for_everyone_else() {
    let app = spawn_with_token().await;
    let body = scrape(&app).await;
    assert!(body.contains("# TYPE pressroom_http_requests_total counter"));
    assert!(body.contains("# TYPE process_resident_memory_bytes gauge"));

    let proxied = |token: Option<&str>| {
        let mut req = app
            .client
            .get(app.url("/metrics"))
            .header("x-forwarded-for", "203.0.113.7");
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send()
    };
    for (case, token, expected) in [
        ("through a proxy, no token", None, StatusCode::NOT_FOUND),
        (
            "through a proxy, wrong token",
            Some("nope"),
            StatusCode::NOT_FOUND,
        ),
        ("through a proxy, the token", Some(TOKEN), StatusCode::OK),
    ] {
        let res = proxied(token).await.unwrap();
        assert_eq!(res.status(), expected, "{case}");
        let text = res.text().await.unwrap();
        assert_eq!(
            text.contains("pressroom_http_requests_total"),
            expected == StatusCode::OK,
            "{case}: {text}"
        );
    }
    // Other methods are refused as on /health.
    let res = app.post_json("/metrics", &json!({}), None).await;
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[actix_web::test]
async fn request_counters_are_labelled_by_route_template_and_move_with_requests() {
    let app = spawn_app().await;
    let before = scrape(&app).await;
    let labels = [
        ("route", "/api/public/post/{slug}"),
        ("method", "GET"),
        ("status", "404"),
    ];
    for i in 0..3 {
        let res = app
            .get(&format!("/api/public/post/no-such-post-{i}"), None)
            .await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
    }
    let after = scrape(&app).await;
    let moved = sample(&after, "pressroom_http_requests_total", &labels)
        - sample(&before, "pressroom_http_requests_total", &labels);
    assert!(moved >= 3.0, "requests counted: {moved}");
    assert!(
        sample(
            &after,
            "pressroom_http_request_duration_seconds_count",
            &labels
        ) >= 3.0
    );
    assert!(
        !after.contains("no-such-post-"),
        "a raw path became a label"
    );
}

#[actix_web::test]
async fn mail_rate_limits_and_jobs_are_counted() {
    let app = spawn_app().await;
    let before = scrape(&app).await;

    // A verification code sent through the SMTP sink.
    let user = app.signup().await;
    let code = app.verification_code(&user).await;
    assert!(!code.is_empty());
    // Wrong passwords until the account's login limit refuses one.
    let mut refused = false;
    for _ in 0..30 {
        let res = app.login(&user.email, "not the password").await;
        if res.status() == StatusCode::TOO_MANY_REQUESTS {
            refused = true;
            break;
        }
    }
    assert!(refused, "the login limit never refused");

    // The scheduled-publishing job runs every 5 s in every app.
    let job = [("name", "scheduled-publishing")];
    let deadline = Instant::now() + Duration::from_secs(20);
    let after = loop {
        let now = scrape(&app).await;
        if sample(&now, "pressroom_job_runs_total", &job)
            > sample(&before, "pressroom_job_runs_total", &job)
        {
            break now;
        }
        assert!(Instant::now() < deadline, "no job run was counted");
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    let sent = [("outcome", "sent")];
    assert!(
        sample(&after, "pressroom_mail_total", &sent)
            > sample(&before, "pressroom_mail_total", &sent)
    );
    let limit = [("limit", "login-account")];
    assert!(
        sample(&after, "pressroom_rate_limit_refusals_total", &limit)
            > sample(&before, "pressroom_rate_limit_refusals_total", &limit)
    );
    assert_eq!(sample(&after, "pressroom_job_period_seconds", &job), 5.0);
    assert!(sample(&after, "pressroom_job_last_run_timestamp_seconds", &job) > 1.7e9);
    assert!(
        sample(
            &after,
            "pressroom_db_operation_duration_seconds_count",
            &[("command", "insert")]
        ) > 0.0
    );
}

#[actix_web::test]
async fn database_and_redis_outages_show_in_their_gauges_and_pass() {
    let app = spawn_app_with(AppOptions {
        db_proxy: true,
        redis_proxy: true,
        ..AppOptions::default()
    })
    .await;
    let up = scrape(&app).await;
    assert_eq!(sample(&up, "pressroom_db_up", &[]), 1.0);
    assert_eq!(sample(&up, "pressroom_redis_up", &[]), 1.0);
    assert_eq!(sample(&up, "pressroom_redis_configured", &[]), 1.0);

    app.proxy.as_ref().unwrap().set_up(false);
    app.redis_proxy.as_ref().unwrap().set_up(false);
    let down = scrape(&app).await;
    assert_eq!(sample(&down, "pressroom_db_up", &[]), 0.0);
    assert_eq!(sample(&down, "pressroom_redis_up", &[]), 0.0);
    assert_eq!(sample(&down, "pressroom_redis_configured", &[]), 1.0);
    assert_eq!(
        sample(&down, "pressroom_index_ready", &[("index", "read")]),
        0.0
    );

    app.proxy.as_ref().unwrap().set_up(true);
    app.redis_proxy.as_ref().unwrap().set_up(true);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let now = scrape(&app).await;
        if sample(&now, "pressroom_db_up", &[]) == 1.0
            && sample(&now, "pressroom_redis_up", &[]) == 1.0
        {
            break;
        }
        assert!(Instant::now() < deadline, "the gauges did not come back up");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
