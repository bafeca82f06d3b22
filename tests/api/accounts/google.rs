//! Google sign-in against a key set served on loopback with a key generated here.

use std::sync::LazyLock;

use base64::Engine;
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use reqwest::StatusCode;
use rsa::pkcs1::EncodeRsaPrivateKey;
use rsa::traits::PublicKeyParts;
use rsa::RsaPrivateKey;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::support::*;

const KID: &str = "pressroom-test-key";
const CLIENT_ID: &str = "pressroom-test-client";

struct TestKey {
    encoding: EncodingKey,
    jwks: Value,
}

static KEY: LazyLock<TestKey> = LazyLock::new(|| make_key(KID));

fn make_key(kid: &str) -> TestKey {
    let private = RsaPrivateKey::new(&mut rand::thread_rng(), 2048).expect("an RSA key");
    let pem = private.to_pkcs1_pem(rsa::pkcs8::LineEnding::LF).unwrap();
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let jwks = json!({ "keys": [{
        "kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
        "n": b64.encode(private.n().to_bytes_be()),
        "e": b64.encode(private.e().to_bytes_be()),
    }]});
    TestKey {
        encoding: EncodingKey::from_rsa_pem(pem.as_bytes()).unwrap(),
        jwks,
    }
}

/// Serves `body` as JSON to every request; returns the address.
async fn serve_json(body: Value) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let body = body.to_string();
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            let body = body.clone();
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                let _ = stream.read(&mut buf).await;
                let res = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}",
                    body.len(),
                    body
                );
                let _ = stream.write_all(res.as_bytes()).await;
            });
        }
    });
    format!("http://127.0.0.1:{port}/certs")
}

fn id_token(key: &TestKey, kid: &str, claims: Value) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(kid.into());
    encode(&header, &claims, &key.encoding).unwrap()
}

fn claims(sub: &str, email: &str) -> Value {
    let now = chrono::Utc::now().timestamp();
    json!({
        "iss": "https://accounts.google.com", "aud": CLIENT_ID, "sub": sub, "email": email,
        "email_verified": true, "name": "Katherine Johnson", "picture": "https://example.com/k.png",
        "iat": now, "exp": now + 600,
    })
}

async fn google_app() -> TestApp {
    let url = serve_json(KEY.jwks.clone()).await;
    spawn_app_with(AppOptions {
        google_jwks_url: Some(url),
        ..Default::default()
    })
    .await
}

async fn google_login(app: &TestApp, token: &str) -> reqwest::Response {
    app.post_json(
        "/api/auth/google-login",
        &json!({ "token": token, "sendEmail": false }),
        None,
    )
    .await
}

#[actix_web::test]
async fn first_google_sign_in_creates_a_verified_user_and_the_second_finds_it() {
    let app = google_app().await;
    let email = unique_email();
    let res = google_login(&app, &id_token(&KEY, KID, claims("g-1", &email))).await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    assert_eq!(body["user"]["name"], "Katherine Johnson");
    assert_eq!(body["user"]["email"], email);
    assert_eq!(body["user"]["role"], "user");
    assert_eq!(body["isAccountVerified"], true);
    let id = body["user"]["_id"].as_str().unwrap().to_string();
    let token = body["token"].as_str().unwrap();
    assert_eq!(
        json_of(app.get("/api/auth/check", Some(token)).await).await["_id"],
        id
    );

    // Same Google subject, even with a changed email: the same account.
    let again =
        json_of(google_login(&app, &id_token(&KEY, KID, claims("g-1", &unique_email()))).await)
            .await;
    assert_eq!(again["user"]["_id"], id);
}

#[actix_web::test]
async fn google_sign_in_links_an_existing_password_account_by_verified_email() {
    let app = google_app().await;
    let user = app.signup().await;
    let body =
        json_of(google_login(&app, &id_token(&KEY, KID, claims("g-2", &user.email))).await).await;
    assert_eq!(body["user"]["_id"], user.id);
    assert_eq!(body["isAccountVerified"], true);
    assert_eq!(
        app.login(&user.email, PASSWORD).await.status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn bad_google_tokens_are_refused() {
    let app = google_app().await;
    let email = unique_email();
    let now = chrono::Utc::now().timestamp();
    let mut wrong_aud = claims("g-3", &email);
    wrong_aud["aud"] = json!("someone-else");
    let mut wrong_iss = claims("g-3", &email);
    wrong_iss["iss"] = json!("https://evil.example.com");
    let mut expired = claims("g-3", &email);
    expired["exp"] = json!(now - 3600);
    expired["iat"] = json!(now - 7200);
    let other_key = make_key(KID);
    let cases = [
        ("wrong audience", id_token(&KEY, KID, wrong_aud)),
        ("wrong issuer", id_token(&KEY, KID, wrong_iss)),
        ("expired", id_token(&KEY, KID, expired)),
        (
            "unknown key id",
            id_token(&KEY, "unknown-kid", claims("g-3", &email)),
        ),
        (
            "signed by another key",
            id_token(&other_key, KID, claims("g-3", &email)),
        ),
        ("garbage", "not.a.token".to_string()),
    ];
    for (case, token) in cases {
        let res = google_login(&app, &token).await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "case {case}");
        let body = json_of(res).await;
        assert_eq!(
            body["message"], "Google sign-in failed: the token is invalid or has expired.",
            "case {case}"
        );
    }
    let res = app
        .post_json("/api/auth/google-login", &json!({ "token": "" }), None)
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .post_json("/api/auth/google-login", &json!({ "token": 42 }), None)
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}

#[actix_web::test]
async fn an_unverified_google_email_does_not_take_over_an_existing_account() {
    let app = google_app().await;
    let user = app.signup().await;
    let mut c = claims("g-4", &user.email);
    c["email_verified"] = json!(false);
    let res = google_login(&app, &id_token(&KEY, KID, c)).await;
    assert_error(res, StatusCode::CONFLICT).await;
}

#[actix_web::test]
async fn google_sign_in_is_refused_when_not_configured() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| s.auth.google_client_id = String::new())),
        ..Default::default()
    })
    .await;
    let res = google_login(&app, &id_token(&KEY, KID, claims("g-5", &unique_email()))).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Google sign-in is not enabled on this server."
    );
    let config = json_of(app.get("/api/config/public", None).await).await;
    assert_eq!(config["googleClientId"], Value::Null);
}

#[actix_web::test]
async fn the_public_config_names_the_google_client() {
    let app = google_app().await;
    let config = json_of(app.get("/api/config/public", None).await).await;
    assert_eq!(config["googleClientId"], CLIENT_ID);
}
