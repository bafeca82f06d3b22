//! The error model at the edge: malformed bodies, oversize bodies, unknown routes.

use reqwest::StatusCode;

use crate::support::*;

#[actix_web::test]
async fn malformed_json_is_a_400_in_the_error_shape() {
    let app = spawn_app().await;
    let msg = assert_error(
        app.post_raw("/api/auth/login", "{\"email\":", None).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(msg.starts_with("Malformed JSON"), "{msg}");
    let msg = assert_error(
        app.post_raw("/api/auth/login", "", None).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(msg, "Request body must be a JSON object");
    let msg = assert_error(
        app.post_raw("/api/auth/login", "[1,2]", None).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    // serde would fill the body's struct from an array; only an object is a body.
    assert_eq!(msg, "Request body must be a JSON object");
}

#[actix_web::test]
async fn a_body_over_the_limit_is_a_413() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| s.server.body_limit = 4096)),
        ..Default::default()
    })
    .await;
    let big = format!(
        "{{\"email\":\"{}\",\"password\":\"x\"}}",
        "a".repeat(10_000)
    );
    let msg = assert_error(
        app.post_raw("/api/auth/login", &big, None).await,
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    assert_eq!(msg, "Request body is too large");
}

#[actix_web::test]
async fn unknown_api_routes_are_a_json_404() {
    let app = spawn_app().await;
    let msg = assert_error(
        app.get("/api/nothing/here", None).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert!(msg.contains("/api/nothing/here"), "{msg}");
}

#[actix_web::test]
async fn client_routes_get_the_app_page() {
    let app = spawn_app().await;
    // A route of the app: its page. An address the app does not have: the app's page too (it
    // shows its not-found screen), answered 404.
    let res = app.get("/about", None).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.text().await.unwrap().contains("<html"));
    let res = app.get("/some/client/route", None).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(res.text().await.unwrap().contains("<div id=\"root\">"));
    assert_error(
        app.get("/media/missing.png", None).await,
        StatusCode::NOT_FOUND,
    )
    .await;
}
