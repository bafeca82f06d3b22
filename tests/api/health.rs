//! `/health`, and the server's behaviour while the database is away.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn health_reports_ok_with_the_database_up() {
    let app = spawn_app().await;
    let res = app.get("/health", None).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await, json!({ "status": "ok", "db": "ok" }));
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
        json!({ "status": "degraded", "db": "down" })
    );
}
