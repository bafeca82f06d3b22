//! The OpenAPI document lists every route, and every route it lists is really served.

use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::*;

#[actix_web::test]
async fn the_document_is_served_and_every_listed_route_is_routed() {
    let app = spawn_app().await;
    let doc: Value = json_of(app.get("/api/openapi.json", None).await).await;
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["paths"]["/api/auth/signup"]["post"].is_object());

    let id = mongodb::bson::oid::ObjectId::new().to_hex();
    for route in pressroom::routes::openapi::ROUTES {
        let (method, path) = (route.method, route.path);
        let concrete: String = path
            .split('/')
            .map(|seg| {
                if seg.starts_with('{') {
                    id.as_str()
                } else {
                    seg
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let res = app
            .client
            .request(method.clone(), app.url(&concrete))
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
