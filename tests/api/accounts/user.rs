//! The own account, public profiles and consent.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::*;

#[actix_web::test]
async fn get_user_answers_data_for_the_signed_in_user_only() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let body = json_of(app.get("/api/user/get-user", Some(&user.token)).await).await;
    assert_eq!(body["data"]["_id"], user.id);
    assert_eq!(body["data"]["email"], user.email);
    assert_eq!(body["data"]["role"], "user");
    assert_eq!(body["data"]["blocked"], false);
    assert!(body["data"].get("passwordHash").is_none());
    assert_error(
        app.get("/api/user/get-user", None).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[actix_web::test]
async fn update_user_changes_profile_fields() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let res = app
        .patch_json(
            "/api/user/update-user",
            &json!({ "name": " Ada King ", "bio": "Analyst", "region": "IN", "avatar": "https://example.com/a.png" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let data = &json_of(res).await["data"];
    assert_eq!(data["name"], "Ada King");
    assert_eq!(data["bio"], "Analyst");
    assert_eq!(data["region"], "IN");
    // null clears a field; absent fields stay.
    let data = json_of(
        app.patch_json(
            "/api/user/update-user",
            &json!({ "bio": null }),
            Some(&user.token),
        )
        .await,
    )
    .await;
    assert_eq!(data["data"]["bio"], serde_json::Value::Null);
    assert_eq!(data["data"]["region"], "IN");
}

#[actix_web::test]
async fn update_user_refuses_privileged_fields_and_changes_nothing() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let cases = [
        ("role", json!({ "name": "X", "role": "admin" })),
        ("blocked", json!({ "blocked": true })),
        ("isAccountVerified", json!({ "isAccountVerified": true })),
        ("email", json!({ "email": "new@example.com" })),
        ("totalPosts", json!({ "totalPosts": 1000 })),
        ("tokenVersion", json!({ "tokenVersion": 5 })),
        ("passwordHash", json!({ "passwordHash": "x" })),
    ];
    for (field, body) in cases {
        let res = app
            .patch_json("/api/user/update-user", &body, Some(&user.token))
            .await;
        let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(msg.contains(field), "case {field}: {msg}");
    }
    let data = &json_of(app.get("/api/user/get-user", Some(&user.token)).await).await["data"];
    assert_eq!(data["role"], "user");
    assert_eq!(data["name"], "Ada Lovelace");
    assert_eq!(data["email"], user.email);
    assert_eq!(data["isAccountVerified"], false);
    assert_eq!(data["totalPosts"], 0);
}

#[actix_web::test]
async fn update_user_validates_values() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let cases = [
        json!({ "name": "" }),
        json!({ "name": "x".repeat(101) }),
        json!({ "bio": "x".repeat(501) }),
        json!({ "avatar": "javascript:alert(1)" }),
        json!({ "name": { "$set": "x" } }),
    ];
    for body in cases {
        let res = app
            .patch_json("/api/user/update-user", &body, Some(&user.token))
            .await;
        assert_error(res, StatusCode::BAD_REQUEST).await;
    }
}

#[actix_web::test]
async fn a_public_profile_shows_public_fields_only() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let res = app
        .get(&format!("/api/user/get-single-user/{}", user.id), None)
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let data = &json_of(res).await["data"];
    assert_eq!(data["_id"], user.id);
    assert_eq!(data["name"], "Ada Lovelace");
    for private in [
        "email",
        "passwordHash",
        "tokenVersion",
        "consent",
        "blocked",
    ] {
        assert!(data.get(private).is_none(), "{private} must not be public");
    }
    let missing = mongodb::bson::oid::ObjectId::new().to_hex();
    let msg = assert_error(
        app.get(&format!("/api/user/get-single-user/{missing}"), None)
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(msg, "User not found");
    assert_error(
        app.get("/api/user/get-single-user/nope", None).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[actix_web::test]
async fn consent_is_stored_for_the_signed_in_user() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let res = app
        .post_json(
            "/api/user/consent",
            &json!({ "consent": true }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["consent"], true);
    let data = &json_of(app.get("/api/user/get-user", Some(&user.token)).await).await["data"];
    assert_eq!(data["consent"], true);
    app.post_json(
        "/api/user/consent",
        &json!({ "consent": false }),
        Some(&user.token),
    )
    .await;
    let data = &json_of(app.get("/api/user/get-user", Some(&user.token)).await).await["data"];
    assert_eq!(data["consent"], false);

    assert_error(
        app.post_json(
            "/api/user/consent",
            &json!({ "consent": "yes" }),
            Some(&user.token),
        )
        .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_error(
        app.post_json("/api/user/consent", &json!({ "consent": true }), None)
            .await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}
