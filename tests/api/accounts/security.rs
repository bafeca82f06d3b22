//! The account's own security: sign-in sessions listed and ended one by one, the new-device
//! email, two-factor sign-in.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::*;

const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";

async fn login_with_agent(app: &TestApp, email: &str, agent: &str) -> reqwest::Response {
    app.client
        .post(app.url("/api/auth/login"))
        .header("user-agent", agent)
        .json(&json!({ "email": email, "password": PASSWORD }))
        .send()
        .await
        .unwrap()
}

async fn sessions_of(app: &TestApp, token: &str) -> Vec<Value> {
    let res = app.get("/api/auth/sessions", Some(token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    json_of(res).await["sessions"].as_array().unwrap().clone()
}

#[actix_web::test]
async fn sessions_are_listed_with_their_device_and_one_can_be_ended() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let mails = app.mail_count(&user.email);
    let res = login_with_agent(&app, &user.email, FIREFOX).await;
    assert_eq!(res.status(), StatusCode::OK);
    let firefox = json_of(res).await["token"].as_str().unwrap().to_string();

    // A device the account has not used: the new sign-in email names it and links the page.
    let mail = app.wait_for_mail(&user.email, mails).await;
    assert!(mail.contains("New sign-in to your account"), "{mail}");
    assert!(mail.contains("Firefox on Linux"), "{mail}");
    assert!(mail.contains("/user-setting#sessions"), "{mail}");
    // The same device again: no email.
    let again = login_with_agent(&app, &user.email, FIREFOX).await;
    assert_eq!(again.status(), StatusCode::OK);
    let again = json_of(again).await["token"].as_str().unwrap().to_string();
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(app.mail_count(&user.email), mails + 1);

    let list = sessions_of(&app, &firefox).await;
    assert_eq!(list.len(), 3, "{list:?}");
    let current: Vec<&Value> = list.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["device"], "Firefox on Linux");
    assert_eq!(current[0]["userAgent"], FIREFOX);
    for s in &list {
        for key in ["id", "device", "city", "country", "createdAt", "lastSeenAt"] {
            assert!(s[key].is_string(), "{key} in {s}");
        }
    }
    let first = list
        .iter()
        .find(|s| s["device"] == "Unknown device")
        .unwrap();
    let first_id = first["id"].as_str().unwrap();

    // Another user cannot see or end it.
    let stranger = app.signup().await;
    assert!(sessions_of(&app, &stranger.token)
        .await
        .iter()
        .all(|s| s["id"] != first_id));
    let res = app
        .delete(
            &format!("/api/auth/sessions/{first_id}"),
            Some(&stranger.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    assert_eq!(
        app.get("/api/auth/check", Some(&user.token)).await.status(),
        StatusCode::OK
    );

    // The owner ends it: its token is refused at once, the others go on.
    let res = app
        .delete(&format!("/api/auth/sessions/{first_id}"), Some(&firefox))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["message"], "Signed out of that session");
    assert_error(
        app.get("/api/auth/check", Some(&user.token)).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(
        app.get("/api/auth/check", Some(&again)).await.status(),
        StatusCode::OK
    );
    let list = sessions_of(&app, &firefox).await;
    assert_eq!(list.len(), 2);
    assert!(list.iter().all(|s| s["id"] != first_id));
    // Twice, or an unknown id: 404.
    for id in [first_id, "not-a-session"] {
        let res = app
            .delete(&format!("/api/auth/sessions/{id}"), Some(&firefox))
            .await;
        assert_error(res, StatusCode::NOT_FOUND).await;
    }
    // Logging out ends the session in the list too; log out everywhere empties it.
    let res = app
        .post_json("/api/auth/logout", &json!({}), Some(&again))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(sessions_of(&app, &firefox).await.len(), 1);
    let res = app
        .post_json("/api/auth/logout-all", &json!({}), Some(&firefox))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let fresh = json_of(login_with_agent(&app, &user.email, FIREFOX).await).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(sessions_of(&app, &fresh).await.len(), 1);
}

#[actix_web::test]
async fn last_seen_is_written_at_most_once_a_minute() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let first = sessions_of(&app, &user.token).await[0]["lastSeenAt"].clone();
    for _ in 0..5 {
        app.get("/api/auth/check", Some(&user.token)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let after = sessions_of(&app, &user.token).await[0]["lastSeenAt"].clone();
    assert_eq!(first, after, "no write within the minute");
}

/// A TOTP code computed by an independent implementation (Python's pyotp, installed by
/// `scripts/lib.sh` in the test virtualenv) for `secret` at `unix` seconds.
pub(super) fn pyotp_code(secret: &str, unix: i64) -> String {
    let python = std::env::var("PRESSROOM_TEST_PYTHON").unwrap_or_else(|_| {
        format!(
            "{}/.cache/pressroom/venv/bin/python",
            std::env::var("HOME").unwrap()
        )
    });
    let out = std::process::Command::new(python)
        .args([
            "-c",
            "import sys, pyotp; print(pyotp.TOTP(sys.argv[1]).at(int(sys.argv[2])))",
            secret,
            &unix.to_string(),
        ])
        .output()
        .expect("pyotp runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn now_unix() -> i64 {
    chrono::Utc::now().timestamp()
}

async fn login_body(app: &TestApp, email: &str) -> Value {
    let res = app.login(email, PASSWORD).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers().get("set-cookie").is_none(),
        "no session cookie before the second factor"
    );
    json_of(res).await
}

async fn verify(app: &TestApp, challenge: &str, code: &str) -> reqwest::Response {
    app.post_json(
        "/api/auth/2fa/verify",
        &json!({ "challenge": challenge, "code": code }),
        None,
    )
    .await
}

async fn error_code(res: reqwest::Response, status: StatusCode) -> String {
    assert_eq!(res.status(), status);
    json_of(res).await["code"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[actix_web::test]
async fn two_factor_sign_in_with_totp_codes_and_recovery_codes() {
    // More tries than the default allowance: this test makes many on purpose.
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| s.rate_limit.otp_check_per_account = 40)),
        ..Default::default()
    })
    .await;
    let user = app.signup().await;
    let status = json_of(app.get("/api/auth/2fa", Some(&user.token)).await).await;
    assert_eq!(status["enabled"], false);

    // Setup: a base32 secret and the address of the QR code.
    let res = app
        .post_json("/api/auth/2fa/setup", &json!({}), Some(&user.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let setup = json_of(res).await;
    let secret = setup["secret"].as_str().unwrap().to_string();
    assert!(
        secret.len() >= 32
            && secret
                .chars()
                .all(|c| c.is_ascii_uppercase() || ('2'..='7').contains(&c)),
        "{secret}"
    );
    let url = setup["otpauthUrl"].as_str().unwrap();
    assert!(url.starts_with("otpauth://totp/Pressroom:"), "{url}");
    assert!(
        url.contains(&format!("secret={secret}")) && url.contains("issuer=Pressroom"),
        "{url}"
    );

    // A code far from now is refused; the current one turns it on.
    let far = pyotp_code(&secret, now_unix() + 600);
    let res = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": far }),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        error_code(res, StatusCode::BAD_REQUEST).await,
        "invalid_code"
    );
    let mails = app.mail_count(&user.email);
    let now = now_unix();
    let first = pyotp_code(&secret, now);
    let res = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": first }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let codes: Vec<String> = json_of(res).await["recoveryCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert_eq!(codes.len(), 10);
    assert_eq!(
        codes.iter().collect::<std::collections::HashSet<_>>().len(),
        10
    );
    let mail = app.wait_for_mail(&user.email, mails).await;
    assert!(mail.contains("Two-factor sign-in is on"), "{mail}");
    // Stored only as hashes; the secret sealed.
    let stored = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("two_factor")
        .find_one(mongodb::bson::doc! {})
        .await
        .unwrap()
        .unwrap();
    let text = stored.to_string();
    assert!(
        !text.contains(&codes[0]) && !text.contains(&secret),
        "{text}"
    );
    let audited = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("audit_log")
        .count_documents(
            mongodb::bson::doc! { "action": "two_factor.enable", "targetId": &user.id },
        )
        .await
        .unwrap();
    assert_eq!(audited, 1);

    // Login now asks for the second factor: no token.
    let body = login_body(&app, &user.email).await;
    assert_eq!(body["twoFactorRequired"], true);
    assert!(body.get("token").is_none());
    let challenge = body["challenge"].as_str().unwrap().to_string();
    // The code already used to enable is not accepted again (no replay in its window).
    assert_eq!(
        error_code(
            verify(&app, &challenge, &first).await,
            StatusCode::BAD_REQUEST
        )
        .await,
        "code_used"
    );
    assert_eq!(
        error_code(
            verify(&app, &challenge, "12345").await,
            StatusCode::BAD_REQUEST
        )
        .await,
        "invalid_code"
    );
    // The next step's code (one step of drift) signs in, once.
    let next = pyotp_code(&secret, now + 30);
    let res = verify(&app, &challenge, &next).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers().get("set-cookie").is_some());
    let token = json_of(res).await["token"].as_str().unwrap().to_string();
    assert_eq!(
        app.get("/api/auth/check", Some(&token)).await.status(),
        StatusCode::OK
    );
    // The signup's session and the one the second factor completed.
    let listed = sessions_of(&app, &token).await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed.iter().filter(|s| s["current"] == true).count(), 1);
    assert_eq!(
        error_code(
            verify(&app, &challenge, &codes[0]).await,
            StatusCode::UNAUTHORIZED
        )
        .await,
        "invalid_challenge"
    );

    // Recovery codes: each works once.
    let challenge = login_body(&app, &user.email).await["challenge"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        verify(&app, &challenge, &codes[0].to_uppercase())
            .await
            .status(),
        StatusCode::OK
    );
    let challenge = login_body(&app, &user.email).await["challenge"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        error_code(
            verify(&app, &challenge, &codes[0]).await,
            StatusCode::BAD_REQUEST
        )
        .await,
        "invalid_code"
    );
    assert_eq!(
        verify(&app, &challenge, &codes[1]).await.status(),
        StatusCode::OK
    );
    let status = json_of(app.get("/api/auth/2fa", Some(&token)).await).await;
    assert_eq!(status["enabled"], true);
    assert_eq!(status["recoveryCodesLeft"], 8);

    // A challenge expires after five minutes.
    let challenge = login_body(&app, &user.email).await["challenge"]
        .as_str()
        .unwrap()
        .to_string();
    app.db
        .database()
        .collection::<mongodb::bson::Document>("login_challenges")
        .update_many(
            mongodb::bson::doc! {},
            mongodb::bson::doc! { "$set": { "expiresAt": mongodb::bson::DateTime::from_millis(0) } },
        )
        .await
        .unwrap();
    assert_eq!(
        error_code(
            verify(&app, &challenge, &codes[2]).await,
            StatusCode::UNAUTHORIZED
        )
        .await,
        "invalid_challenge"
    );

    // New recovery codes replace the old ones (password and a code).
    let res = app
        .post_json(
            "/api/auth/2fa/recovery-codes",
            &json!({ "password": "wrong password", "code": codes[2] }),
            Some(&token),
        )
        .await;
    assert_eq!(
        error_code(res, StatusCode::BAD_REQUEST).await,
        "invalid_credentials"
    );
    let res = app
        .post_json(
            "/api/auth/2fa/recovery-codes",
            &json!({ "password": PASSWORD, "code": codes[2] }),
            Some(&token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let fresh: Vec<String> = json_of(res).await["recoveryCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert_eq!(fresh.len(), 10);
    let challenge = login_body(&app, &user.email).await["challenge"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        error_code(
            verify(&app, &challenge, &codes[3]).await,
            StatusCode::BAD_REQUEST
        )
        .await,
        "invalid_code"
    );

    // Turning it off needs the password and a code; then the password alone signs in.
    let mails = app.mail_count(&user.email);
    let res = app
        .post_json(
            "/api/auth/2fa/disable",
            &json!({ "password": PASSWORD, "code": fresh[0] }),
            Some(&token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let mail = app.wait_for_mail(&user.email, mails).await;
    assert!(mail.contains("Two-factor sign-in is off"), "{mail}");
    let res = app.login(&user.email, PASSWORD).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(json_of(res).await["token"].is_string());
}

#[actix_web::test]
async fn wrong_second_factor_codes_are_rate_limited() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let setup = json_of(
        app.post_json("/api/auth/2fa/setup", &json!({}), Some(&user.token))
            .await,
    )
    .await;
    let secret = setup["secret"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": pyotp_code(&secret, now_unix()) }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let challenge = login_body(&app, &user.email).await["challenge"]
        .as_str()
        .unwrap()
        .to_string();
    let mut statuses = Vec::new();
    let mut last = None;
    for _ in 0..12 {
        let res = verify(&app, &challenge, "aaaaa-bbbbb").await;
        statuses.push(res.status());
        if res.status() == StatusCode::TOO_MANY_REQUESTS {
            last = Some(res);
            break;
        }
    }
    let limited = last.expect("the wrong codes are limited");
    let retry: u64 = limited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1, "{statuses:?}");
    // Even the right code waits for the window now.
    let right = pyotp_code(&secret, now_unix() + 30);
    assert_eq!(
        verify(&app, &challenge, &right).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[actix_web::test]
async fn money_and_power_need_a_password_confirmed_in_the_last_ten_minutes() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let admin = app.admin().await;
    let target = app.signup().await;
    app.age_session(&user.token, 11).await;
    app.age_session(&admin.token, 11).await;

    let bank = json!({
        "accountHolderName": "Ada Lovelace",
        "accountNumber": "000123456789",
        "bankCode": "110000000",
        "bankName": "Test Bank"
    });
    let refused = [
        app.post_json("/api/payment/bank-details", &bank, Some(&user.token))
            .await,
        app.post_json(
            "/api/auth/change-password",
            &json!({ "currentPassword": PASSWORD, "newPassword": "another good password" }),
            Some(&user.token),
        )
        .await,
        app.patch_json(
            &format!("/api/user/toggle-role/{}", target.id),
            &json!({}),
            Some(&admin.token),
        )
        .await,
        app.post_json(
            "/api/earning/admin/payouts",
            &json!({ "users": [target.id] }),
            Some(&admin.token),
        )
        .await,
    ];
    for res in refused {
        assert_eq!(res.status(), StatusCode::FORBIDDEN);
        let body = json_of(res).await;
        assert_eq!(body["code"], "reauth_required", "{body}");
        assert!(body["message"]
            .as_str()
            .unwrap()
            .contains("confirm your password"));
    }

    // A wrong password does not count; the right one opens ten minutes.
    let res = app
        .post_json(
            "/api/auth/reauth",
            &json!({ "password": "not my password" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        error_code(res, StatusCode::BAD_REQUEST).await,
        "invalid_credentials"
    );
    app.reauth(&user).await;
    app.reauth(&admin).await;
    let res = app
        .patch_json(
            &format!("/api/user/toggle-role/{}", target.id),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .post_json(
            "/api/auth/change-password",
            &json!({ "currentPassword": PASSWORD, "newPassword": "another good password" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    // The new session of the password change is itself a fresh sign-in.
    let token = json_of(res).await["token"].as_str().unwrap().to_string();
    let res = app
        .post_json("/api/payment/bank-details", &bank, Some(&token))
        .await;
    assert_ne!(res.status(), StatusCode::FORBIDDEN);
}

#[actix_web::test]
async fn with_two_factor_on_the_confirmation_needs_a_code_too() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let setup = json_of(
        app.post_json("/api/auth/2fa/setup", &json!({}), Some(&user.token))
            .await,
    )
    .await;
    let secret = setup["secret"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": pyotp_code(&secret, now_unix()) }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let codes = json_of(res).await["recoveryCodes"].clone();
    app.age_session(&user.token, 11).await;
    let res = app
        .post_json(
            "/api/auth/2fa/disable",
            &json!({ "password": PASSWORD, "code": codes[0] }),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        error_code(res, StatusCode::FORBIDDEN).await,
        "reauth_required"
    );
    let res = app
        .post_json(
            "/api/auth/reauth",
            &json!({ "password": PASSWORD }),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        error_code(res, StatusCode::BAD_REQUEST).await,
        "code_required"
    );
    let res = app
        .post_json(
            "/api/auth/reauth",
            &json!({ "password": PASSWORD, "code": codes[0] }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .post_json(
            "/api/auth/2fa/disable",
            &json!({ "password": PASSWORD, "code": codes[1] }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[actix_web::test]
async fn deleting_ones_own_account_is_scheduled_cancelled_by_signing_in_and_carried_out_once() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| {
            s.accounts.deletion_grace_seconds = 3;
            s.accounts.deletion_check_seconds = 1;
        })),
        ..Default::default()
    })
    .await;
    let user = app.signup().await;
    let follower = app.signup().await;
    app.follow_directly(&follower, &user).await;

    // The settings page states the configured grace period.
    let config = json_of(app.get("/api/config/public", None).await).await;
    assert_eq!(config["accountDeletionGraceSeconds"], 3);

    // Step-up and the password.
    app.age_session(&user.token, 11).await;
    let res = app
        .post_json(
            "/api/user/delete-account",
            &json!({ "password": PASSWORD }),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        error_code(res, StatusCode::FORBIDDEN).await,
        "reauth_required"
    );
    app.reauth(&user).await;
    let res = app
        .post_json(
            "/api/user/delete-account",
            &json!({ "password": "wrong password" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        error_code(res, StatusCode::BAD_REQUEST).await,
        "invalid_credentials"
    );

    let mails = app.mail_count(&user.email);
    let res = app
        .post_json(
            "/api/user/delete-account",
            &json!({ "password": PASSWORD }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let at = json_of(res).await["deletionScheduledAt"]
        .as_str()
        .unwrap()
        .to_string();
    let at = chrono::DateTime::parse_from_rfc3339(&at).unwrap();
    let grace = at.signed_duration_since(chrono::Utc::now()).num_seconds();
    assert!((1..=4).contains(&grace), "{grace}");
    // Every session ended; the email says how to keep the account.
    assert_eq!(
        app.get("/api/auth/check", Some(&user.token)).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let mail = app.wait_for_mail(&user.email, mails).await;
    assert!(mail.contains("scheduled for deletion"), "{mail}");

    // Signing in during the grace period cancels it.
    let mails = app.mail_count(&user.email);
    let res = app.login(&user.email, PASSWORD).await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    assert_eq!(body["deletionCancelled"], true);
    let token = body["token"].as_str().unwrap().to_string();
    let mail = app.wait_for_mail(&user.email, mails).await;
    assert!(mail.contains("will not be deleted"), "{mail}");
    let res = app.login(&user.email, PASSWORD).await;
    assert!(json_of(res).await.get("deletionCancelled").is_none());
    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
    assert_eq!(
        app.get("/api/auth/check", Some(&token)).await.status(),
        StatusCode::OK
    );

    // Asked again and left alone: the worker removes the account once the grace period ends.
    let res = app
        .post_json(
            "/api/user/delete-account",
            &json!({ "password": PASSWORD }),
            Some(&token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let oid = mongodb::bson::oid::ObjectId::parse_str(&user.id).unwrap();
    loop {
        let gone = app
            .db
            .database()
            .collection::<mongodb::bson::Document>("users")
            .count_documents(mongodb::bson::doc! { "_id": oid })
            .await
            .unwrap()
            == 0;
        if gone {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the account was not removed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    let db = app.db.database();
    let count = |name: &'static str, filter: mongodb::bson::Document| {
        let db = db.clone();
        async move {
            db.collection::<mongodb::bson::Document>(name)
                .count_documents(filter)
                .await
                .unwrap()
        }
    };
    assert_eq!(
        count("deleted_accounts", mongodb::bson::doc! { "_id": oid }).await,
        1
    );
    assert_eq!(count("account_deletions", mongodb::bson::doc! {}).await, 0);
    assert_eq!(
        count("follows", mongodb::bson::doc! { "followeeId": oid }).await,
        0
    );
    assert_eq!(
        count("sessions", mongodb::bson::doc! { "userId": oid }).await,
        0
    );
    assert_eq!(
        app.login(&user.email, PASSWORD).await.status(),
        StatusCode::UNAUTHORIZED
    );
    // Scheduled twice, cancelled once, carried out once: each in the audit log.
    for (action, times) in [
        ("account.deletion_schedule", 2),
        ("account.deletion_cancel", 1),
        ("account.delete", 1),
    ] {
        assert_eq!(
            count(
                "audit_log",
                mongodb::bson::doc! { "action": action, "targetId": &user.id, "actorId": oid },
            )
            .await,
            times,
            "{action}"
        );
    }
}

#[actix_web::test]
async fn a_data_export_is_built_in_the_background_downloaded_by_its_owner_only_and_once_a_day() {
    use crate::support::content::{create_post, paragraph, png_data_url, post_body, with};
    use std::io::Read;
    let dir = std::env::temp_dir().join(format!(
        "pressroom-exports-{}",
        uuid::Uuid::new_v4().simple()
    ));
    let export_dir = dir.clone();
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s| {
            s.accounts.export_dir = export_dir.clone();
            s.accounts.export_check_seconds = 1;
        })),
        ..Default::default()
    })
    .await;
    let me = app.signup().await;
    let other = app.signup_as(&format!("other-{}", unique_email())).await;
    let key = json_of(
        app.post_json(
            "/api/keys",
            &json!({ "name": "Exported", "scopes": ["read:posts"] }),
            Some(&me.token),
        )
        .await,
    )
    .await["key"]
        .as_str()
        .unwrap()
        .to_string();
    // A webhook endpoint (a public address; nothing it listens for happens here): its URL goes
    // out, its secret does not.
    let hook = app
        .post_json(
            "/api/webhooks",
            &json!({ "url": "https://93.184.216.34/exported-hook", "events": ["follower.created"] }),
            Some(&me.token),
        )
        .await;
    assert_eq!(hook.status(), StatusCode::CREATED);
    let hook_secret = json_of(hook).await["secret"].as_str().unwrap().to_string();
    // A passkey, stored the way the API stores it: its name goes out, its key material does not.
    app.db
        .database()
        .collection::<mongodb::bson::Document>("passkeys")
        .insert_one(mongodb::bson::doc! {
            "userId": mongodb::bson::oid::ObjectId::parse_str(&me.id).unwrap(),
            "credentialId": "cred-secret", "userHandle": "handle-secret", "name": "Laptop",
            "staticState": "key-secret", "dynamicState": "state-secret", "signCount": 3_i64,
            "transports": ["internal"], "backedUp": true, "createdAt": mongodb::bson::DateTime::now(),
        })
        .await
        .unwrap();
    let post = create_post(
        &app,
        &me.token,
        json!({
            "title": "My exported essay",
            "blocks": [
                { "id": "h1", "type": "header", "data": { "text": "A heading", "level": 2 } },
                paragraph("p1", "Words worth <b>keeping</b>"),
                { "id": "i1", "type": "image", "data": { "file": { "url": png_data_url() }, "caption": "A dot" } }
            ]
        }),
    )
    .await;
    let slug = post["post"]["slug"]
        .as_str()
        .or(post["slug"].as_str())
        .unwrap()
        .to_string();
    let post_id = post["post"]["_id"]
        .as_str()
        .or(post["_id"].as_str())
        .unwrap()
        .to_string();
    create_post(
        &app,
        &other.token,
        with(
            post_body("Someone else's secret draft", "hidden"),
            json!({ "status": "draft" }),
        ),
    )
    .await;
    app.follow_directly(&other, &me).await;
    let res = app
        .post_json(
            &format!("/api/comment/add-comment/{post_id}"),
            &json!({ "content": "My own remark" }),
            Some(&me.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);

    let mails = app.mail_count(&me.email);
    let res = app
        .post_json("/api/user/export", &json!({}), Some(&me.token))
        .await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let started = json_of(res).await;
    assert_eq!(started["export"]["state"], "pending");
    // One a day.
    let res = app
        .post_json("/api/user/export", &json!({}), Some(&me.token))
        .await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry > 80_000, "{retry}");

    // The worker builds it; the owner sees a signed link.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let url = loop {
        let list = json_of(app.get("/api/user/export", Some(&me.token)).await).await;
        let item = &list["exports"][0];
        if item["state"] == "ready" {
            break item["downloadUrl"].as_str().unwrap().to_string();
        }
        assert_ne!(item["state"], "failed");
        assert!(
            std::time::Instant::now() < deadline,
            "the export was not built: {list}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    };
    let mail = app.wait_for_mail(&me.email, mails).await;
    assert!(mail.contains("Your data export is ready"), "{mail}");
    assert!(
        json_of(app.get("/api/user/export", Some(&other.token)).await).await["exports"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // Only the owner, only with the signature.
    assert_eq!(
        app.get(&url, Some(&other.token)).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(app.get(&url, None).await.status(), StatusCode::UNAUTHORIZED);
    let tampered = format!("{}0", url.trim_end_matches(|c: char| c.is_ascii_hexdigit()));
    assert_eq!(
        app.get(&tampered, Some(&me.token)).await.status(),
        StatusCode::FORBIDDEN
    );
    let res = app.get(&url, Some(&me.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/zip");
    assert!(res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains("attachment"));
    let bytes = res.bytes().await.unwrap();

    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut files = std::collections::BTreeMap::new();
    for i in 0..archive.len() {
        let mut f = archive.by_index(i).unwrap();
        let mut content = Vec::new();
        f.read_to_end(&mut content).unwrap();
        files.insert(f.name().to_string(), content);
    }
    let names: Vec<&String> = files.keys().collect();
    for expected in [
        "profile.json",
        "comments.json",
        "likes.json",
        "bookmarks.json",
        "follows.json",
        "notifications.json",
        "activity.json",
        "passkeys.json",
        "consent.json",
        "subscriptions.csv",
        "tips.csv",
        "plans.json",
        "earnings.csv",
        "payouts.csv",
    ] {
        assert!(files.contains_key(expected), "{expected} in {names:?}");
    }
    let text = |name: &str| String::from_utf8(files[name].clone()).unwrap();
    for name in ["api_keys.json", "webhooks.json"] {
        assert!(files.contains_key(name), "{name} in {names:?}");
    }
    let keys = text("api_keys.json");
    assert!(
        keys.contains(&key[..16]) && !keys.contains(&key[16..]),
        "{keys}"
    );
    assert!(
        !keys.contains(&pressroom::domain::api_keys::hash(&key)),
        "{keys}"
    );
    let hooks = text("webhooks.json");
    assert!(hooks.contains("/exported-hook"), "{hooks}");
    assert!(
        !hooks.contains(&hook_secret) && !hooks.contains("whsec_"),
        "{hooks}"
    );
    let passkeys = text("passkeys.json");
    assert!(passkeys.contains("\"Laptop\""), "{passkeys}");
    assert!(!passkeys.contains("secret"), "{passkeys}");
    let profile: Value = serde_json::from_str(&text("profile.json")).unwrap();
    assert_eq!(profile["email"], me.email);
    assert!(profile.get("passwordHash").is_none());
    let post_json: Value = serde_json::from_str(&text(&format!("posts/{slug}.json"))).unwrap();
    assert_eq!(post_json["title"], "My exported essay");
    assert_eq!(post_json["blocks"].as_array().unwrap().len(), 3);
    let md = text(&format!("posts/{slug}.md"));
    assert!(md.starts_with("---\ntitle: \"My exported essay\""), "{md}");
    assert!(
        md.contains("## A heading") && md.contains("Words worth keeping"),
        "{md}"
    );
    let media: Vec<&String> = names
        .iter()
        .copied()
        .filter(|n| n.starts_with(&format!("posts/{slug}/media/")))
        .collect();
    assert_eq!(media.len(), 1, "{names:?}");
    assert_eq!(&files[media[0]][..4], b"\x89PNG");
    assert!(text("comments.json").contains("My own remark"));
    let follows: Value = serde_json::from_str(&text("follows.json")).unwrap();
    assert_eq!(follows["followers"][0]["id"], other.id);
    assert!(follows["followers"][0]["name"].is_string());
    assert!(text("subscriptions.csv").starts_with("id,subscriberId,authorId,planName"));
    // Nothing of the other user's private data.
    for (name, content) in &files {
        let s = String::from_utf8_lossy(content);
        assert!(
            !s.contains(&other.email),
            "{name} holds another user's email"
        );
        assert!(
            !s.contains("Someone else's secret draft"),
            "{name} holds another user's draft"
        );
    }
    // The request and the download are in the audit log, under the owner.
    for action in ["account.export_request", "account.export_download"] {
        let entry = app
            .db
            .database()
            .collection::<mongodb::bson::Document>("audit_log")
            .find_one(mongodb::bson::doc! { "action": action })
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("{action} recorded"));
        assert_eq!(
            entry.get_object_id("actorId").unwrap().to_hex(),
            me.id,
            "{action}"
        );
        assert_eq!(entry.get_str("targetType").unwrap(), "data_export");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[actix_web::test]
async fn administrators_can_require_two_factor_sign_in_of_administrators() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let other_admin = app.admin().await;
    let user = app.signup().await;

    // Off by default; an ordinary user cannot read or change it.
    let res = app.get("/api/admin/settings", Some(&admin.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        json_of(res).await["settings"]["requireAdminTwoFactor"],
        false
    );
    let res = app
        .patch_json(
            "/api/admin/settings",
            &json!({ "requireAdminTwoFactor": true }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app
        .patch_json(
            "/api/admin/settings",
            &json!({ "requireAdminTwoFactor": "yes" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);

    // Requiring it needs the factor on one's own account first.
    let res = app
        .patch_json(
            "/api/admin/settings",
            &json!({ "requireAdminTwoFactor": true }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let setup = json_of(
        app.post_json("/api/auth/2fa/setup", &json!({}), Some(&admin.token))
            .await,
    )
    .await;
    let secret = setup["secret"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": pyotp_code(&secret, now_unix()) }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .patch_json(
            "/api/admin/settings",
            &json!({ "requireAdminTwoFactor": true }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        json_of(res).await["settings"]["requireAdminTwoFactor"],
        true
    );
    let audited = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("audit_log")
        .count_documents(mongodb::bson::doc! { "action": "settings.update" })
        .await
        .unwrap();
    assert_eq!(audited, 1);

    // The administrator with the factor keeps working.
    assert_eq!(
        app.get("/api/admin/overview", Some(&admin.token))
            .await
            .status(),
        StatusCode::OK
    );
    // The one without it is refused every administrator tool with a clear code...
    for path in [
        "/api/admin/overview",
        "/api/admin/settings",
        "/api/admin/audit-log",
    ] {
        let res = app.get(path, Some(&other_admin.token)).await;
        assert_eq!(
            error_code(res, StatusCode::FORBIDDEN).await,
            "two_factor_required",
            "{path}"
        );
    }
    // ...an ordinary user still gets the plain refusal...
    let res = app.get("/api/admin/overview", Some(&user.token)).await;
    assert_eq!(error_code(res, StatusCode::FORBIDDEN).await, "forbidden");
    // ...and what setting the factor up needs stays open.
    assert_eq!(
        app.get("/api/auth/2fa", Some(&other_admin.token))
            .await
            .status(),
        StatusCode::OK
    );
    let setup = json_of(
        app.post_json("/api/auth/2fa/setup", &json!({}), Some(&other_admin.token))
            .await,
    )
    .await;
    let secret = setup["secret"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": pyotp_code(&secret, now_unix()) }),
            Some(&other_admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        app.get("/api/admin/overview", Some(&other_admin.token))
            .await
            .status(),
        StatusCode::OK
    );

    // Turned off again: administrators without the factor are let in.
    let res = app
        .patch_json(
            "/api/admin/settings",
            &json!({ "requireAdminTwoFactor": false }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let third = app.admin().await;
    assert_eq!(
        app.get("/api/admin/overview", Some(&third.token))
            .await
            .status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn every_sign_in_is_a_session_signup_login_and_the_second_factor_step() {
    let app = spawn_app().await;
    let user = app.signup().await;
    // A second sign-in, which turns two-factor sign-in on.
    let res = login_with_agent(&app, &user.email, FIREFOX).await;
    assert_eq!(res.status(), StatusCode::OK);
    let a = json_of(res).await["token"].as_str().unwrap().to_string();
    let setup = json_of(
        app.post_json("/api/auth/2fa/setup", &json!({}), Some(&a))
            .await,
    )
    .await;
    let secret = setup["secret"].as_str().unwrap().to_string();
    let now = now_unix();
    let res = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": pyotp_code(&secret, now) }),
            Some(&a),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    // A third, through the second-factor step.
    let body = login_body(&app, &user.email).await;
    let res = verify(
        &app,
        body["challenge"].as_str().unwrap(),
        &pyotp_code(&secret, now + 30),
    )
    .await;
    assert_eq!(res.status(), StatusCode::OK);
    let list = sessions_of(&app, &a).await;
    assert_eq!(list.len(), 3, "{list:?}");
    assert_eq!(list.iter().filter(|s| s["current"] == true).count(), 1);
}
