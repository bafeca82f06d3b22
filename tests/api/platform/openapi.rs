//! The OpenAPI document lists every route, and every route it lists is really served.

use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::support::*;

#[actix_web::test]
async fn the_document_is_served_and_every_listed_route_is_routed() {
    let app = spawn_app().await;
    let doc: Value = json_of(app.get("/api/openapi.json", None).await).await;
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["paths"]["/api/auth/signup"]["post"].is_object());

    for route in pressroom::routes::openapi::ROUTES {
        let (method, path) = (route.method, route.path);
        let url_path = concrete(path);
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let res = app
            .client
            .request(method.clone(), app.url(&url_path))
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        let status = res.status();
        let text = res.text().await.unwrap_or_default();
        assert!(
            !text.contains("No such endpoint") && status != StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path} is listed but not routed ({status})"
        );
        assert!(
            status != StatusCode::INTERNAL_SERVER_ERROR,
            "{method} {path} answered 500: {text}"
        );
    }
}

#[actix_web::test]
async fn a_known_path_with_another_method_is_405_with_allow_and_an_unknown_one_a_json_404() {
    let app = spawn_app().await;
    let res = app
        .client
        .request(
            Method::from_bytes(b"TRACE").unwrap(),
            app.url("/api/achievement/achievements"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(res.headers()["allow"], "GET");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "method_not_allowed");

    let res = app
        .client
        .get(app.url("/api/post/like/abc"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(res.headers()["allow"], "POST");

    // Under a known prefix, an unknown path is the house's JSON 404, not an empty answer.
    let res = app.get("/api/achievement/nope", None).await;
    let message = assert_error(res, StatusCode::NOT_FOUND).await;
    assert!(message.contains("No such endpoint"), "{message}");
}

#[actix_web::test]
async fn a_page_number_past_what_a_database_skip_holds_is_refused_or_empty_never_a_500() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let admin = app.admin().await;
    for (path, token) in [
        ("/api/notification/notifications", &user.token),
        ("/api/follow/follower-locations", &user.token),
        ("/api/user/feedback/all", &admin.token),
        ("/api/user/locations", &admin.token),
    ] {
        for page in ["9223372036854775808", "9223372036854775807"] {
            let res = app.get(&format!("{path}?page={page}"), Some(token)).await;
            let status = res.status();
            assert!(
                status == StatusCode::OK || status == StatusCode::BAD_REQUEST,
                "{path}?page={page} answered {status}"
            );
            if status == StatusCode::OK {
                let body: Value = res.json().await.unwrap();
                let list = body
                    .get("list")
                    .or_else(|| body.get("notifications"))
                    .or_else(|| body.get("items"));
                if let Some(list) = list.and_then(Value::as_array) {
                    assert!(list.is_empty(), "{path}: {body}");
                }
            }
        }
    }
}

#[actix_web::test]
async fn a_body_that_is_not_an_object_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let user = app.signup().await;
    for body in ["[null, null]", "[\"New Name\"]", "\"text\"", "7"] {
        let res = app
            .client
            .patch(app.url("/api/user/update-user"))
            .bearer_auth(&user.token)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let message = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert_eq!(message, "Request body must be a JSON object", "{body}");
    }
}
