//! Web Push against the stand-in push service (npm `web-push-testing`, started by the scripts:
//! it refuses a message whose VAPID signature does not verify with the key the subscription was
//! made for, and decrypts the aes128gcm payload): the VAPID key, devices, switches and quiet
//! hours, a like pushed once to each device of an author with no tab open, likes batched, bad
//! input, and an expired subscription (410) removed.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::publish;
use crate::support::engagement::count_docs;
use crate::support::*;

/// The stand-in push service.
struct PushService {
    url: String,
    http: reqwest::Client,
}

/// A subscription the stand-in made, as a browser hands it to the app.
struct Subscription {
    json: Value,
    client_hash: String,
}

impl PushService {
    fn new() -> Self {
        PushService {
            url: std::env::var("PRESSROOM_TEST_PUSH_URL")
                .expect("PRESSROOM_TEST_PUSH_URL (scripts/test and scripts/services set it)"),
            http: reqwest::Client::new(),
        }
    }

    async fn subscribe(&self, server_key: &str) -> Subscription {
        let res = self
            .http
            .post(format!("{}/subscribe", self.url))
            .json(&json!({ "applicationServerKey": server_key, "userVisibleOnly": "true" }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let data = res.json::<Value>().await.unwrap()["data"].clone();
        Subscription {
            json: json!({
                "endpoint": data["endpoint"],
                "expirationTime": null,
                "keys": data["keys"],
            }),
            client_hash: data["clientHash"].as_str().unwrap().to_string(),
        }
    }

    async fn messages(&self, sub: &Subscription) -> Vec<Value> {
        let res = self
            .http
            .post(format!("{}/get-notifications", self.url))
            .json(&json!({ "clientHash": sub.client_hash }))
            .send()
            .await
            .unwrap();
        let body = res.json::<Value>().await.unwrap();
        body["data"]["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|m| serde_json::from_str(m.as_str().unwrap()).unwrap())
            .collect()
    }

    /// The messages once `n` arrived (waiting up to ten seconds), then a moment more so a
    /// message too many shows.
    async fn expect(&self, sub: &Subscription, n: usize) -> Vec<Value> {
        for _ in 0..100 {
            if self.messages(sub).await.len() >= n {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let got = self.messages(sub).await;
        assert_eq!(got.len(), n, "messages: {got:?}");
        got
    }

    async fn expire(&self, sub: &Subscription) {
        let res = self
            .http
            .post(format!(
                "{}/expire-subscription/{}",
                self.url, sub.client_hash
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
    }
}

async fn server_key(app: &TestApp) -> String {
    let res = app.get("/api/push/vapid-public-key", None).await;
    assert_eq!(res.status(), StatusCode::OK);
    json_of(res).await["publicKey"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn register(app: &TestApp, user: &TestUser, sub: &Subscription, label: &str) -> Value {
    let mut body = sub.json.clone();
    body["label"] = json!(label);
    let res = app
        .post_json("/api/push/subscriptions", &body, Some(&user.token))
        .await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

async fn like(app: &TestApp, reader: &TestUser, post: &Value) {
    let path = format!("/api/post/like/{}", post["_id"].as_str().unwrap());
    let res = app.post_empty(&path, Some(&reader.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
}

async fn devices(app: &TestApp, user: &TestUser) -> Vec<Value> {
    let res = app.get("/api/push/subscriptions", Some(&user.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    json_of(res).await["subscriptions"]
        .as_array()
        .cloned()
        .unwrap()
}

#[actix_web::test]
async fn the_vapid_key_is_an_uncompressed_p256_point_kept_across_restarts() {
    let app = spawn_app().await;
    let key = server_key(&app).await;
    use base64::Engine;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(&key)
        .unwrap();
    assert_eq!(bytes.len(), 65);
    assert_eq!(bytes[0], 4);
    assert_eq!(server_key(&app).await, key);
    // Another server on the same store reads the same key, kept sealed.
    let name = app.db_name.clone();
    let again = spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s| s.database.name = name)),
        ..Default::default()
    })
    .await;
    assert_eq!(server_key(&again).await, key);
    assert_eq!(
        count_docs(&app, "push_keys", mongodb::bson::doc! {}).await,
        1
    );
}

#[actix_web::test]
async fn a_device_is_registered_listed_updated_and_removed_by_its_owner_only() {
    let app = spawn_app().await;
    let service = PushService::new();
    let key = server_key(&app).await;
    let owner = app.signup().await;
    let other = app.signup().await;
    let sub = service.subscribe(&key).await;
    let device = register(&app, &owner, &sub, "Firefox on Android").await;
    assert_eq!(device["label"], "Firefox on Android");
    assert_eq!(device["endpoint"], sub.json["endpoint"]);
    assert!(device["lastDeliveryAt"].is_null());
    // The same endpoint again is the same device, with its new label.
    let again = register(&app, &owner, &sub, "My phone").await;
    assert_eq!(again["id"], device["id"]);
    let listed = devices(&app, &owner).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["label"], "My phone");
    assert!(devices(&app, &other).await.is_empty());
    let path = format!("/api/push/subscriptions/{}", device["id"].as_str().unwrap());
    let res = app.delete(&path, Some(&other.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Device not found"
    );
    let res = app.delete(&path, Some(&owner.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["message"], "Device removed");
    assert!(devices(&app, &owner).await.is_empty());
    let res = app.delete(&path, Some(&owner.token)).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = app
        .delete("/api/push/subscriptions/not-an-id", Some(&owner.token))
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
}

#[actix_web::test]
async fn bad_subscriptions_are_refused_with_their_reason_and_change_nothing() {
    let app = spawn_app().await;
    let service = PushService::new();
    let key = server_key(&app).await;
    let user = app.signup().await;
    let sub = service.subscribe(&key).await;
    let with = |patch: Value| {
        let mut body = sub.json.clone();
        for (k, v) in patch.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let cases = [
        (
            with(json!({ "keys": { "p256dh": "BAAA", "auth": sub.json["keys"]["auth"] } })),
            "The subscription's p256dh key must be a 65-byte P-256 point in base64url.",
        ),
        (
            with(json!({ "keys": { "p256dh": sub.json["keys"]["p256dh"], "auth": "c2hvcnQ" } })),
            "The subscription's auth secret must be 16 bytes in base64url.",
        ),
        (
            with(json!({ "endpoint": "ftp://push.example/x" })),
            "Give the subscription's push endpoint (an https address).",
        ),
        (
            with(json!({ "label": "x".repeat(61) })),
            "A device label is at most 60 characters.",
        ),
    ];
    for (body, message) in cases {
        let res = app
            .post_json("/api/push/subscriptions", &body, Some(&user.token))
            .await;
        assert_eq!(assert_error(res, StatusCode::BAD_REQUEST).await, message);
    }
    // Unknown keys and a missing part are refused too.
    for body in [
        with(json!({ "extra": 1 })),
        json!({ "endpoint": sub.json["endpoint"] }),
    ] {
        let res = app
            .post_json("/api/push/subscriptions", &body, Some(&user.token))
            .await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    }
    assert!(devices(&app, &user).await.is_empty());
    // Signed out: no device.
    let res = app
        .post_json("/api/push/subscriptions", &sub.json, None)
        .await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
}

#[actix_web::test]
async fn at_most_twenty_devices_and_https_only_in_production() {
    let app = spawn_app().await;
    let service = PushService::new();
    let key = server_key(&app).await;
    let user = app.signup().await;
    for i in 0..20 {
        let sub = service.subscribe(&key).await;
        register(&app, &user, &sub, &format!("Device {i}")).await;
    }
    let sub = service.subscribe(&key).await;
    let res = app
        .post_json("/api/push/subscriptions", &sub.json, Some(&user.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "You can register at most 20 devices. Remove one in Settings first."
    );
    assert_eq!(devices(&app, &user).await.len(), 20);

    let production = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| s.push.allow_insecure_endpoints = false)),
        ..Default::default()
    })
    .await;
    let someone = production.signup().await;
    let res = production
        .post_json("/api/push/subscriptions", &sub.json, Some(&someone.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "The push endpoint must be an https address."
    );
}

#[actix_web::test]
async fn a_like_reaches_each_device_of_an_author_with_no_tab_open_once_and_likes_are_batched() {
    let app = spawn_app().await;
    let service = PushService::new();
    let key = server_key(&app).await;
    let author = app.signup().await;
    let readers = app.signup_many(2).await;
    let phone = service.subscribe(&key).await;
    let laptop = service.subscribe(&key).await;
    register(&app, &author, &phone, "Phone").await;
    register(&app, &author, &laptop, "Laptop").await;
    let post = publish(&app, &author, "Pushing words", "Body").await;

    like(&app, &readers[0], &post).await;
    for device in [&phone, &laptop] {
        let got = service.expect(device, 1).await;
        let m = &got[0];
        assert_eq!(m["title"], "Pressroom");
        assert!(
            m["body"]
                .as_str()
                .unwrap()
                .contains("liked \u{201c}Pushing words\u{201d}"),
            "{m}"
        );
        assert_eq!(
            m["url"],
            format!("/post/{}", post["slug"].as_str().unwrap())
        );
        assert_eq!(m["tag"], format!("likes-{}", post["_id"].as_str().unwrap()));
        assert_eq!(m["badge"], 1);
    }
    // A second like within the hour is not pushed again.
    like(&app, &readers[1], &post).await;
    service.expect(&phone, 1).await;
    // Each device's last delivery is noted.
    for d in devices(&app, &author).await {
        assert!(d["lastDeliveryAt"].is_string(), "{d}");
    }
}

#[actix_web::test]
async fn switches_and_quiet_hours_hold_pushes_back() {
    let app = spawn_app().await;
    let service = PushService::new();
    let key = server_key(&app).await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let sub = service.subscribe(&key).await;
    register(&app, &author, &sub, "Phone").await;

    let res = app.get("/api/push/preferences", Some(&author.token)).await;
    let prefs = json_of(res).await["preferences"].clone();
    assert_eq!(prefs["likes"], true);
    assert_eq!(prefs["quietHours"]["enabled"], false);

    let res = app
        .put_json(
            "/api/push/preferences",
            &json!({ "likes": false }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let prefs = json_of(res).await["preferences"].clone();
    assert_eq!(prefs["likes"], false);
    assert_eq!(prefs["replies"], true, "a switch not given stays as it was");
    let first = publish(&app, &author, "Quiet one", "Body").await;
    like(&app, &reader, &first).await;

    // Likes on again, but quiet all day long (00:00 to 23:59 in the author's zone).
    let quiet = json!({ "likes": true, "quietHours": {
        "enabled": true, "start": "00:00", "end": "23:59", "timeZone": "Pacific/Kiritimati" } });
    let res = app
        .put_json("/api/push/preferences", &quiet, Some(&author.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let second = publish(&app, &author, "Quiet two", "Body").await;
    like(&app, &reader, &second).await;
    service.expect(&sub, 0).await;

    // Bad switches are refused and change nothing.
    for (body, message) in [
        (
            json!({ "quietHours": { "enabled": true, "start": "25:00", "end": "07:00", "timeZone": "UTC" } }),
            "Quiet hours need a start and an end as HH:MM.",
        ),
        (
            json!({ "quietHours": { "enabled": true, "start": "22:00", "end": "07:00", "timeZone": "Mars/Olympus" } }),
            "Unknown time zone: Mars/Olympus",
        ),
    ] {
        let res = app
            .put_json("/api/push/preferences", &body, Some(&author.token))
            .await;
        assert_eq!(assert_error(res, StatusCode::BAD_REQUEST).await, message);
    }
    let res = app
        .put_json(
            "/api/push/preferences",
            &json!({ "sound": true }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let res = app.get("/api/push/preferences", Some(&author.token)).await;
    let prefs = json_of(res).await["preferences"].clone();
    assert_eq!(prefs["quietHours"]["timeZone"], "Pacific/Kiritimati");

    // Quiet hours off: the next like is pushed.
    let res = app
        .put_json(
            "/api/push/preferences",
            &json!({ "quietHours": { "enabled": false, "start": "22:00", "end": "07:00", "timeZone": "UTC" } }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let third = publish(&app, &author, "Loud three", "Body").await;
    like(&app, &reader, &third).await;
    let got = service.expect(&sub, 1).await;
    assert!(got[0]["body"].as_str().unwrap().contains("Loud three"));
}

#[actix_web::test]
async fn an_expired_subscription_is_removed_and_sent_nothing_more() {
    let app = spawn_app().await;
    let service = PushService::new();
    let key = server_key(&app).await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let gone = service.subscribe(&key).await;
    let kept = service.subscribe(&key).await;
    register(&app, &author, &gone, "Old phone").await;
    register(&app, &author, &kept, "New phone").await;
    service.expire(&gone).await;
    let post = publish(&app, &author, "After the phone died", "Body").await;
    like(&app, &reader, &post).await;
    service.expect(&kept, 1).await;
    for _ in 0..50 {
        if devices(&app, &author).await.len() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let left = devices(&app, &author).await;
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0]["label"], "New phone");
    assert_eq!(
        count_docs(&app, "push_deliveries", mongodb::bson::doc! {}).await,
        0
    );
}

/// The recorder (`tests/api/push_recorder.py`): a push service on loopback checking with PyPI
/// `py-vapid` and `http-ece`, independent of the server's crates.
struct Recorder {
    child: tokio::process::Child,
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
}

impl Recorder {
    async fn start() -> (Self, Value) {
        use tokio::io::AsyncBufReadExt;
        let python = std::env::var("PRESSROOM_TEST_PYTHON")
            .expect("PRESSROOM_TEST_PYTHON (scripts/test and scripts/services set it)");
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/api/push_recorder.py");
        let mut child = tokio::process::Command::new(python)
            .arg(script)
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the push recorder runs");
        let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let first = lines
            .next_line()
            .await
            .unwrap()
            .expect("the recorder's subscription");
        (
            Recorder { child, lines },
            serde_json::from_str(&first).unwrap(),
        )
    }

    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(15), self.lines.next_line())
            .await
            .expect("a message within 15 s")
            .unwrap()
            .expect("the recorder is running");
        serde_json::from_str(&line).unwrap()
    }
}

#[actix_web::test]
async fn the_vapid_claims_and_the_encrypted_payload_check_out_with_independent_code() {
    let app = spawn_app().await;
    let key = server_key(&app).await;
    let (mut recorder, sub) = Recorder::start().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let body = json!({
        "endpoint": sub["endpoint"], "expirationTime": null,
        "keys": { "p256dh": sub["p256dh"], "auth": sub["auth"] }, "label": "Recorder",
    });
    let res = app
        .post_json("/api/push/subscriptions", &body, Some(&user.token))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let res = app
        .post_json(
            "/api/notification/admin",
            &json!({ "userId": user.id, "content": "Checked elsewhere", "navigateTo": "/notifications" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let got = recorder.next().await;
    let vapid = &got["vapid"];
    assert_eq!(vapid["verified"], true, "{got}");
    assert_eq!(
        vapid["k"],
        key.as_str(),
        "signed with the key the app hands browsers"
    );
    // The audience is the push service's origin, port included (RFC 8292 §2).
    let origin = sub["endpoint"]
        .as_str()
        .unwrap()
        .trim_end_matches("/push/recorder");
    assert_eq!(vapid["aud"], origin);
    let now = got["receivedAt"].as_i64().unwrap();
    let exp = vapid["exp"].as_i64().unwrap();
    assert!(
        exp > now && exp <= now + 24 * 3600,
        "exp {exp} within a day of {now}"
    );
    assert!(
        vapid["sub"].as_str().unwrap().starts_with("mailto:"),
        "{vapid}"
    );
    assert_eq!(got["encoding"], "aes128gcm");
    assert_eq!(got["urgency"], "high");
    assert_eq!(got["topic"].as_str().unwrap().len(), 32);
    assert_eq!(got["ttl"], "86400");
    let payload: Value = serde_json::from_str(got["payload"].as_str().unwrap()).unwrap();
    assert_eq!(payload["title"], "Pressroom");
    assert_eq!(payload["body"], "Checked elsewhere");
    assert_eq!(payload["url"], "/notifications");
    assert_eq!(payload["badge"], 1);
    let _ = recorder.child.kill().await;
}

#[actix_web::test]
async fn an_urgent_banner_is_pushed_to_everyone_with_banners_on_and_an_ordinary_one_is_not() {
    let app = spawn_app().await;
    let service = PushService::new();
    let key = server_key(&app).await;
    let admin = app.admin().await;
    let keen = app.signup().await;
    let quiet = app.signup().await;
    let keen_phone = service.subscribe(&key).await;
    let quiet_phone = service.subscribe(&key).await;
    register(&app, &keen, &keen_phone, "Phone").await;
    register(&app, &quiet, &quiet_phone, "Phone").await;
    let res = app
        .put_json(
            "/api/push/preferences",
            &json!({ "banners": false }),
            Some(&quiet.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let banner = |title: &str, urgent: bool| json!({ "title": title, "message": "The site is read-only tonight", "link": "/about", "urgent": urgent });
    let res = app
        .post_json(
            "/api/bannerNotification/create",
            &banner("Heads up", false),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(json_of(res).await["notification"]["urgent"], false);
    let res = app
        .post_json(
            "/api/bannerNotification/create",
            &banner("Maintenance", true),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let id = json_of(res).await["notification"]["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let got = service.expect(&keen_phone, 1).await;
    assert_eq!(got[0]["title"], "Maintenance");
    assert_eq!(got[0]["body"], "The site is read-only tonight");
    assert_eq!(got[0]["url"], "/about");
    assert_eq!(got[0]["tag"], format!("banner-{id}"));
    service.expect(&quiet_phone, 0).await;
}

#[actix_web::test]
async fn a_follower_pushed_a_new_post_is_emailed_it_only_if_they_have_not_opened_it() {
    // config/test.toml holds such emails back for `push.email_hold_seconds` = 3.
    let app = spawn_app().await;
    let service = PushService::new();
    let key = server_key(&app).await;
    let author = app.signup().await;
    let readers = app.signup_many(3).await;
    let (opens, ignores, no_device) = (&readers[0], &readers[1], &readers[2]);
    for reader in &readers {
        let id = mongodb::bson::oid::ObjectId::parse_str(&reader.id).unwrap();
        pressroom::persistence::users::mark_verified(&app.db, id)
            .await
            .unwrap();
        app.follow_directly(reader, &author).await;
    }
    let opens_phone = service.subscribe(&key).await;
    let ignores_phone = service.subscribe(&key).await;
    register(&app, opens, &opens_phone, "Phone").await;
    register(&app, ignores, &ignores_phone, "Phone").await;
    let before: Vec<usize> = readers.iter().map(|r| app.mail_count(&r.email)).collect();

    let post = publish(&app, &author, "Pushed first", "Words").await;
    let slug = post["slug"].as_str().unwrap().to_string();
    // Pushed at once to both readers with a device (no tab open anywhere); the one without a
    // device is emailed at once.
    for phone in [&opens_phone, &ignores_phone] {
        let got = service.expect(phone, 1).await;
        assert_eq!(got[0]["url"], format!("/post/{slug}"));
    }
    app.wait_for_mail(&no_device.email, before[2]).await;
    // Held back while the hold runs: the pushed readers have no email yet.
    assert_eq!(app.mail_count(&opens.email), before[0]);
    assert_eq!(app.mail_count(&ignores.email), before[1]);
    // One of them opens the push: the post is viewed signed in.
    let res = app
        .post_empty(&format!("/api/post/view/{slug}"), Some(&opens.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);

    let figures =
        crate::support::content::delivered(&app, &author, post["_id"].as_str().unwrap()).await;
    // The one who did not open it is emailed once the hold ends; the one who did never is.
    app.wait_for_mail(&ignores.email, before[1]).await;
    assert_eq!(figures["notices"], 3, "{figures}");
    assert_eq!(figures["emailsSent"], 2, "{figures}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.mail_count(&opens.email), before[0]);
    assert_eq!(app.mail_count(&ignores.email), before[1] + 1);
    assert_eq!(app.mail_count(&no_device.email), before[2] + 1);
}
