//! Email status and retry (seed 001 §7: email-status, all-email-statuses, retry-failed-emails)
//! against the real SMTP sink, whose `refuse-once-4xx` and `refuse-once-5xx` recipients are
//! refused once with a temporary or a permanent error (scripts/smtp_sink.py).

use reqwest::StatusCode;
use serde_json::json;

use crate::support::content::*;
use crate::support::*;

/// An app whose mailer tries once per message, so a refusal is a failed message.
async fn spawn_one_try_app() -> TestApp {
    spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.mail.max_attempts = 1;
        })),
        ..AppOptions::default()
    })
    .await
}

fn refused_once(kind: &str) -> String {
    format!(
        "refuse-once-{kind}-{}@example.com",
        uuid::Uuid::new_v4().simple()
    )
}

async fn write_in(app: &TestApp, email: &str) -> String {
    let res = app
        .post_json(
            "/api/admin/contact",
            &json!({ "name": "Sender", "email": email, "subject": "Hi", "message": "Question" }),
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    json_of(res).await["id"].as_str().unwrap().to_string()
}

async fn reply(app: &TestApp, admin: &TestUser, id: &str) -> reqwest::Response {
    app.post_json(
        &format!("/api/admin/reply-contact/{id}"),
        &json!({ "subject": "Re: Hi", "message": "Our answer" }),
        Some(&admin.token),
    )
    .await
}

#[actix_web::test]
async fn a_refused_reply_is_sent_again_by_a_retry_and_a_permanent_refusal_is_given_up() {
    let app = spawn_one_try_app().await;
    let admin = app.admin().await;
    let temporary = refused_once("4xx");
    let permanent = refused_once("5xx");
    let first = write_in(&app, &temporary).await;
    let second = write_in(&app, &permanent).await;

    // The sink refuses both once: the reply fails, the message stays unhandled.
    for id in [&first, &second] {
        let res = reply(&app, &admin, id).await;
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = json_of(res).await;
        assert_eq!(body["code"], "mail_failed");
        assert!(body["message"].as_str().unwrap().contains("email log"));
    }
    let status = get_ok(
        &app,
        &format!("/api/admin/email-status?email={temporary}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(status["total"], 1);
    let log = &status["logs"][0];
    assert_eq!(log["type"], "contact_reply");
    assert_eq!(log["success"], false);
    assert_eq!(log["stopEmailAttempts"], false, "a 451 may be tried again");
    assert!(log["error"].as_str().unwrap().contains("451"), "{log}");
    let status = get_ok(
        &app,
        &format!("/api/admin/email-status?email={permanent}&type=contact_reply"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(
        status["logs"][0]["stopEmailAttempts"], true,
        "a 550 is given up"
    );

    // The retry sends the temporary one again (the sink takes it now) and leaves the other.
    let before = app.mail_count(&temporary);
    let body = retry_failed_emails(&app, &admin, "contact_reply").await;
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{body}");
    assert_eq!(results[0]["email"], temporary);
    assert_eq!(results[0]["success"], true);
    assert_eq!(results[0]["attempts"], 2);
    let mail = app.wait_for_mail(&temporary, before).await;
    assert!(mail.contains("Subject: Re: Hi"), "{mail}");
    assert!(mail.contains("Our answer"), "{mail}");
    assert_eq!(app.mail_count(&permanent), 0);
    // Nothing is left to send.
    assert_eq!(
        retry_failed_emails(&app, &admin, "contact_reply").await["results"],
        json!([])
    );

    let all = get_ok(
        &app,
        "/api/admin/all-email-statuses?type=contact_reply",
        Some(&admin.token),
    )
    .await;
    assert_eq!(all["total"], 2);
    let log = get_ok(&app, "/api/admin/audit-log", Some(&admin.token)).await;
    assert_eq!(log["logs"][0]["action"], "email.retry");
}

#[actix_web::test]
async fn a_failed_code_mail_is_sent_again_with_a_fresh_code_that_works() {
    let app = spawn_one_try_app().await;
    let admin = app.admin().await;
    let email = refused_once("4xx");
    let res = app.signup_raw("Coder", &email, PASSWORD, true).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let user = json_of(res).await;
    assert_eq!(app.mail_count(&email), 0, "the sink refused the first code");
    let logs = pressroom::persistence::email_logs::for_email(&app.db, &email, 5)
        .await
        .unwrap();
    assert_eq!(logs.len(), 1);
    assert!(!logs[0].success);
    assert!(logs[0].body.is_none(), "a code is never stored");

    let body = retry_failed_emails(&app, &admin, "verify_otp").await;
    assert_eq!(body["results"][0]["success"], true, "{body}");
    let mail = app.wait_for_mail(&email, 0).await;
    let code = code_in(&mail);
    let res = app
        .post_json(
            "/api/auth/verify-email",
            &json!({ "userId": user["_id"], "otp": code }),
            None,
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::OK,
        "the fresh code verifies the account"
    );

    // A code mail that is no longer needed is given up, not sent.
    let late = refused_once("4xx");
    let res = app.signup_raw("Late", &late, PASSWORD, true).await;
    let late_user = json_of(res).await;
    let id = mongodb::bson::oid::ObjectId::parse_str(late_user["_id"].as_str().unwrap()).unwrap();
    pressroom::persistence::users::mark_verified(&app.db, id)
        .await
        .unwrap();
    let body = retry_failed_emails(&app, &admin, "verify_otp").await;
    let result = &body["results"][0];
    assert_eq!(result["success"], false);
    assert_eq!(result["stopEmailAttempts"], true);
    assert!(result["error"]
        .as_str()
        .unwrap()
        .contains("already verified"));
    assert_eq!(app.mail_count(&late), 0);
}

#[actix_web::test]
async fn the_mailers_own_attempts_get_past_one_temporary_refusal() {
    // With the default three attempts, a 451 once costs a second attempt, not a failure.
    let app = spawn_app().await;
    let admin = app.admin().await;
    let email = refused_once("4xx");
    let id = write_in(&app, &email).await;
    let res = reply(&app, &admin, &id).await;
    assert_eq!(res.status(), StatusCode::OK);
    let status = get_ok(
        &app,
        &format!("/api/admin/email-status?email={email}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(status["logs"][0]["success"], true);
    assert_eq!(status["logs"][0]["attempts"], 2);
}

#[actix_web::test]
async fn email_routes_check_their_input() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    for (path, word) in [
        ("/api/admin/email-status", "email is required"),
        ("/api/admin/email-status?email=nope", "valid email"),
        (
            "/api/admin/email-status?email=a@b.co&type=fax",
            "type must be one of",
        ),
        (
            "/api/admin/all-email-statuses?type=fax",
            "type must be one of",
        ),
        ("/api/admin/all-email-statuses?limit=0", "limit"),
    ] {
        let msg = assert_error(
            app.get(path, Some(&admin.token)).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert!(msg.contains(word), "{path}: {msg}");
    }
    for body in [
        json!({}),
        json!({ "type": "fax" }),
        json!({ "type": ["welcome"] }),
    ] {
        let res = app
            .post_json("/api/admin/retry-failed-emails", &body, Some(&admin.token))
            .await;
        assert_error(res, StatusCode::BAD_REQUEST).await;
    }
}
