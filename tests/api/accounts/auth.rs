//! Signup, login, check, logout and the token rules.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::*;

#[actix_web::test]
async fn signup_answers_the_session_shape_and_sets_the_cookie() {
    let app = spawn_app().await;
    let email = unique_email();
    let res = app
        .signup_raw(
            "  Ada   Lovelace ",
            &format!("  {}  ", email.to_uppercase()),
            PASSWORD,
            false,
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let cookie = res
        .headers()
        .get("set-cookie")
        .expect("cookie")
        .to_str()
        .unwrap()
        .to_string();
    assert!(cookie.starts_with("jwt="), "{cookie}");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    let body = json_of(res).await;
    assert_eq!(body["fullName"], "Ada Lovelace");
    assert_eq!(body["email"], email.to_lowercase());
    assert_eq!(body["role"], "user");
    assert_eq!(body["isAccountVerified"], false);
    assert_eq!(body["_id"].as_str().unwrap().len(), 24);
    assert!(body["token"].as_str().unwrap().split('.').count() == 3);
}

#[actix_web::test]
async fn the_password_is_stored_as_an_argon2id_hash() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let stored = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("users")
        .find_one(mongodb::bson::doc! { "email": &user.email })
        .await
        .unwrap()
        .unwrap();
    let hash = stored.get_str("passwordHash").unwrap();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(!hash.contains(PASSWORD));
}

#[actix_web::test]
async fn a_duplicate_email_is_a_409_whatever_its_case_and_spaces() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let res = app
        .signup_raw(
            "Other",
            &format!(" {} ", user.email.to_uppercase()),
            PASSWORD,
            false,
        )
        .await;
    let msg = assert_error(res, StatusCode::CONFLICT).await;
    assert_eq!(msg, "An account with this email already exists");
}

#[actix_web::test]
async fn signup_validation_cases_are_400_and_create_nothing() {
    let app = spawn_app().await;
    let cases = [
        (
            "short password",
            json!({"fullName":"A","email":unique_email(),"password":"1234567"}),
            "Password must be at least 8 characters",
        ),
        (
            "long password",
            json!({"fullName":"A","email":unique_email(),"password":"x".repeat(129)}),
            "Password must be at most 128 characters",
        ),
        (
            "bad email",
            json!({"fullName":"A","email":"not-an-email","password":PASSWORD}),
            "Please enter a valid email address",
        ),
        (
            "empty name",
            json!({"fullName":"   ","email":unique_email(),"password":PASSWORD}),
            "Name is required",
        ),
        (
            "missing email",
            json!({"fullName":"A","password":PASSWORD}),
            "email",
        ),
        (
            "operator email",
            json!({"fullName":"A","email":{"$ne":null},"password":PASSWORD}),
            "'email'",
        ),
        (
            "number name",
            json!({"fullName":5,"email":unique_email(),"password":PASSWORD}),
            "'fullName'",
        ),
    ];
    for (case, body, expected) in cases {
        let res = app.post_json("/api/auth/signup", &body, None).await;
        let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(
            msg.contains(expected),
            "case {case}: message {msg:?} should contain {expected:?}"
        );
    }
    let count = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("users")
        .count_documents(mongodb::bson::doc! {})
        .await
        .unwrap();
    assert_eq!(count, 0);
}

#[actix_web::test]
async fn login_answers_the_same_shape_and_check_accepts_the_token() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let res = app.login(&user.email.to_uppercase(), PASSWORD).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers().get("set-cookie").is_some());
    let body = json_of(res).await;
    assert_eq!(body["_id"], user.id);
    assert_eq!(body["fullName"], "Ada Lovelace");
    assert_eq!(body["role"], "user");
    let token = body["token"].as_str().unwrap();

    let check = json_of(app.get("/api/auth/check", Some(token)).await).await;
    assert_eq!(check["_id"], user.id);
    assert_eq!(check["name"], "Ada Lovelace");
    assert_eq!(check["email"], user.email);
    assert_eq!(check["role"], "user");
    assert_eq!(check["token"], token);
    assert_eq!(check["isAccountVerified"], false);
}

#[actix_web::test]
async fn wrong_password_and_unknown_email_get_the_same_401() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let wrong = assert_error(
        app.login(&user.email, "not the password").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    let unknown = assert_error(
        app.login(&unique_email(), PASSWORD).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(wrong, "Invalid email or password");
    assert_eq!(wrong, unknown);
}

#[actix_web::test]
async fn login_with_an_operator_object_is_a_400_not_a_query() {
    let app = spawn_app().await;
    app.signup().await;
    let res = app
        .post_json(
            "/api/auth/login",
            &json!({ "email": { "$ne": null }, "password": { "$ne": null } }),
            None,
        )
        .await;
    let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
    assert!(msg.contains("'email'"), "{msg}");
}

#[actix_web::test]
async fn the_cookie_alone_authenticates() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let res = app
        .client
        .get(app.url("/api/auth/check"))
        .header("cookie", format!("jwt={}", user.token))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

#[actix_web::test]
async fn a_missing_tampered_or_foreign_token_is_a_401() {
    let app = spawn_app().await;
    let user = app.signup().await;
    assert_error(
        app.get("/api/auth/check", None).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    let mut tampered = user.token.clone();
    tampered.pop();
    tampered.push(if user.token.ends_with('A') { 'B' } else { 'A' });
    assert_error(
        app.get("/api/auth/check", Some(&tampered)).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    let foreign =
        pressroom::auth::TokenKeys::new(&"some-other-secret-entirely".to_string().into(), 1)
            .issue(&user.id, "admin", 0)
            .unwrap()
            .0;
    assert_error(
        app.get("/api/auth/check", Some(&foreign)).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_error(
        app.get("/api/auth/check", Some("null")).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[actix_web::test]
async fn an_expired_token_is_a_401() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let claims = pressroom::auth::Claims {
        sub: user.id.clone(),
        role: "user".into(),
        ver: 0,
        jti: "expired".into(),
        iat: chrono::Utc::now().timestamp() - 7200,
        exp: chrono::Utc::now().timestamp() - 3600,
    };
    use secrecy::ExposeSecret;
    let secret = app.settings.auth.jwt_secret.expose_secret().to_string();
    let token = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()),
    )
    .unwrap();
    let msg = assert_error(
        app.get("/api/auth/check", Some(&token)).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert!(msg.contains("expired"), "{msg}");
}

#[actix_web::test]
async fn logout_revokes_that_token_and_clears_the_cookie_but_not_other_sessions() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let other_session = json_of(app.login(&user.email, PASSWORD).await).await["token"]
        .as_str()
        .unwrap()
        .to_string();

    let res = app
        .post_json("/api/auth/logout", &json!({}), Some(&user.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let cookie = res
        .headers()
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cookie.starts_with("jwt=;") || cookie.contains("Max-Age=0"),
        "{cookie}"
    );
    assert_eq!(json_of(res).await["message"], "Logged out successfully");

    assert_error(
        app.get("/api/auth/check", Some(&user.token)).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(
        app.get("/api/auth/check", Some(&other_session))
            .await
            .status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn logout_without_a_session_still_answers_ok() {
    let app = spawn_app().await;
    let res = app.post_json("/api/auth/logout", &json!({}), None).await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[actix_web::test]
async fn a_blocked_user_cannot_log_in_and_their_tokens_stop_working() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let mut settings = app.settings.clone();
    settings.database.uri = std::env::var("PRESSROOM_TEST_MONGODB_URI").unwrap().into();
    pressroom::cli::run_admin(
        &settings,
        pressroom::cli::Command::User {
            action: pressroom::cli::UserAction::Block {
                email: user.email.clone(),
            },
        },
    )
    .await
    .unwrap();

    let msg = assert_error(
        app.get("/api/auth/check", Some(&user.token)).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert!(msg.contains("blocked"), "{msg}");
    let msg = assert_error(
        app.login(&user.email, PASSWORD).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(
        msg,
        "Your account has been blocked. Please contact support."
    );

    pressroom::cli::run_admin(
        &settings,
        pressroom::cli::Command::User {
            action: pressroom::cli::UserAction::Unblock {
                email: user.email.clone(),
            },
        },
    )
    .await
    .unwrap();
    assert_eq!(
        app.login(&user.email, PASSWORD).await.status(),
        StatusCode::OK
    );
    // The old token stays revoked: blocking ended it for good.
    assert_error(
        app.get("/api/auth/check", Some(&user.token)).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[actix_web::test]
async fn a_deleted_users_token_is_a_401() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let id = mongodb::bson::oid::ObjectId::parse_str(&user.id).unwrap();
    pressroom::persistence::users::delete(&app.db, id)
        .await
        .unwrap();
    assert_error(
        app.get("/api/auth/check", Some(&user.token)).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[actix_web::test]
async fn login_is_rate_limited_per_account_with_retry_after() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| s.rate_limit.login_per_account = 3)),
        ..Default::default()
    })
    .await;
    let user = app.signup().await;
    for _ in 0..3 {
        assert_eq!(
            app.login(&user.email, "wrong password").await.status(),
            StatusCode::UNAUTHORIZED
        );
    }
    let res = app.login(&user.email, PASSWORD).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = res
        .headers()
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry > 0);
    let msg = assert_error(res, StatusCode::TOO_MANY_REQUESTS).await;
    assert!(msg.starts_with("Too many attempts"), "{msg}");
    // Another account from the same address is not affected by this account's limit.
    let other = app.signup().await;
    assert_eq!(
        app.login(&other.email, PASSWORD).await.status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn login_is_rate_limited_per_address() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| s.rate_limit.login_per_address = 4)),
        ..Default::default()
    })
    .await;
    for _ in 0..4 {
        assert_eq!(
            app.login(&unique_email(), PASSWORD).await.status(),
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        app.login(&unique_email(), PASSWORD).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[actix_web::test]
async fn forwarded_addresses_count_only_from_trusted_proxies() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| {
            s.rate_limit.login_per_address = 2;
            s.server.trusted_proxies = vec!["127.0.0.1".into()];
        })),
        ..Default::default()
    })
    .await;
    let attempt = |ip: &'static str| {
        let req = app
            .client
            .post(app.url("/api/auth/login"))
            .header("x-forwarded-for", ip)
            .json(&json!({ "email": unique_email(), "password": PASSWORD }));
        async move { req.send().await.unwrap().status() }
    };
    assert_eq!(attempt("203.0.113.1").await, StatusCode::UNAUTHORIZED);
    assert_eq!(attempt("203.0.113.1").await, StatusCode::UNAUTHORIZED);
    assert_eq!(attempt("203.0.113.1").await, StatusCode::TOO_MANY_REQUESTS);
    // A different client behind the same proxy has its own allowance.
    assert_eq!(attempt("203.0.113.2").await, StatusCode::UNAUTHORIZED);
}

#[actix_web::test]
async fn an_administrator_granted_by_the_cli_is_an_admin_on_next_check() {
    let app = spawn_app().await;
    let user = app.signup().await;
    app.make_admin(&user.email).await;
    let check = json_of(app.get("/api/auth/check", Some(&user.token)).await).await;
    assert_eq!(check["role"], "admin");
    let login = json_of(app.login(&user.email, PASSWORD).await).await;
    assert_eq!(login["role"], "admin");
}
