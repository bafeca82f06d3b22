//! Email verification and password reset codes, read from the real SMTP sink.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::*;

/// Submits `otp` as the user's email verification code.
async fn submit_code(app: &TestApp, user: &TestUser, otp: &str) -> reqwest::Response {
    app.post_json(
        "/api/auth/verify-email",
        &json!({ "userId": user.id, "otp": otp }),
        None,
    )
    .await
}

#[actix_web::test]
async fn a_mailed_code_verifies_the_account() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let code = app.verification_code(&user).await;
    let res = submit_code(&app, &user, &code).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["message"], "Email verified successfully");
    let check = json_of(app.get("/api/auth/check", Some(&user.token)).await).await;
    assert_eq!(check["isAccountVerified"], true);
    // Once verified, asking for another code is refused.
    let res = app
        .post_json(
            "/api/auth/send-verify-otp",
            &json!({ "userId": user.id }),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Your account is already verified"
    );
}

#[actix_web::test]
async fn signup_with_send_email_mails_a_code_and_logs_it() {
    let app = spawn_app().await;
    let email = unique_email();
    let res = app.signup_raw("Grace Hopper", &email, PASSWORD, true).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let mail = app.wait_for_mail(&email, 0).await;
    assert!(
        mail.contains("Subject: Your Pressroom verification code"),
        "{mail}"
    );
    code_in(&mail);
    let logs = pressroom::persistence::email_logs::for_email(&app.db, &email, 10)
        .await
        .unwrap();
    assert_eq!(logs.len(), 1);
    assert!(logs[0].success);
    assert_eq!(logs[0].kind, "verify_otp");
    assert_eq!(logs[0].attempts, 1);
    assert!(!logs[0].stop_email_attempts);
    assert!(logs[0].body.is_none(), "a one-time code is never stored");
}

#[actix_web::test]
async fn send_verify_otp_needs_a_session_and_only_for_yourself() {
    let app = spawn_app().await;
    let a = app.signup().await;
    let b = app.signup().await;
    let res = app
        .post_json(
            "/api/auth/send-verify-otp",
            &json!({ "userId": a.id }),
            None,
        )
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    let res = app
        .post_json(
            "/api/auth/send-verify-otp",
            &json!({ "userId": a.id }),
            Some(&b.token),
        )
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
}

#[actix_web::test]
async fn a_wrong_code_counts_and_the_fifth_wrong_try_kills_the_code() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let code = app.verification_code(&user).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let expected = [
        "4 attempts left",
        "3 attempts left",
        "2 attempts left",
        "1 attempt left",
    ];
    for left in expected {
        let res = submit_code(&app, &user, wrong).await;
        let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(msg.contains(left), "{msg} should say {left}");
    }
    let res = submit_code(&app, &user, wrong).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Too many wrong attempts. Please request a new code."
    );
    // Even the right code is dead now.
    let res = submit_code(&app, &user, &code).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "No active code. Please request a new one."
    );
}

#[actix_web::test]
async fn a_resend_replaces_the_old_code() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let first = app.verification_code(&user).await;
    let mut second = app.verification_code(&user).await;
    // Codes are random; in the rare case they coincide, ask again.
    while second == first {
        second = app.verification_code(&user).await;
    }
    let res = submit_code(&app, &user, &first).await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = submit_code(&app, &user, &second).await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[actix_web::test]
async fn an_expired_code_is_refused() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let code = app.verification_code(&user).await;
    app.db
        .database()
        .collection::<mongodb::bson::Document>("otps")
        .update_many(
            mongodb::bson::doc! {},
            mongodb::bson::doc! { "$set": { "expiresAt": mongodb::bson::DateTime::from_millis(0) } },
        )
        .await
        .unwrap();
    let res = submit_code(&app, &user, &code).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "This code has expired. Please request a new one."
    );
}

#[actix_web::test]
async fn codes_are_stored_hashed_with_a_ten_minute_expiry() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let code = app.verification_code(&user).await;
    let stored = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("otps")
        .find_one(mongodb::bson::doc! {})
        .await
        .unwrap()
        .unwrap();
    let hash = stored.get_str("codeHash").unwrap();
    assert!(!hash.contains(&code));
    assert_eq!(hash.len(), 64);
    let expires = stored.get_datetime("expiresAt").unwrap().timestamp_millis();
    let minutes = (expires - chrono::Utc::now().timestamp_millis()) as f64 / 60_000.0;
    assert!((9.0..=10.1).contains(&minutes), "{minutes}");
}

#[actix_web::test]
async fn malformed_codes_and_ids_are_400() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let cases = [
        json!({ "userId": user.id, "otp": "12ab56" }),
        json!({ "userId": user.id, "otp": "" }),
        json!({ "userId": "not-an-id", "otp": "123456" }),
        json!({ "userId": user.id, "otp": { "$gt": "" } }),
        json!({ "userId": user.id }),
    ];
    for body in cases {
        let res = app.post_json("/api/auth/verify-email", &body, None).await;
        assert_error(res, StatusCode::BAD_REQUEST).await;
    }
}

#[actix_web::test]
async fn the_reset_flow_changes_the_password_and_ends_old_sessions() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let code = app.reset_code(&user.email).await;

    let res = app
        .post_json(
            "/api/auth/verify-reset-otp",
            &json!({ "email": user.email, "otp": code }),
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        json_of(res).await["message"],
        "Code verified. You can now choose a new password."
    );

    let res = app
        .post_json(
            "/api/auth/reset-password",
            &json!({ "email": user.email, "otp": code, "newPassword": "a brand new password" }),
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        json_of(res).await["message"],
        "Your password has been reset. You can now log in with your new password."
    );

    assert_error(
        app.get("/api/auth/check", Some(&user.token)).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_error(
        app.login(&user.email, PASSWORD).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(
        app.login(&user.email, "a brand new password")
            .await
            .status(),
        StatusCode::OK
    );
    // The code was used up.
    let res = app
        .post_json(
            "/api/auth/reset-password",
            &json!({ "email": user.email, "otp": code, "newPassword": "yet another password" }),
            None,
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}

#[actix_web::test]
async fn reset_answers_the_same_for_unknown_emails_and_sends_nothing() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let unknown = unique_email();
    let known = json_of(
        app.post_json(
            "/api/auth/send-reset-otp",
            &json!({ "email": user.email }),
            None,
        )
        .await,
    )
    .await;
    let res = app
        .post_json(
            "/api/auth/send-reset-otp",
            &json!({ "email": unknown }),
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    assert_eq!(body, known);
    assert_eq!(
        body["message"],
        "If an account exists for this email, a password reset code has been sent."
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(app.mail_count(&unknown), 0);
    // Checking a code for an unknown email looks like checking one without a live code.
    let res = app
        .post_json(
            "/api/auth/verify-reset-otp",
            &json!({ "email": unknown, "otp": "123456" }),
            None,
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "No active code. Please request a new one."
    );
}

#[actix_web::test]
async fn reset_password_checks_the_new_password_before_using_the_code() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let code = app.reset_code(&user.email).await;
    let res = app
        .post_json(
            "/api/auth/reset-password",
            &json!({ "email": user.email, "otp": code, "newPassword": "short" }),
            None,
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Password must be at least 8 characters"
    );
    let res = app
        .post_json(
            "/api/auth/reset-password",
            &json!({ "email": user.email, "otp": code, "newPassword": "long enough now" }),
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[actix_web::test]
async fn otp_sends_are_rate_limited() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| s.rate_limit.otp_send_per_account = 2)),
        ..Default::default()
    })
    .await;
    let user = app.signup().await;
    for _ in 0..2 {
        let res = app
            .post_json(
                "/api/auth/send-reset-otp",
                &json!({ "email": user.email }),
                None,
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let res = app
        .post_json(
            "/api/auth/send-reset-otp",
            &json!({ "email": user.email }),
            None,
        )
        .await;
    assert!(res.headers().get("retry-after").is_some());
    assert_error(res, StatusCode::TOO_MANY_REQUESTS).await;
}

#[actix_web::test]
async fn otp_checks_are_rate_limited() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| s.rate_limit.otp_check_per_address = 3)),
        ..Default::default()
    })
    .await;
    for _ in 0..3 {
        let res = app
            .post_json(
                "/api/auth/verify-reset-otp",
                &json!({ "email": unique_email(), "otp": "123456" }),
                None,
            )
            .await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    }
    let res = app
        .post_json(
            "/api/auth/verify-reset-otp",
            &json!({ "email": unique_email(), "otp": "123456" }),
            None,
        )
        .await;
    assert_error(res, StatusCode::TOO_MANY_REQUESTS).await;
}
