//! Passkeys against an independent software authenticator (`tests/api/authenticator.py`: PyPI
//! `soft-webauthn` on Yubico's `fido2`): adding one, signing in with no email and no second
//! factor, step-up, renaming and removing, the administrators' two-factor rule, and every
//! refusal (replay, expired challenge, another site, no user verification, a counter going
//! backwards, another account's passkey, unknown or malformed credentials) changing nothing.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::*;

/// The site's public address in these tests: the RP ID is its host.
const SITE: &str = "http://localhost:8080";

async fn passkey_app() -> TestApp {
    spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.server.public_url = SITE.into();
        })),
        ..Default::default()
    })
    .await
}

/// A software authenticator holding one credential in its own state file.
struct Device {
    state: std::path::PathBuf,
}

impl Drop for Device {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.state);
    }
}

impl Device {
    fn new() -> Device {
        Device {
            state: std::env::temp_dir().join(format!(
                "pressroom-authenticator-{}.json",
                uuid::Uuid::new_v4().simple()
            )),
        }
    }

    fn run(&self, command: &str, origin: &str, flags: &[&str], options: &Value) -> Value {
        let python = std::env::var("PRESSROOM_TEST_PYTHON").unwrap_or_else(|_| {
            format!(
                "{}/.cache/pressroom/venv/bin/python",
                std::env::var("HOME").unwrap()
            )
        });
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/api/authenticator.py");
        let mut child = std::process::Command::new(python)
            .arg(script)
            .arg(command)
            .arg(&self.state)
            .arg(origin)
            .args(flags)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the software authenticator runs");
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(options.to_string().as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

/// Options from `path` split into the options and their `challengeId`.
async fn options(app: &TestApp, path: &str, token: Option<&str>) -> (Value, String) {
    let res = app.post_json(path, &json!({}), token).await;
    assert_eq!(res.status(), StatusCode::OK, "{path}");
    let mut body = json_of(res).await;
    let id = body["challengeId"].as_str().unwrap().to_string();
    body.as_object_mut().unwrap().remove("challengeId");
    (body, id)
}

/// Adds a passkey named `name` made by `device` to `user`'s account.
async fn add_passkey(app: &TestApp, user: &TestUser, device: &Device, name: &str) -> Value {
    let (opts, id) = options(
        app,
        "/api/auth/passkeys/register/options",
        Some(&user.token),
    )
    .await;
    let credential = device.run("create", SITE, &[], &opts);
    let res = send_registration(app, &user.token, &id, name, &credential).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    json_of(res).await
}

/// `POST /api/auth/passkeys/register/verify` of `credential`, named `name`, for the ceremony `id`.
async fn send_registration(
    app: &TestApp,
    token: &str,
    id: &str,
    name: &str,
    credential: &Value,
) -> reqwest::Response {
    app.post_json(
        "/api/auth/passkeys/register/verify",
        &json!({ "challengeId": id, "name": name, "credential": credential }),
        Some(token),
    )
    .await
}

/// An assertion by `device` for fresh sign-in options.
async fn sign_in_assertion(app: &TestApp, device: &Device, flags: &[&str]) -> (Value, String) {
    let (opts, id) = options(app, "/api/auth/passkeys/login/options", None).await;
    (device.run("get", SITE, flags, &opts), id)
}

async fn sign_in(app: &TestApp, id: &str, credential: &Value) -> reqwest::Response {
    app.post_json(
        "/api/auth/passkeys/login/verify",
        &json!({ "challengeId": id, "credential": credential }),
        None,
    )
    .await
}

async fn refused(res: reqwest::Response, status: StatusCode, code: &str) -> String {
    assert_eq!(res.status(), status);
    let body = json_of(res).await;
    assert_eq!(body["code"], code, "{body}");
    body["message"].as_str().unwrap().to_string()
}

async fn stored(app: &TestApp, user: &TestUser) -> Vec<mongodb::bson::Document> {
    use futures_util::TryStreamExt;
    let id = mongodb::bson::oid::ObjectId::parse_str(&user.id).unwrap();
    app.db
        .database()
        .collection::<mongodb::bson::Document>("passkeys")
        .find(mongodb::bson::doc! { "userId": id })
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap()
}

/// Turns two-factor sign-in on for `user` with a code from pyotp.
async fn enable_two_factor(app: &TestApp, user: &TestUser) {
    let setup = app
        .post_json("/api/auth/2fa/setup", &json!({}), Some(&user.token))
        .await;
    let secret = json_of(setup).await["secret"].as_str().unwrap().to_string();
    let code = super::security::pyotp_code(&secret, chrono::Utc::now().timestamp());
    let res = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": code }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
}

/// Blocks or unblocks the account straight in the store.
async fn set_blocked(app: &TestApp, user: &TestUser, blocked: bool) {
    app.db
        .database()
        .collection::<mongodb::bson::Document>("users")
        .update_one(
            mongodb::bson::doc! { "_id": mongodb::bson::oid::ObjectId::parse_str(&user.id).unwrap() },
            mongodb::bson::doc! { "$set": { "blocked": blocked } },
        )
        .await
        .unwrap();
}

async fn security_log(app: &TestApp, user: &TestUser) -> Vec<Value> {
    let res = app.get("/api/auth/security-log", Some(&user.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    json_of(res).await["events"].as_array().unwrap().clone()
}

#[actix_web::test]
async fn a_passkey_signs_in_with_no_email_and_counts_as_two_factors() {
    let app = passkey_app().await;
    let user = app.signup().await;
    // Two-factor sign-in is on: a password alone asks for a code...
    enable_two_factor(&app, &user).await;

    let mails = app.mail_count(&user.email);
    let device = Device::new();
    let (opts, _) = options(
        &app,
        "/api/auth/passkeys/register/options",
        Some(&user.token),
    )
    .await;
    assert_eq!(opts["rp"]["id"], "localhost");
    assert_eq!(
        opts["authenticatorSelection"]["userVerification"],
        "required"
    );
    assert_eq!(opts["authenticatorSelection"]["residentKey"], "required");
    assert_eq!(opts["attestation"], "none");
    // credProtect is asked for, never enforced: browsers refuse authenticators without it
    // outright when it is.
    assert_eq!(
        opts["extensions"]["credentialProtectionPolicy"],
        "userVerificationRequired"
    );
    assert_ne!(
        opts["extensions"]["enforceCredentialProtectionPolicy"], true,
        "{opts}"
    );
    let algs: Vec<i64> = opts["pubKeyCredParams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["alg"].as_i64().unwrap())
        .collect();
    for alg in [-7, -8, -257] {
        assert!(algs.contains(&alg), "{algs:?}");
    }
    // The user handle tells nothing about the account.
    let handle = opts["user"]["id"].as_str().unwrap();
    assert!(!handle.contains(&user.id) && handle.len() >= 64, "{handle}");

    let added = add_passkey(&app, &user, &device, "  Laptop ").await;
    assert_eq!(added["name"], "Laptop");
    assert_eq!(added["kind"], "platform");
    assert_eq!(added["lastUsedAt"], Value::Null);
    assert!(added["createdAt"].is_string());
    let mail = app.wait_for_mail(&user.email, mails).await;
    assert!(
        mail.contains("New sign-in method on your account"),
        "{mail}"
    );
    let unwrapped = mail.replace("=\r\n", "").replace("=\n", "");
    assert!(unwrapped.contains("the passkey \"Laptop\""), "{mail}");

    // Signing in: no email typed, no code asked, a session like a password sign-in's.
    let (assertion, id) = sign_in_assertion(&app, &device, &[]).await;
    let res = sign_in(&app, &id, &assertion).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers().get("set-cookie").is_some());
    let body = json_of(res).await;
    assert_eq!(body["_id"], user.id);
    assert_eq!(body["email"], user.email);
    assert!(body.get("twoFactorRequired").is_none(), "{body}");
    let token = body["token"].as_str().unwrap();
    let check = json_of(app.get("/api/auth/check", Some(token)).await).await;
    assert_eq!(check["_id"], user.id);

    // The same assertion again (a replay) is refused and signs nobody in.
    let message = refused(
        sign_in(&app, &id, &assertion).await,
        StatusCode::BAD_REQUEST,
        "passkey_challenge_unknown",
    )
    .await;
    assert_eq!(
        message,
        "This passkey request has expired or was already used. Please try again."
    );

    let list = json_of(app.get("/api/auth/passkeys", Some(&user.token)).await).await;
    let list = list["passkeys"].as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert!(list[0]["lastUsedAt"].is_string());
    // The replay is in the owner's security log (the passkey is known even though the request
    // is stale), newest first.
    let events = security_log(&app, &user).await;
    let log: Vec<String> = events
        .iter()
        .map(|e| e["action"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        &log[..4],
        [
            "passkey.refused",
            "passkey.sign_in",
            "passkey.add",
            "two_factor.enable"
        ],
        "{log:?}"
    );
    assert_eq!(events[0]["detail"], "Laptop (expired or replayed request)");
    // Nothing but the prefix-free id of the passkey leaves the server: no key material.
    let stored = stored(&app, &user).await;
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].get_i64("signCount").unwrap(), 1);
    assert!(list[0].get("staticState").is_none() && list[0].get("credentialId").is_none());
}

#[actix_web::test]
async fn refused_assertions_change_nothing() {
    let app = passkey_app().await;
    let user = app.signup().await;
    let device = Device::new();
    add_passkey(&app, &user, &device, "Phone").await;

    // An expired challenge.
    let (assertion, id) = sign_in_assertion(&app, &device, &[]).await;
    app.db
        .database()
        .collection::<mongodb::bson::Document>("passkey_ceremonies")
        .update_many(
            mongodb::bson::doc! {},
            mongodb::bson::doc! { "$set": { "expiresAt": mongodb::bson::DateTime::from_millis(0) } },
        )
        .await
        .unwrap();
    refused(
        sign_in(&app, &id, &assertion).await,
        StatusCode::BAD_REQUEST,
        "passkey_challenge_unknown",
    )
    .await;
    // An unknown challenge id.
    let (assertion, _) = sign_in_assertion(&app, &device, &[]).await;
    refused(
        sign_in(&app, "no-such-challenge", &assertion).await,
        StatusCode::BAD_REQUEST,
        "passkey_challenge_unknown",
    )
    .await;
    // Made for another origin, and for another RP ID.
    let (opts, id) = options(&app, "/api/auth/passkeys/login/options", None).await;
    let other_origin = device.run("get", "https://pressroom.example.net", &[], &opts);
    refused(
        sign_in(&app, &id, &other_origin).await,
        StatusCode::UNAUTHORIZED,
        "passkey_wrong_site",
    )
    .await;
    let (opts, id) = options(&app, "/api/auth/passkeys/login/options", None).await;
    let other_rp = device.run("get", SITE, &["--rp-id", "example.net"], &opts);
    refused(
        sign_in(&app, &id, &other_rp).await,
        StatusCode::UNAUTHORIZED,
        "passkey_wrong_site",
    )
    .await;
    // The device did not verify its user.
    let (assertion, id) = sign_in_assertion(&app, &device, &["--no-uv"]).await;
    let message = refused(
        sign_in(&app, &id, &assertion).await,
        StatusCode::UNAUTHORIZED,
        "passkey_not_verified",
    )
    .await;
    assert!(message.contains("did not verify"), "{message}");
    // Malformed credentials: not base64url, not an object, fields missing.
    for credential in [
        json!({ "id": "!!", "rawId": "!!", "type": "public-key", "response": {} }),
        json!("a string"),
        json!({ "id": "AAAA" }),
    ] {
        let (_, id) = options(&app, "/api/auth/passkeys/login/options", None).await;
        refused(
            sign_in(&app, &id, &credential).await,
            StatusCode::BAD_REQUEST,
            "passkey_malformed",
        )
        .await;
    }
    let res = app
        .post_json(
            "/api/auth/passkeys/login/verify",
            &json!({ "challengeId": 5 }),
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    // None of that counted as a use.
    let before = stored(&app, &user).await;
    assert_eq!(before[0].get_i64("signCount").unwrap(), 0);
    assert!(before[0].get_datetime("lastUsedAt").is_err());

    // A counter that goes backwards (a copied passkey) is refused and recorded.
    let (assertion, id) = sign_in_assertion(&app, &device, &["--sign-count", "5"]).await;
    assert_eq!(
        sign_in(&app, &id, &assertion).await.status(),
        StatusCode::OK
    );
    let (assertion, id) = sign_in_assertion(&app, &device, &["--sign-count", "3"]).await;
    let message = refused(
        sign_in(&app, &id, &assertion).await,
        StatusCode::UNAUTHORIZED,
        "passkey_counter",
    )
    .await;
    assert!(message.contains("counter went backwards"), "{message}");
    assert_eq!(
        stored(&app, &user).await[0].get_i64("signCount").unwrap(),
        5
    );
    let log = security_log(&app, &user).await;
    assert_eq!(log[0]["action"], "passkey.refused", "{log:?}");
    assert_eq!(log[0]["detail"], "Phone (signature counter went backwards)");

    // A passkey this site does not know (made, never registered).
    let stranger = Device::new();
    let other = app.signup().await;
    let (opts, _) = options(
        &app,
        "/api/auth/passkeys/register/options",
        Some(&other.token),
    )
    .await;
    stranger.run("create", SITE, &[], &opts);
    let (assertion, id) = sign_in_assertion(&app, &stranger, &[]).await;
    refused(
        sign_in(&app, &id, &assertion).await,
        StatusCode::UNAUTHORIZED,
        "passkey_unknown",
    )
    .await;

    // A blocked account cannot sign in with its passkey.
    set_blocked(&app, &user, true).await;
    let (assertion, id) = sign_in_assertion(&app, &device, &["--sign-count", "6"]).await;
    let res = sign_in(&app, &id, &assertion).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert!(res.headers().get("set-cookie").is_none());
    // The refusal is on the person's record (read once they are let back in).
    set_blocked(&app, &user, false).await;
    let latest = &security_log(&app, &user).await[0];
    assert_eq!(latest["action"], "passkey.refused", "{latest}");
    assert!(
        latest["detail"]
            .as_str()
            .unwrap()
            .contains("the account is blocked"),
        "{latest}"
    );
}

#[actix_web::test]
async fn registration_refusals_store_nothing() {
    let app = passkey_app().await;
    let user = app.signup().await;
    let device = Device::new();
    let register = |opts: Value, id: String, name: &'static str, flags: &'static [&'static str]| {
        let credential = device.run("create", SITE, flags, &opts);
        let app = &app;
        let token = user.token.clone();
        async move { send_registration(app, &token, &id, name, &credential).await }
    };
    let (opts, id) = options(
        &app,
        "/api/auth/passkeys/register/options",
        Some(&user.token),
    )
    .await;
    refused(
        register(opts, id, "Laptop", &["--no-uv"]).await,
        StatusCode::UNAUTHORIZED,
        "passkey_not_verified",
    )
    .await;
    let log = security_log(&app, &user).await;
    assert_eq!(log[0]["action"], "passkey.refused", "{log:?}");
    assert_eq!(
        log[0]["detail"],
        "A new passkey (device did not verify the person)"
    );
    // Made for another site.
    let (opts, id) = options(
        &app,
        "/api/auth/passkeys/register/options",
        Some(&user.token),
    )
    .await;
    let credential = device.run("create", "https://pressroom.example.net", &[], &opts);
    refused(
        send_registration(&app, &user.token, &id, "Laptop", &credential).await,
        StatusCode::UNAUTHORIZED,
        "passkey_wrong_site",
    )
    .await;
    // An attestation object that is not CBOR, and client data that is not JSON, in
    // well-formed base64url.
    for (field, bytes) in [
        ("attestationObject", &b"\xff\x00 not CBOR at all"[..]),
        ("clientDataJSON", &b"{ not json"[..]),
    ] {
        let (opts, id) = options(
            &app,
            "/api/auth/passkeys/register/options",
            Some(&user.token),
        )
        .await;
        let mut credential = device.run("create", SITE, &[], &opts);
        credential["response"][field] = json!(base64::Engine::encode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            bytes
        ));
        refused(
            send_registration(&app, &user.token, &id, "Laptop", &credential).await,
            StatusCode::BAD_REQUEST,
            "passkey_malformed",
        )
        .await;
    }
    // Not base64url at all.
    let (opts, id) = options(
        &app,
        "/api/auth/passkeys/register/options",
        Some(&user.token),
    )
    .await;
    let mut credential = device.run("create", SITE, &[], &opts);
    credential["response"]["attestationObject"] = json!("not base64url: *** ###");
    let res = send_registration(&app, &user.token, &id, "Laptop", &credential).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    // A registration sent twice: the second is a replay of a spent ceremony.
    let (opts, id) = options(
        &app,
        "/api/auth/passkeys/register/options",
        Some(&user.token),
    )
    .await;
    let credential = device.run("create", SITE, &[], &opts);
    let res = send_registration(&app, &user.token, &id, "Laptop", &credential).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    refused(
        send_registration(&app, &user.token, &id, "Laptop again", &credential).await,
        StatusCode::BAD_REQUEST,
        "passkey_challenge_unknown",
    )
    .await;
    assert_eq!(stored(&app, &user).await.len(), 1);
    app.db
        .database()
        .collection::<mongodb::bson::Document>("passkeys")
        .delete_many(mongodb::bson::doc! {})
        .await
        .unwrap();
    let (opts, id) = options(
        &app,
        "/api/auth/passkeys/register/options",
        Some(&user.token),
    )
    .await;
    let res = register(opts, id, "   ", &[]).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        json_of(res).await["message"],
        "Give the passkey a name, such as \"Laptop\" or \"Phone\"."
    );
    // Another account's registration ceremony is not this one's.
    let other = app.signup().await;
    let (opts, id) = options(
        &app,
        "/api/auth/passkeys/register/options",
        Some(&other.token),
    )
    .await;
    refused(
        register(opts, id, "Laptop", &[]).await,
        StatusCode::BAD_REQUEST,
        "passkey_challenge_unknown",
    )
    .await;
    assert!(stored(&app, &user).await.is_empty());
    // An old session must confirm it is the person first.
    app.age_session(&user.token, 30).await;
    let res = app
        .post_json(
            "/api/auth/passkeys/register/options",
            &json!({}),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(json_of(res).await["code"], "reauth_required");
    // Passkeys need a domain name: an IP address cannot be an RP ID.
    let by_ip = spawn_app().await;
    let someone = by_ip.signup().await;
    let res = by_ip
        .post_json(
            "/api/auth/passkeys/register/options",
            &json!({}),
            Some(&someone.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(json_of(res).await["message"]
        .as_str()
        .unwrap()
        .contains("domain name"));
}

#[actix_web::test]
async fn step_up_rename_and_removal() {
    let app = passkey_app().await;
    let user = app.signup().await;
    let other = app.signup().await;
    let device = Device::new();
    let other_device = Device::new();
    let added = add_passkey(&app, &user, &device, "Laptop").await;
    add_passkey(&app, &other, &other_device, "Phone").await;
    let path = format!("/api/auth/passkeys/{}", added["id"].as_str().unwrap());

    // Rename: checked, own passkeys only.
    let res = app
        .patch_json(&path, &json!({ "name": "Work laptop" }), Some(&user.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["name"], "Work laptop");
    let long = "x".repeat(65);
    for (name, status) in [
        ("", StatusCode::BAD_REQUEST),
        (long.as_str(), StatusCode::BAD_REQUEST),
    ] {
        let res = app
            .patch_json(&path, &json!({ "name": name }), Some(&user.token))
            .await;
        assert_eq!(res.status(), status, "{name}");
    }
    let res = app
        .patch_json(&path, &json!({ "name": "Mine now" }), Some(&other.token))
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = app
        .patch_json(
            "/api/auth/passkeys/nope",
            &json!({ "name": "x" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);

    // An old session: removing needs a step-up, which a passkey gives.
    app.age_session(&user.token, 30).await;
    let res = app.delete(&path, Some(&user.token)).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(json_of(res).await["code"], "reauth_required");
    // Another account's passkey does not confirm this session.
    let (opts, id) = options(&app, "/api/auth/passkeys/reauth/options", Some(&user.token)).await;
    let theirs = other_device.run("get", SITE, &[], &opts);
    let res = app
        .post_json(
            "/api/auth/reauth",
            &json!({ "passkey": { "challengeId": id, "credential": theirs } }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(json_of(res).await["code"], "passkey_other_account");
    assert_eq!(
        app.delete(&path, Some(&user.token)).await.status(),
        StatusCode::FORBIDDEN
    );
    // A step-up ceremony is not a sign-in one.
    let (opts, id) = options(&app, "/api/auth/passkeys/reauth/options", Some(&user.token)).await;
    let mine = device.run("get", SITE, &[], &opts);
    refused(
        sign_in(&app, &id, &mine).await,
        StatusCode::BAD_REQUEST,
        "passkey_challenge_unknown",
    )
    .await;
    let (opts, id) = options(&app, "/api/auth/passkeys/reauth/options", Some(&user.token)).await;
    let mine = device.run("get", SITE, &[], &opts);
    let res = app
        .post_json(
            "/api/auth/reauth",
            &json!({ "passkey": { "challengeId": id, "credential": mine } }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(json_of(res).await["reauthUntil"].is_string());

    // The last way to sign in stays: an account with no password keeps its only passkey.
    let user_id = mongodb::bson::oid::ObjectId::parse_str(&user.id).unwrap();
    let users = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("users");
    let saved = users
        .find_one(mongodb::bson::doc! { "_id": user_id })
        .await
        .unwrap()
        .unwrap();
    users
        .update_one(
            mongodb::bson::doc! { "_id": user_id },
            mongodb::bson::doc! { "$unset": { "passwordHash": "" } },
        )
        .await
        .unwrap();
    let res = app.delete(&path, Some(&user.token)).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(json_of(res).await["message"]
        .as_str()
        .unwrap()
        .contains("only way to sign in"));
    users
        .update_one(
            mongodb::bson::doc! { "_id": user_id },
            mongodb::bson::doc! { "$set": { "passwordHash": saved.get_str("passwordHash").unwrap() } },
        )
        .await
        .unwrap();

    let mails = app.mail_count(&user.email);
    assert_eq!(
        app.delete(&path, Some(&other.token)).await.status(),
        StatusCode::NOT_FOUND
    );
    let res = app.delete(&path, Some(&user.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["message"], "Passkey removed.");
    let mail = app.wait_for_mail(&user.email, mails).await;
    assert!(mail.contains("A passkey was removed"), "{mail}");
    let list = json_of(app.get("/api/auth/passkeys", Some(&user.token)).await).await;
    assert_eq!(list["passkeys"], json!([]));
    // A removed passkey signs nobody in.
    let (assertion, id) = sign_in_assertion(&app, &device, &[]).await;
    refused(
        sign_in(&app, &id, &assertion).await,
        StatusCode::UNAUTHORIZED,
        "passkey_unknown",
    )
    .await;
    let actions: Vec<String> = security_log(&app, &user)
        .await
        .iter()
        .map(|e| e["action"].as_str().unwrap().to_string())
        .collect();
    // The step-up ceremony tried for a sign-in is on record against the passkey's owner.
    assert_eq!(
        &actions[..5],
        [
            "passkey.remove",
            "passkey.reauth",
            "passkey.refused",
            "passkey.rename",
            "passkey.add"
        ],
        "{actions:?}"
    );
}

#[actix_web::test]
async fn a_passkey_session_meets_the_administrators_two_factor_rule() {
    let app = passkey_app().await;
    let admin = app.admin().await;
    let device = Device::new();
    let rule = json!({ "requireAdminTwoFactor": true });
    // Without a second factor of their own, an administrator cannot require one of others.
    let res = app
        .patch_json("/api/admin/settings", &rule, Some(&admin.token))
        .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    assert_eq!(
        json_of(res).await["message"],
        pressroom::services::admin_settings::MSG_OWN_FACTOR_FIRST
    );
    // A passkey is that factor.
    add_passkey(&app, &admin, &device, "Security key").await;
    let res = app
        .patch_json("/api/admin/settings", &rule, Some(&admin.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    // Signed in with the password only: refused.
    let res = app.get("/api/admin/overview", Some(&admin.token)).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(json_of(res).await["code"], "two_factor_required");
    // Signed in with the passkey: two factors in one.
    let (assertion, id) = sign_in_assertion(&app, &device, &[]).await;
    let res = sign_in(&app, &id, &assertion).await;
    assert_eq!(res.status(), StatusCode::OK);
    let token = json_of(res).await["token"].as_str().unwrap().to_string();
    assert_eq!(
        app.get("/api/admin/overview", Some(&token)).await.status(),
        StatusCode::OK
    );
}

/// A fresh step-up assertion by `device` for `token`'s account.
async fn step_up_proof(app: &TestApp, device: &Device, token: &str) -> Value {
    let (opts, id) = options(app, "/api/auth/passkeys/reauth/options", Some(token)).await;
    json!({ "challengeId": id, "credential": device.run("get", SITE, &[], &opts) })
}

#[actix_web::test]
async fn a_passkey_stands_in_for_the_password_wherever_it_is_asked_again() {
    let app = passkey_app().await;
    let user = app.signup().await;
    let device = Device::new();
    add_passkey(&app, &user, &device, "Laptop").await;
    enable_two_factor(&app, &user).await;

    // Turning two-factor sign-in off: the passkey instead of the password and the code.
    let proof = step_up_proof(&app, &device, &user.token).await;
    let res = app
        .post_json(
            "/api/auth/2fa/disable",
            &json!({ "passkey": proof }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let status = json_of(app.get("/api/auth/2fa", Some(&user.token)).await).await;
    assert_eq!(status["enabled"], false);
    // The same proof again is a replay of a spent step-up.
    let res = app
        .post_json(
            "/api/auth/reauth",
            &json!({ "passkey": proof }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(json_of(res).await["code"], "passkey_challenge_unknown");

    // A sign-in ceremony's assertion is not a step-up's: refused, nothing changed.
    let (opts, id) = options(&app, "/api/auth/passkeys/login/options", None).await;
    let wrong = json!({ "challengeId": id, "credential": device.run("get", SITE, &[], &opts) });
    let res = app
        .post_json(
            "/api/user/delete-account",
            &json!({ "passkey": wrong }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(json_of(res).await["code"], "passkey_challenge_unknown");

    // Changing the password without the current one.
    let proof = step_up_proof(&app, &device, &user.token).await;
    let res = app
        .post_json(
            "/api/auth/change-password",
            &json!({ "newPassword": "a brand new passphrase", "passkey": proof }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let token = json_of(res).await["token"].as_str().unwrap().to_string();
    assert_eq!(
        app.login(&user.email, "a brand new passphrase")
            .await
            .status(),
        StatusCode::OK
    );

    // Deleting the account.
    let proof = step_up_proof(&app, &device, &token).await;
    let res = app
        .post_json(
            "/api/user/delete-account",
            &json!({ "passkey": proof }),
            Some(&token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(json_of(res).await["deletionScheduledAt"].is_string());
    let reauths = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("audit_log")
        .count_documents(mongodb::bson::doc! {
            "action": "passkey.reauth",
            "actorId": mongodb::bson::oid::ObjectId::parse_str(&user.id).unwrap(),
        })
        .await
        .unwrap();
    assert_eq!(reauths, 3);
}

/// Ed25519 and RSA passkeys (offered beside P-256) are kept, sign in as two factors and step up;
/// a passkey step-up opens a money action (bank details) to a session past its step-up window,
/// as the password does.
#[actix_web::test]
async fn ed25519_and_rsa_passkeys_sign_in_and_step_up_for_money() {
    let app = passkey_app().await;
    let user = app.signup().await;
    let mut devices = Vec::new();
    for alg in ["EdDSA", "RS256"] {
        let device = Device::new();
        let (opts, id) = options(
            &app,
            "/api/auth/passkeys/register/options",
            Some(&user.token),
        )
        .await;
        let credential = device.run("create", SITE, &["--alg", alg], &opts);
        let res = send_registration(&app, &user.token, &id, alg, &credential).await;
        let status = res.status();
        assert_eq!(status, StatusCode::CREATED, "{alg}: {}", json_of(res).await);
        devices.push((alg, device));
    }
    for (alg, device) in &devices {
        let (assertion, id) = sign_in_assertion(&app, device, &[]).await;
        let res = sign_in(&app, &id, &assertion).await;
        assert_eq!(res.status(), StatusCode::OK, "{alg}");
        let token = json_of(res).await["token"].as_str().unwrap().to_string();

        // Ten minutes on, the session must step up before bank details change.
        let old = mongodb::bson::DateTime::from_chrono(
            chrono::Utc::now() - chrono::Duration::minutes(30),
        );
        app.db
            .database()
            .collection::<mongodb::bson::Document>("sessions")
            .update_many(
                mongodb::bson::doc! {},
                mongodb::bson::doc! { "$set": { "createdAt": old }, "$unset": { "reauthAt": "" } },
            )
            .await
            .unwrap();
        let bank = crate::support::money::bank_body();
        let res = app
            .post_json("/api/payment/bank-details", &bank, Some(&token))
            .await;
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{alg}");
        assert_eq!(json_of(res).await["code"], "reauth_required");
        let proof = step_up_proof(&app, device, &token).await;
        let res = app
            .post_json(
                "/api/auth/reauth",
                &json!({ "passkey": proof }),
                Some(&token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK, "{alg}");
        let res = app
            .post_json("/api/payment/bank-details", &bank, Some(&token))
            .await;
        let status = res.status();
        let body = json_of(res).await;
        assert!(status.is_success(), "{alg}: {status} {body}");
        // The next key's turn starts with no bank details.
        let id = body["bankDetails"]["paymentId"].as_str().unwrap();
        let res = app
            .delete(&format!("/api/payment/bank-details/{id}"), Some(&token))
            .await;
        let status = res.status();
        assert!(
            status.is_success(),
            "{alg}: {status} {}",
            json_of(res).await
        );
    }
    assert_eq!(stored(&app, &user).await.len(), 2);
}

#[actix_web::test]
async fn passkey_sign_ins_and_step_ups_are_held_to_the_sign_in_limits() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.server.public_url = SITE.into();
            s.rate_limit.login_per_account = 2;
            s.rate_limit.login_per_address = 3;
            s.rate_limit.passkey_ceremonies = 4;
        })),
        ..Default::default()
    })
    .await;
    let user = app.signup().await;
    let device = Device::new();
    add_passkey(&app, &user, &device, "Laptop").await;

    // Step-up with the passkey: two confirmations, then the account's limit.
    for _ in 0..2 {
        let proof = step_up_proof(&app, &device, &user.token).await;
        let res = app
            .post_json(
                "/api/auth/reauth",
                &json!({ "passkey": proof }),
                Some(&user.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let proof = step_up_proof(&app, &device, &user.token).await;
    let res = app
        .post_json(
            "/api/auth/reauth",
            &json!({ "passkey": proof }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().get("retry-after").is_some());
    // Refused before the passkey was checked: its use was not recorded.
    assert_eq!(
        stored(&app, &user).await[0].get_i64("signCount").unwrap(),
        2
    );

    // A passkey sign-in counts against its account's allowance, spent by those step-ups.
    let (assertion, id) = sign_in_assertion(&app, &device, &[]).await;
    assert_eq!(
        sign_in(&app, &id, &assertion).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    // And against the address's: another person here signs in twice, then is refused.
    let other = app.signup().await;
    let theirs = Device::new();
    add_passkey(&app, &other, &theirs, "Phone").await;
    for _ in 0..2 {
        let (assertion, id) = sign_in_assertion(&app, &theirs, &[]).await;
        assert_eq!(
            sign_in(&app, &id, &assertion).await.status(),
            StatusCode::OK
        );
    }
    let (assertion, id) = sign_in_assertion(&app, &theirs, &[]).await;
    assert_eq!(
        sign_in(&app, &id, &assertion).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    // Asking for sign-in options (each load of the sign-in page) has its own allowance: four
    // were asked above, the fifth is refused, and a password sign-in was never spent by them.
    let res = app
        .post_json("/api/auth/passkeys/login/options", &json!({}), None)
        .await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().get("retry-after").is_some());
}
