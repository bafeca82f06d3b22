//! Banner notices: creation rules, targeting by region, dismissal per user, deactivation,
//! deletion and expiry.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::*;

async fn create(app: &TestApp, admin: &TestUser, body: Value) -> Value {
    let res = app
        .post_json("/api/bannerNotification/create", &body, Some(&admin.token))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    json_of(res).await["notification"].clone()
}

async fn seen(app: &TestApp, token: Option<&str>, ip: &str) -> Vec<String> {
    let res = app
        .request_from(
            Method::GET,
            "/api/bannerNotification/get-Notification",
            token,
            ip,
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    json_of(res).await["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["title"].as_str().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn a_banner_has_the_spec_fields() {
    let app = spawn_live_app().await;
    let admin = app.admin().await;
    let b = create(
        &app,
        &admin,
        json!({ "title": "Hello", "message": "World", "region": "global", "link": "https://example.com", "sticky": true }),
    )
    .await;
    for key in [
        "_id",
        "title",
        "message",
        "link",
        "region",
        "isActive",
        "expiresAt",
        "sticky",
        "dismissedBy",
        "timestamp",
    ] {
        assert!(b.get(key).is_some(), "missing {key}: {b}");
    }
    assert_eq!(b["isActive"], true);
    assert_eq!(b["sticky"], true);
    assert_eq!(b["dismissedBy"], json!([]));
}

#[actix_web::test]
async fn guests_and_users_see_global_banners_and_their_regions_only() {
    let app = spawn_live_app().await;
    let admin = app.admin().await;
    create(&app, &admin, json!({ "title": "Everyone", "message": "m" })).await;
    create(
        &app,
        &admin,
        json!({ "title": "India", "message": "m", "region": "IN" }),
    )
    .await;
    create(
        &app,
        &admin,
        json!({ "title": "Germany", "message": "m", "region": "germany" }),
    )
    .await;

    assert_eq!(seen(&app, None, IP_MUMBAI).await, ["India", "Everyone"]);
    assert_eq!(seen(&app, None, IP_BERLIN).await, ["Germany", "Everyone"]);
    assert_eq!(seen(&app, None, IP_LONDON).await, ["Everyone"]);
    assert_eq!(seen(&app, None, "10.0.0.7").await, ["Everyone"]);

    // A signed-in user's profile region counts as well as their address.
    let user = app.signup().await;
    app.patch_json(
        "/api/user/update-user",
        &json!({ "region": "IN" }),
        Some(&user.token),
    )
    .await;
    assert_eq!(
        seen(&app, Some(&user.token), IP_LONDON).await,
        ["India", "Everyone"]
    );
}

#[actix_web::test]
async fn dismissal_is_per_user() {
    let app = spawn_live_app().await;
    let admin = app.admin().await;
    let a = app.signup().await;
    let b = app.signup().await;
    let banner = create(&app, &admin, json!({ "title": "Note", "message": "m" })).await;
    let id = banner["_id"].as_str().unwrap();
    let dismissed = |u: &TestUser| {
        let path = format!("/api/bannerNotification/dismissed/{id}");
        let token = u.token.clone();
        let app = &app;
        async move { json_of(app.get(&path, Some(&token)).await).await["dismissed"].clone() }
    };
    assert_eq!(dismissed(&a).await, false);
    let res = app
        .patch_json(
            &format!("/api/bannerNotification/dismiss/{id}"),
            &json!({}),
            Some(&a.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(dismissed(&a).await, true);
    assert_eq!(dismissed(&b).await, false);
    assert!(seen(&app, Some(&a.token), IP_LONDON).await.is_empty());
    assert_eq!(seen(&app, Some(&b.token), IP_LONDON).await, ["Note"]);
    assert_eq!(seen(&app, None, IP_LONDON).await, ["Note"]);

    // Administrators get a 403 for the status, as the spec says.
    let res = app
        .get(
            &format!("/api/bannerNotification/dismissed/{id}"),
            Some(&admin.token),
        )
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
}

#[actix_web::test]
async fn deactivate_and_delete_all_hide_banners() {
    let app = spawn_live_app().await;
    let admin = app.admin().await;
    let one = create(&app, &admin, json!({ "title": "One", "message": "m" })).await;
    create(&app, &admin, json!({ "title": "Two", "message": "m" })).await;
    let res = app
        .patch_json(
            &format!(
                "/api/bannerNotification/deactivate/{}",
                one["_id"].as_str().unwrap()
            ),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["data"]["isActive"], false);
    assert_eq!(seen(&app, None, IP_LONDON).await, ["Two"]);
    let res = app
        .delete("/api/bannerNotification/delete-all", Some(&admin.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(seen(&app, None, IP_LONDON).await.is_empty());
}

#[actix_web::test]
async fn a_non_sticky_banner_expires_on_time_and_a_sticky_one_stays() {
    let app = spawn_live_app().await;
    let admin = app.admin().await;
    let soon = (chrono::Utc::now() + chrono::Duration::milliseconds(1200)).to_rfc3339();
    create(
        &app,
        &admin,
        json!({ "title": "Brief", "message": "m", "expiresAt": soon }),
    )
    .await;
    create(
        &app,
        &admin,
        json!({ "title": "Pinned", "message": "m", "expiresAt": soon, "sticky": true }),
    )
    .await;
    assert_eq!(seen(&app, None, IP_LONDON).await, ["Pinned", "Brief"]);
    tokio::time::sleep(Duration::from_millis(1600)).await;
    assert_eq!(seen(&app, None, IP_LONDON).await, ["Pinned"]);
    // The expiry is stored too.
    let stored = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("banner_notifications")
        .find_one(mongodb::bson::doc! { "title": "Brief" })
        .await
        .unwrap()
        .unwrap();
    assert!(!stored.get_bool("isActive").unwrap());
}

#[actix_web::test]
async fn banners_survive_a_restart_through_the_actor_load() {
    // The actor loads active banners from the database at start: a banner written before the app
    // started is served.
    let app = spawn_live_app().await;
    let admin = app.admin().await;
    create(
        &app,
        &admin,
        json!({ "title": "Persisted", "message": "m" }),
    )
    .await;
    let mut settings = app.settings.clone();
    settings.server.port = 0;
    settings.database.uri = std::env::var("PRESSROOM_TEST_MONGODB_URI").unwrap().into();
    let second = pressroom::startup::Application::build(settings)
        .await
        .unwrap();
    let port = second.port();
    tokio::spawn(second.run_until_stopped());
    let mut titles = Vec::new();
    for _ in 0..50 {
        let body: Value = reqwest::get(format!(
            "http://127.0.0.1:{port}/api/bannerNotification/get-Notification"
        ))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        titles = body["notifications"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["title"].clone())
            .collect();
        if !titles.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(titles, [json!("Persisted")]);
}

#[actix_web::test]
async fn bad_banner_input_is_refused_with_a_clear_message() {
    let app = spawn_live_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let a = Some(admin.token.as_str());
    let cases = [
        (
            json!({ "message": "m" }),
            StatusCode::BAD_REQUEST,
            "Title is required",
        ),
        (
            json!({ "title": "t" }),
            StatusCode::BAD_REQUEST,
            "Message is required",
        ),
        (
            json!({ "title": "t", "message": "m", "link": "javascript:alert(1)" }),
            StatusCode::BAD_REQUEST,
            "Link must be",
        ),
        (
            // Browsers read `/\host` as `//host`: another site.
            json!({ "title": "t", "message": "m", "link": "/\\evil.example/" }),
            StatusCode::BAD_REQUEST,
            "Link must be",
        ),
        (
            json!({ "title": "t", "message": "m", "expiresAt": "soon" }),
            StatusCode::BAD_REQUEST,
            "expiresAt must be an ISO-8601",
        ),
        (
            json!({ "title": "t", "message": "m", "expiresAt": "2001-01-01T00:00:00Z" }),
            StatusCode::BAD_REQUEST,
            "expiresAt must be in the future",
        ),
        (
            json!({ "title": "t", "message": "m", "sticky": "yes" }),
            StatusCode::BAD_REQUEST,
            "Invalid value for 'sticky'",
        ),
    ];
    for (body, status, message) in cases {
        let res = app
            .post_json("/api/bannerNotification/create", &body, a)
            .await;
        let got = assert_error(res, status).await;
        assert!(got.starts_with(message), "case {body}: {got}");
    }
    let res = app
        .post_json(
            "/api/bannerNotification/create",
            &json!({ "title": "t", "message": "m" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "Admin access required"
    );
    let res = app
        .patch_json(
            "/api/bannerNotification/dismiss/nope",
            &json!({}),
            Some(&user.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .patch_json(
            "/api/bannerNotification/dismiss/64b000000000000000000000",
            &json!({}),
            Some(&user.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    let res = app
        .patch_json(
            "/api/bannerNotification/dismiss/64b000000000000000000000",
            &json!({}),
            None,
        )
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}

#[actix_web::test]
async fn administrators_list_every_banner_with_all_true_and_others_may_not() {
    let app = spawn_live_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    create(&app, &admin, json!({ "title": "Everyone", "message": "m" })).await;
    create(
        &app,
        &admin,
        json!({ "title": "Berlin only", "message": "m", "region": "DE" }),
    )
    .await;
    let off = create(
        &app,
        &admin,
        json!({ "title": "Switched off", "message": "m" }),
    )
    .await;
    let res = app
        .patch_json(
            &format!(
                "/api/bannerNotification/deactivate/{}",
                off["_id"].as_str().unwrap()
            ),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);

    // From Mumbai, the ordinary list hides the German banner, also from an administrator.
    assert_eq!(
        seen(&app, Some(&admin.token), IP_MUMBAI).await,
        ["Everyone"]
    );
    let res = app
        .request_from(
            Method::GET,
            "/api/bannerNotification/get-Notification?all=true",
            Some(&admin.token),
            IP_MUMBAI,
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let all: Vec<String> = json_of(res).await["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["title"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(all, ["Switched off", "Berlin only", "Everyone"]);

    let res = app
        .get(
            "/api/bannerNotification/get-Notification?all=true",
            Some(&user.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "Admin access required"
    );
    let res = app
        .get("/api/bannerNotification/get-Notification?all=true", None)
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}
