//! Guest visits: counted per guest id.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::*;

#[actix_web::test]
async fn visits_are_counted_per_guest_id() {
    let app = spawn_app().await;
    let id = app.guest_id().await;
    let mut last = chrono::DateTime::<chrono::FixedOffset>::MIN_UTC.fixed_offset();
    for n in 2..=4 {
        let res = app
            .post_json("/api/public/guest/visit", &json!({ "guestId": id }), None)
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let guest = json_of(res).await["guest"].clone();
        assert_eq!(guest["guestId"], id.as_str());
        assert_eq!(guest["visitCount"], n);
        // Compared as instants: the text's fraction of a second varies in length.
        let visit = chrono::DateTime::parse_from_rfc3339(guest["lastVisit"].as_str().unwrap())
            .expect("an ISO-8601 time");
        assert!(visit >= last, "{visit} before {last}");
        last = visit;
    }
    // An id the server did not issue is replaced by one it did (and set as a cookie).
    let res = app
        .post_json(
            "/api/public/guest/visit",
            &json!({ "guestId": "guest-b" }),
            None,
        )
        .await;
    let cookie = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let other = json_of(res).await;
    let issued = other["guest"]["guestId"].as_str().unwrap();
    assert_ne!(issued, "guest-b");
    assert_ne!(issued, id);
    assert_eq!(other["guest"]["visitCount"], 1);
    assert!(
        cookie.starts_with(&format!("pr_guest={issued}")) && cookie.contains("HttpOnly"),
        "{cookie}"
    );
}

#[actix_web::test]
async fn a_guest_without_an_id_gets_one() {
    let app = spawn_app().await;
    let res = app.post_raw("/api/public/guest/visit", "", None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let guest = json_of(res).await["guest"].clone();
    assert!(guest["guestId"].as_str().unwrap().len() >= 32);
    assert_eq!(guest["visitCount"], 1);
}

#[actix_web::test]
async fn a_malformed_guest_id_is_refused() {
    let app = spawn_app().await;
    for body in [
        json!({ "guestId": "<script>" }),
        json!({ "guestId": { "$ne": null } }),
    ] {
        let res = app.post_json("/api/public/guest/visit", &body, None).await;
        assert_error(res, StatusCode::BAD_REQUEST).await;
    }
}
