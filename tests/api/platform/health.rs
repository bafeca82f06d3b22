//! `/health`, and the server's behaviour while the database is away.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

use crate::support::*;

#[actix_web::test]
async fn health_reports_ok_with_the_database_up() {
    let app = spawn_app().await;
    // The read index and the search index are built at start; until then the database answers.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let res = app.get("/health", None).await;
        assert_eq!(res.status(), StatusCode::OK);
        let body = json_of(res).await;
        if body["search"] == "ready" {
            assert_eq!(
                body,
                json!({ "status": "ok", "db": "ok", "redis": "ok", "index": "ready", "search": "ready" })
            );
            break;
        }
        assert_eq!(body["status"], "ok", "{body}");
        assert!(
            Instant::now() < deadline,
            "the indexes were not built: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[actix_web::test]
async fn health_says_redis_is_disabled_when_none_is_configured() {
    let app = spawn_app_with(AppOptions {
        without_redis: true,
        ..Default::default()
    })
    .await;
    let res = app.get("/health", None).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        json_of(res).await,
        json!({ "status": "ok", "db": "ok", "redis": "disabled", "index": "disabled", "search": "disabled" })
    );
}

#[actix_web::test]
async fn redis_going_away_is_reported_without_failing_the_service() {
    let app = spawn_app_with(AppOptions {
        redis_proxy: true,
        ..Default::default()
    })
    .await;
    let proxy = app.redis_proxy.as_ref().unwrap();
    proxy.set_up(false);
    let res = app.get("/health", None).await;
    assert_eq!(res.status(), StatusCode::OK, "the database still answers");
    assert_eq!(
        json_of(res).await,
        json!({ "status": "degraded", "db": "ok", "redis": "down", "index": "unavailable", "search": "unavailable" })
    );
    // Requests are still served.
    let user = app.signup().await;
    assert_eq!(
        app.login(&user.email, PASSWORD).await.status(),
        StatusCode::OK
    );

    proxy.set_up(true);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let body = json_of(app.get("/health", None).await).await;
        if body["redis"] == "ok" {
            assert_eq!(body["status"], "ok");
            break;
        }
        assert!(Instant::now() < deadline, "Redis did not come back: {body}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[actix_web::test]
async fn the_database_going_away_is_a_503_and_service_returns_with_it() {
    let app = spawn_app_with(AppOptions {
        db_proxy: true,
        ..Default::default()
    })
    .await;
    let user = app.signup().await;
    let proxy = app.proxy.as_ref().unwrap();

    proxy.set_up(false);
    let res = app.get("/health", None).await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(json_of(res).await["db"], "down");
    // Requests that need the database get a clear 503, not a 500 or a hang.
    let res = app.login(&user.email, PASSWORD).await;
    let msg = assert_error(res, StatusCode::SERVICE_UNAVAILABLE).await;
    assert_eq!(
        msg,
        "The service is temporarily unavailable. Please try again shortly."
    );

    proxy.set_up(true);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if app.get("/health", None).await.status() == StatusCode::OK {
            break;
        }
        assert!(Instant::now() < deadline, "the database did not come back");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(
        app.login(&user.email, PASSWORD).await.status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn the_server_starts_while_the_database_is_down() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| {
            s.database.uri = "mongodb://127.0.0.1:9/".to_string().into()
        })),
        ..Default::default()
    })
    .await;
    let res = app.get("/health", None).await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        json_of(res).await,
        json!({ "status": "degraded", "db": "down", "redis": "ok", "index": "unavailable", "search": "unavailable" })
    );
}

#[actix_web::test]
async fn preparing_a_prepared_database_again_succeeds() {
    // What every restart of a server does: the indexes exist, and the migrations still run.
    let app = spawn_app().await;
    app.wait_for_index("daily_mail_logs", "date_user_unique")
        .await;
    app.db.prepare().await.expect("a second prepare");
    app.db.prepare().await.expect("a third prepare");
}
