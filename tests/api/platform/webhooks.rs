//! Webhooks to a loopback receiver: every delivery verified by the official Standard Webhooks
//! libraries (PyPI and npm `standardwebhooks`), also during a secret rotation; retries keep one
//! `webhook-id` with growing gaps and honour `Retry-After`; redirects are not followed; 410
//! disables the endpoint; the production address rule sends nothing to loopback (the receiver
//! counts zero hits).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use futures_util::TryStreamExt;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::{create_post, post_body, with};
use crate::support::*;

#[derive(Clone, Debug)]
pub(super) struct Hit {
    pub(super) path: String,
    pub(super) headers: Value,
    pub(super) body: String,
    at: Instant,
}

#[derive(Clone, Default)]
pub(super) struct Receiver {
    hits: Arc<Mutex<Vec<Hit>>>,
    /// Statuses to answer, in order (200 once they run out).
    script: Arc<Mutex<VecDeque<u16>>>,
}

async fn receive(req: HttpRequest, body: web::Bytes, rx: web::Data<Receiver>) -> HttpResponse {
    let mut headers = serde_json::Map::new();
    for name in [
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
        "content-type",
    ] {
        if let Some(v) = req.headers().get(name).and_then(|v| v.to_str().ok()) {
            headers.insert(name.into(), Value::String(v.into()));
        }
    }
    rx.hits.lock().unwrap().push(Hit {
        path: req.path().to_string(),
        headers: Value::Object(headers),
        body: String::from_utf8_lossy(&body).to_string(),
        at: Instant::now(),
    });
    let status = rx.script.lock().unwrap().pop_front().unwrap_or(200);
    let mut answer = HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap());
    if status == 302 {
        answer.insert_header(("location", "/elsewhere"));
    }
    if status == 429 {
        answer.insert_header(("retry-after", "3"));
    }
    answer.body(format!("answered {status}"))
}

impl Receiver {
    /// Starts on a free loopback port; answers its base URL.
    pub(super) fn start() -> (Receiver, String) {
        let rx = Receiver::default();
        let data = web::Data::new(rx.clone());
        let server = HttpServer::new(move || {
            App::new()
                .app_data(data.clone())
                .default_service(web::to(receive))
        })
        .workers(1)
        .bind(("127.0.0.1", 0))
        .unwrap();
        let port = server.addrs()[0].port();
        actix_web::rt::spawn(server.run());
        (rx, format!("http://127.0.0.1:{port}"))
    }

    fn script(&self, statuses: &[u16]) {
        self.script.lock().unwrap().extend(statuses.iter().copied());
    }

    pub(super) fn hits(&self) -> Vec<Hit> {
        self.hits.lock().unwrap().clone()
    }

    /// Waits for at least `n` hits on `path`.
    pub(super) async fn wait_for(&self, path: &str, n: usize) -> Vec<Hit> {
        for _ in 0..300 {
            let hits: Vec<Hit> = self.hits().into_iter().filter(|h| h.path == path).collect();
            if hits.len() >= n {
                return hits;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "fewer than {n} deliveries reached {path}: {:?}",
            self.hits()
        );
    }
}

pub(super) fn loopback_app_options() -> AppOptions {
    AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.webhooks.allow_loopback = true;
            s.webhooks.retry_schedule_seconds = vec![1, 2, 4];
            s.webhooks.poll_ms = 100;
        })),
        ..Default::default()
    }
}

/// Verifies a delivery with the PyPI library (`python`) and the npm one (`node`); answers each
/// library's verdict ("ok" or its refusal).
fn verify(secret: &str, body: &str, headers: &Value) -> (String, String) {
    let python = std::env::var("PRESSROOM_TEST_PYTHON").unwrap_or_else(|_| {
        format!(
            "{}/.cache/pressroom/venv/bin/python",
            std::env::var("HOME").unwrap()
        )
    });
    let input = json!({ "secret": secret, "body": body, "headers": headers }).to_string();
    let run = |mut cmd: std::process::Command| {
        use std::io::Write;
        let mut child = cmd
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the verifier runs");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if out.status.success() {
            said
        } else {
            format!(
                "refused: {said} {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )
        }
    };
    let mut py = std::process::Command::new(python);
    py.args([
        "-c",
        "import sys, json\nfrom standardwebhooks.webhooks import Webhook\nd = json.load(sys.stdin)\ntry:\n    Webhook(d['secret']).verify(d['body'], d['headers'])\n    print('ok')\nexcept Exception as e:\n    print(type(e).__name__, e)\n    sys.exit(1)",
    ]);
    let mut node = std::process::Command::new("node");
    node.arg(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/api/webhook-verify/verify.mjs"
    ));
    (run(py), run(node))
}

pub(super) fn assert_verified(secret: &str, hit: &Hit) {
    assert_eq!(
        verify(secret, &hit.body, &hit.headers),
        ("ok".into(), "ok".into()),
        "{hit:?}"
    );
}

pub(super) async fn add_endpoint(
    app: &TestApp,
    user: &TestUser,
    url: &str,
    events: Value,
) -> Value {
    let res = app
        .post_json(
            "/api/webhooks",
            &json!({ "url": url, "events": events, "description": "Mirror" }),
            Some(&user.token),
        )
        .await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

#[actix_web::test]
async fn events_reach_their_endpoints_signed_as_the_specification_says() {
    let (rx, base) = Receiver::start();
    let app = spawn_app_with(loopback_app_options()).await;
    let writer = app.signup().await;
    let reader = app.signup().await;
    let stranger = app.signup().await;
    let made = add_endpoint(
        &app,
        &writer,
        &format!("{base}/hook"),
        json!(["post.published", "comment.created", "follower.created"]),
    )
    .await;
    let secret = made["secret"].as_str().unwrap().to_string();
    assert!(secret.starts_with("whsec_"), "{made}");
    let list = json_of(app.get("/api/webhooks", Some(&writer.token)).await).await;
    assert!(
        list["webhooks"][0].get("secret").is_none(),
        "the secret is shown once"
    );

    let post = create_post(
        &app,
        &writer.token,
        post_body("Low tide", "The sea went out."),
    )
    .await;
    create_post(&app, &stranger.token, post_body("Not theirs", "Elsewhere")).await;
    let hits = rx.wait_for("/hook", 1).await;
    let published = &hits[0];
    assert_verified(&secret, published);
    let body: Value = serde_json::from_str(&published.body).unwrap();
    assert_eq!(body["type"], "post.published");
    assert_eq!(body["data"]["title"], "Low tide");
    assert_eq!(body["data"]["id"], post["_id"]);
    assert!(body["timestamp"].is_string());
    assert!(
        !published.body.contains("The sea went out"),
        "no post text: {}",
        published.body
    );
    assert_eq!(
        published.body,
        serde_json::to_string(&body).unwrap(),
        "minified JSON"
    );
    assert_eq!(published.headers["content-type"], "application/json");

    // A comment and a follow.
    let slug_id = post["_id"].as_str().unwrap();
    let res = app
        .post_json(
            &format!("/api/comment/add-comment/{slug_id}"),
            &json!({ "content": "Lovely" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let res = app
        .post_json(
            &format!("/api/follow/{}", writer.id),
            &json!({}),
            Some(&reader.token),
        )
        .await;
    assert!(res.status().is_success());
    let hits = rx.wait_for("/hook", 3).await;
    let types: Vec<String> = hits
        .iter()
        .map(|h| {
            serde_json::from_str::<Value>(&h.body).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(
        types.contains(&"comment.created".into()) && types.contains(&"follower.created".into()),
        "{types:?}"
    );
    for hit in &hits {
        assert_verified(&secret, hit);
    }
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        rx.hits().len(),
        3,
        "the stranger's post reached nobody here"
    );

    // A tampered body, and a timestamp older than five minutes, fail both libraries.
    let tampered = published.body.replace("Low tide", "High tide");
    let (py, node) = verify(&secret, &tampered, &published.headers);
    assert!(
        py.starts_with("refused") && node.starts_with("refused"),
        "{py} / {node}"
    );
    let mut old = published.headers.clone();
    let then = chrono::Utc::now().timestamp() - 600;
    old["webhook-timestamp"] = json!(then.to_string());
    let signed = pressroom::domain::webhooks::sign(
        &secret,
        old["webhook-id"].as_str().unwrap(),
        then,
        &published.body,
    )
    .unwrap();
    old["webhook-signature"] = json!(signed);
    let (py, node) = verify(&secret, &published.body, &old);
    assert!(
        py.starts_with("refused") && node.starts_with("refused"),
        "{py} / {node}"
    );

    // A rotation: both secrets sign while they overlap.
    let id = made["id"].as_str().unwrap();
    let rotated = json_of(
        app.post_json(
            &format!("/api/webhooks/{id}/rotate-secret"),
            &json!({}),
            Some(&writer.token),
        )
        .await,
    )
    .await;
    let new_secret = rotated["secret"].as_str().unwrap().to_string();
    assert_ne!(new_secret, secret);
    create_post(&app, &writer.token, post_body("Spring tide", "More")).await;
    let hits = rx.wait_for("/hook", 4).await;
    let last = hits.last().unwrap();
    assert_eq!(
        last.headers["webhook-signature"]
            .as_str()
            .unwrap()
            .split(' ')
            .count(),
        2
    );
    assert_verified(&secret, last);
    assert_verified(&new_secret, last);

    // The delivery log.
    let log = json_of(
        app.get(
            &format!("/api/webhooks/{id}/deliveries"),
            Some(&writer.token),
        )
        .await,
    )
    .await;
    let deliveries = log["deliveries"].as_array().unwrap();
    assert_eq!(deliveries.len(), 4);
    for d in deliveries {
        for key in [
            "id",
            "webhookId",
            "eventType",
            "attempt",
            "status",
            "responseStatus",
            "at",
        ] {
            assert!(d.get(key).is_some(), "{key} in {d}");
        }
        assert_eq!(d["webhookId"], id);
    }
    // Someone else sees none of it.
    for path in [
        format!("/api/webhooks/{id}/deliveries"),
        format!("/api/webhooks/{id}"),
    ] {
        let res = if path.ends_with("deliveries") {
            app.get(&path, Some(&reader.token)).await
        } else {
            app.delete(&path, Some(&reader.token)).await
        };
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
    }
}

#[actix_web::test]
async fn retries_keep_one_id_with_growing_gaps_redirects_fail_and_410_disables() {
    let (rx, base) = Receiver::start();
    let app = spawn_app_with(loopback_app_options()).await;
    let writer = app.signup().await;
    let made = add_endpoint(
        &app,
        &writer,
        &format!("{base}/retry"),
        json!(["post.published"]),
    )
    .await;
    let id = made["id"].as_str().unwrap();
    let secret = made["secret"].as_str().unwrap();

    rx.script(&[500, 500, 200]);
    let res = app
        .post_json(
            &format!("/api/webhooks/{id}/test"),
            &json!({}),
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let hits = rx.wait_for("/retry", 3).await;
    let ids: Vec<&str> = hits
        .iter()
        .map(|h| h.headers["webhook-id"].as_str().unwrap())
        .collect();
    assert!(ids.iter().all(|i| *i == ids[0]), "{ids:?}");
    let first_gap = hits[1].at - hits[0].at;
    let second_gap = hits[2].at - hits[1].at;
    assert!(first_gap >= Duration::from_millis(900), "{first_gap:?}");
    assert!(
        second_gap >= Duration::from_millis(1900) && second_gap > first_gap,
        "{second_gap:?}"
    );
    for hit in &hits {
        assert_verified(secret, hit);
    }
    let log = json_of(
        app.get(
            &format!("/api/webhooks/{id}/deliveries"),
            Some(&writer.token),
        )
        .await,
    )
    .await;
    assert_eq!(log["deliveries"][0]["attempt"], 3);
    assert_eq!(log["deliveries"][0]["status"], "succeeded");
    assert_eq!(log["deliveries"][0]["responseStatus"], 200);

    // `Retry-After` is honoured: 3 seconds asked, though the schedule says 1.
    rx.script(&[429, 200]);
    app.post_json(
        &format!("/api/webhooks/{id}/test"),
        &json!({}),
        Some(&writer.token),
    )
    .await;
    let hits = rx.wait_for("/retry", 5).await;
    let asked = hits[4].at - hits[3].at;
    assert!(asked >= Duration::from_millis(2900), "{asked:?}");

    // A redirect is a failure and is not followed.
    rx.script(&[302, 200]);
    app.post_json(
        &format!("/api/webhooks/{id}/test"),
        &json!({}),
        Some(&writer.token),
    )
    .await;
    rx.wait_for("/retry", 7).await;
    assert!(rx.hits().iter().all(|h| h.path != "/elsewhere"));

    // Resending keeps the message id.
    let delivery = log["deliveries"][0]["id"].as_str().unwrap();
    let res = app
        .post_json(
            &format!("/api/webhooks/deliveries/{delivery}/resend"),
            &json!({}),
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let hits = rx.wait_for("/retry", 8).await;
    assert_eq!(hits[7].headers["webhook-id"], hits[0].headers["webhook-id"]);

    // 410 Gone disables the endpoint, tells its owner and stops its deliveries.
    let mails = app.mail_count(&writer.email);
    rx.script(&[410]);
    app.post_json(
        &format!("/api/webhooks/{id}/test"),
        &json!({}),
        Some(&writer.token),
    )
    .await;
    rx.wait_for("/retry", 9).await;
    let mut endpoint = Value::Null;
    for _ in 0..100 {
        let list = json_of(app.get("/api/webhooks", Some(&writer.token)).await).await;
        endpoint = list["webhooks"][0].clone();
        if endpoint["disabled"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(endpoint["disabled"], true, "{endpoint}");
    assert!(endpoint["disabledReason"].as_str().unwrap().contains("410"));
    let mail = app.wait_for_mail(&writer.email, mails).await;
    assert!(mail.contains("A webhook endpoint was disabled"), "{mail}");
    create_post(&app, &writer.token, post_body("Unheard", "Nobody listens")).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(rx.hits().iter().filter(|h| h.path == "/retry").count(), 9);
    // Turned back on, it hears again.
    let res = app
        .patch_json(
            &format!("/api/webhooks/{id}"),
            &json!({ "disabled": false }),
            Some(&writer.token),
        )
        .await;
    assert_eq!(json_of(res).await["disabled"], false);
    create_post(&app, &writer.token, post_body("Heard", "Again")).await;
    rx.wait_for("/retry", 10).await;
    // Its owner can turn it off too: it hears nothing until turned back on.
    let res = app
        .patch_json(
            &format!("/api/webhooks/{id}"),
            &json!({ "disabled": true }),
            Some(&writer.token),
        )
        .await;
    let paused = json_of(res).await;
    assert_eq!(paused["disabled"], true, "{paused}");
    assert_eq!(paused["disabledReason"], "Turned off by its owner.");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let heard = rx.hits().len();
    create_post(&app, &writer.token, post_body("Paused", "Quiet")).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(rx.hits().len(), heard);
}

#[actix_web::test]
async fn an_endpoint_failing_for_days_is_disabled_and_its_owner_told() {
    let (rx, base) = Receiver::start();
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.webhooks.allow_loopback = true;
            s.webhooks.retry_schedule_seconds = vec![1];
            s.webhooks.poll_ms = 100;
            // "Days" of failures: any failure is past the limit here.
            s.webhooks.disable_after_days = 0;
        })),
        ..Default::default()
    })
    .await;
    let writer = app.signup().await;
    let made = add_endpoint(
        &app,
        &writer,
        &format!("{base}/down"),
        json!(["post.published"]),
    )
    .await;
    let mails = app.mail_count(&writer.email);
    rx.script(&[503, 503, 503]);
    create_post(&app, &writer.token, post_body("Into the void", "Words")).await;
    rx.wait_for("/down", 1).await;
    let mail = app.wait_for_mail(&writer.email, mails).await;
    assert!(mail.contains("A webhook endpoint was disabled"), "{mail}");
    let list = json_of(app.get("/api/webhooks", Some(&writer.token)).await).await;
    assert_eq!(list["webhooks"][0]["id"], made["id"]);
    assert_eq!(list["webhooks"][0]["disabled"], true);
    assert_eq!(
        list["webhooks"][0]["disabledReason"],
        "Every delivery failed for days."
    );
    // Its retry was given up: nothing more arrives.
    tokio::time::sleep(Duration::from_millis(1800)).await;
    assert_eq!(rx.hits().len(), 1);
}

#[actix_web::test]
async fn the_production_address_rule_sends_nothing_to_private_addresses() {
    let (rx, base) = Receiver::start();
    let app = spawn_app().await;
    let writer = app.signup().await;
    let port = base.rsplit(':').next().unwrap();
    for (url, needle) in [
        (base.clone(), "must use https"),
        (format!("https://127.0.0.1:{port}/"), "public address"),
        ("https://localhost/".to_string(), "public address"),
        (
            "https://169.254.169.254/latest".to_string(),
            "public address",
        ),
        ("https://10.0.0.8/".to_string(), "public address"),
        ("https://[::1]/".to_string(), "public address"),
        ("ftp://example.com/".to_string(), "must use https"),
        ("not a url".to_string(), "is not a URL"),
    ] {
        let res = app
            .post_json(
                "/api/webhooks",
                &json!({ "url": url, "events": ["post.published"] }),
                Some(&writer.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{url}");
        let message = json_of(res).await["message"].as_str().unwrap().to_string();
        assert!(message.contains(needle), "{url}: {message}");
    }
    // Endpoints that reached the store pointing at loopback (as if their name had resolved
    // elsewhere before) are checked again before every attempt: nothing is sent. The plain-http
    // one would reach the receiver if the check were skipped at delivery.
    let owner = mongodb::bson::oid::ObjectId::parse_str(&writer.id).unwrap();
    for url in [
        format!("https://127.0.0.1:{port}/guarded"),
        format!("http://127.0.0.1:{port}/guarded-plain"),
    ] {
        app.db
            .database()
            .collection::<mongodb::bson::Document>("webhook_endpoints")
            .insert_one(mongodb::bson::doc! {
                "_id": mongodb::bson::oid::ObjectId::new(), "ownerId": owner, "site": false,
                "url": url, "events": ["post.published"],
                "description": "", "secrets": [], "disabled": false,
                "createdAt": mongodb::bson::DateTime::now(),
            })
            .await
            .unwrap();
    }
    create_post(&app, &writer.token, post_body("Guarded", "Nothing leaves")).await;
    let deliveries = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("webhook_deliveries");
    let mut attempted = Vec::new();
    for _ in 0..100 {
        attempted = deliveries
            .find(mongodb::bson::doc! { "attempt": { "$gte": 1 } })
            .await
            .unwrap()
            .try_collect::<Vec<_>>()
            .await
            .unwrap();
        if attempted.len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(attempted.len(), 2, "the worker tried both deliveries");
    for delivery in &attempted {
        assert!(format!("{delivery:?}").contains("Not sent"), "{delivery:?}");
    }
    assert_eq!(
        rx.hits().len(),
        0,
        "the loopback receiver must not be reached"
    );
}

#[actix_web::test]
async fn bad_endpoint_requests_are_refused_with_a_reason() {
    let (_rx, base) = Receiver::start();
    let app = spawn_app_with(loopback_app_options()).await;
    let writer = app.signup().await;
    let url = format!("{base}/h");
    for (body, needle) in [
        (
            json!({ "url": url, "events": ["post.exploded"] }),
            "Unknown event type",
        ),
        (json!({ "url": url, "events": [] }), "at least one event"),
        (
            json!({ "url": url, "events": ["member.deleted"] }),
            "site-wide",
        ),
        (
            json!({ "url": url, "events": ["post.published"], "description": "x".repeat(201) }),
            "200 characters",
        ),
    ] {
        let res = app
            .post_json("/api/webhooks", &body, Some(&writer.token))
            .await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{body}");
        let message = json_of(res).await["message"].as_str().unwrap().to_string();
        assert!(message.contains(needle), "{message}");
    }
    let res = app
        .post_json(
            "/api/webhooks",
            &json!({ "url": url, "events": ["post.published"], "site": true }),
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    // A change is held to the same rules, and a refused one changes nothing.
    let kept = add_endpoint(&app, &writer, &url, json!(["post.published"])).await;
    let path = format!("/api/webhooks/{}", kept["id"].as_str().unwrap());
    for (body, needle) in [
        (json!({ "events": ["post.exploded"] }), "Unknown event type"),
        (json!({ "url": "http://10.0.0.1/h" }), "public address"),
        (json!({ "url": "not a url" }), "is not a URL"),
        (json!({ "description": "x".repeat(201) }), "200 characters"),
    ] {
        let res = app.patch_json(&path, &body, Some(&writer.token)).await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{body}");
        let message = json_of(res).await["message"].as_str().unwrap().to_string();
        assert!(message.contains(needle), "{message}");
    }
    let res = app
        .patch_json(&path, &json!({ "owner": "me" }), Some(&writer.token))
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let list = json_of(app.get("/api/webhooks", Some(&writer.token)).await).await;
    assert_eq!(list["webhooks"][0]["url"], url);
    assert_eq!(list["webhooks"][0]["events"], json!(["post.published"]));
    app.delete(&path, Some(&writer.token)).await;
    for i in 0..25 {
        add_endpoint(
            &app,
            &writer,
            &format!("{url}{i}"),
            json!(["post.published"]),
        )
        .await;
    }
    let res = app
        .post_json(
            "/api/webhooks",
            &json!({ "url": url, "events": ["post.published"] }),
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(json_of(res).await["message"]
        .as_str()
        .unwrap()
        .contains("at most 25"));
    let types = json_of(
        app.get("/api/webhooks/event-types", Some(&writer.token))
            .await,
    )
    .await;
    let names: Vec<&str> = types["eventTypes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"post.published") && !names.contains(&"member.deleted"),
        "{names:?}"
    );

    // An administrator's site-wide endpoint hears every writer and member deletions.
    let admin = app.admin().await;
    let (rx, base) = Receiver::start();
    add_endpoint_site(&app, &admin, &format!("{base}/site")).await;
    create_post(
        &app,
        &writer.token,
        with(post_body("Anyone's", "Words"), json!({})),
    )
    .await;
    rx.wait_for("/site", 1).await;
}

async fn add_endpoint_site(app: &TestApp, admin: &TestUser, url: &str) {
    let res = app
        .post_json(
            "/api/webhooks",
            &json!({ "url": url, "events": ["post.published", "member.deleted"], "site": true }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
}

/// Finished deliveries older than the days kept are removed; pending ones and recent ones stay.
#[actix_web::test]
async fn old_finished_deliveries_are_removed() {
    let app = spawn_app().await;
    let coll = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("webhook_deliveries");
    let days_ago = |n: i64| {
        mongodb::bson::DateTime::from_chrono(chrono::Utc::now() - chrono::Duration::days(n))
    };
    for (name, status, age) in [
        ("old-ok", "succeeded", 40),
        ("old-failed", "failed", 31),
        ("old-waiting", "retrying", 40),
        ("new-ok", "succeeded", 2),
    ] {
        coll.insert_one(
            mongodb::bson::doc! { "messageId": name, "status": status, "createdAt": days_ago(age) },
        )
        .await
        .unwrap();
    }
    let gone = pressroom::persistence::webhooks::remove_finished(&app.db, days_ago(30))
        .await
        .unwrap();
    assert_eq!(gone, 2);
    let mut left: Vec<String> = coll
        .distinct("messageId", mongodb::bson::doc! {})
        .await
        .unwrap()
        .into_iter()
        .filter_map(|b| b.as_str().map(str::to_string))
        .collect();
    left.sort();
    assert_eq!(left, ["new-ok", "old-waiting"]);
}
