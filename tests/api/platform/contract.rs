//! The contract observer (`support/contract.rs`) sees the app's answers and holds them to the
//! OpenAPI document: an undocumented status, a wrong media type or a body of another shape is a
//! violation.

use pressroom::middleware::Exchange;

use crate::support::contract::{check, seen};
use crate::support::*;

fn exchange<'a>(
    method: &'a str,
    pattern: Option<&'a str>,
    status: u16,
    content_type: Option<&'a str>,
    body: &'a [u8],
) -> Exchange<'a> {
    Exchange {
        method,
        pattern,
        path: pattern.unwrap_or("/api/x"),
        status,
        content_type,
        body,
        port: 0,
    }
}

#[actix_web::test]
async fn the_observer_sees_the_answers_and_holds_them_to_the_document() {
    let app = spawn_app().await;
    let port: u16 = app.address.rsplit(':').next().unwrap().parse().unwrap();
    let before = seen(port);
    app.get("/api/auth/check", None).await;
    app.get("/api/category/all-category", None).await;
    assert!(seen(port) >= before + 2, "the observer saw no answer");

    let json = Some("application/json");
    let error = br#"{"message":"No","code":"not_found"}"#;
    let login = Some("/api/auth/login");
    assert!(check(&exchange("POST", login, 404, json, error)).is_ok());
    // An undocumented status, a wrong media type, an error body of another shape.
    let teapot = check(&exchange("POST", login, 418, json, error)).unwrap_err();
    assert!(
        teapot.contains("418") || teapot.contains("not documented"),
        "{teapot}"
    );
    let html = check(&exchange("POST", login, 400, Some("text/html"), b"<p>")).unwrap_err();
    assert!(html.contains("content type"), "{html}");
    let shape = check(&exchange("POST", login, 400, json, br#"{"error":"x"}"#)).unwrap_err();
    assert!(shape.contains("schema"), "{shape}");
    let unknown = check(&exchange("POST", Some("/api/nowhere"), 200, json, b"{}")).unwrap_err();
    assert!(unknown.contains("not in the document"), "{unknown}");
}
