//! Counts that pay people cannot be pumped and refunds cannot be looped (docs/refunds.md,
//! docs/decisions.md "Counting engagement").

use mongodb::bson::doc;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::money::*;
use crate::support::*;

async fn refund(app: &TestApp, sub: &str, reader: &TestUser) -> reqwest::Response {
    app.patch_json(
        &format!("/api/subscription/subscriptions/{sub}/refund"),
        &json!({ "reason": "Not for me" }),
        Some(&reader.token),
    )
    .await
}

#[actix_web::test]
async fn the_refund_loop_is_closed_once_per_plan_and_once_per_author_in_90_days() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let gold = app.create_plan(&author, 2000).await["_id"]
        .as_str()
        .unwrap()
        .to_string();

    // Subscribe, refund: fine the first time.
    let first = app.subscribed(&reader, &gold).await;
    assert_eq!(refund(&app, &first, &reader).await.status(), StatusCode::OK);

    // Another plan of the same author: refused within 90 days of the first refund, saying why.
    let res = app
        .post_json(
            "/api/subscription/plans",
            &json!({ "name": "Silver", "price": 900, "currency": "usd", "interval": "month" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let silver = json_of(res).await["plan"]["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let second = app.subscribed(&reader, &silver).await;
    let message = assert_error(refund(&app, &second, &reader).await, StatusCode::CONFLICT).await;
    assert!(
        message.starts_with("You were refunded a subscription to this author on ")
            && message.contains(
                "refunds are limited to one per author every 90 days, so the next is possible from "
            ),
        "{message}"
    );
    assert_eq!(app.sub_status(&second).await, "active");
    assert_eq!(app.count_in("refunds", doc! {}).await, 1);

    // 91 days after the first refund the other plan may be refunded.
    let old = mongodb::bson::DateTime::from_millis(
        mongodb::bson::DateTime::now().timestamp_millis() - 91 * 86_400_000,
    );
    app.collection("refunds")
        .update_many(doc! {}, doc! { "$set": { "createdAt": old } })
        .await
        .unwrap();
    assert_eq!(
        refund(&app, &second, &reader).await.status(),
        StatusCode::OK
    );

    // The first plan never again: subscribe to it anew, the refund is refused.
    let third = app.subscribed(&reader, &gold).await;
    let message = assert_error(refund(&app, &third, &reader).await, StatusCode::CONFLICT).await;
    assert!(
        message.starts_with("This plan was already refunded to you on ")
            && message.ends_with(
                "a plan is refunded at most once, so this subscription cannot be refunded"
            ),
        "{message}"
    );
    assert_eq!(app.sub_status(&third).await, "active");

    // Another reader is not affected.
    let other = app.signup().await;
    let theirs = app.subscribed(&other, &gold).await;
    assert_eq!(refund(&app, &theirs, &other).await.status(), StatusCode::OK);
}

async fn a_post(app: &TestApp) -> (TestUser, Value) {
    let author = app.signup().await;
    let post = crate::support::content::publish(app, &author, "Counted", "x").await;
    (author, post)
}

async fn view_as(app: &TestApp, slug: &str, guest: Option<&str>, agent: Option<&str>) -> Value {
    let mut req = app
        .client
        .post(app.url(&format!("/api/public/post/{slug}/view")))
        .json(&guest.map_or(json!({}), |g| json!({ "guestId": g })));
    if let Some(agent) = agent {
        req = req.header("user-agent", agent);
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    json_of(res).await
}

#[actix_web::test]
async fn guest_id_rotation_is_bounded_and_forged_ids_are_the_address() {
    let app = spawn_app().await;
    app.wait_for_index("view_windows", "post_viewer_unique")
        .await;
    let (_, post) = a_post(&app).await;
    let slug = post["slug"].as_str().unwrap();
    // Thirty views from one address, each with a new client-chosen id: the address, once.
    for n in 0..30 {
        view_as(&app, slug, Some(&format!("made-up-{n}")), None).await;
    }
    assert_eq!(view_as(&app, slug, None, None).await["views"], 1);
    // A forged id shaped like a server-issued one is no better.
    let forged = format!("{}-{}", "ab".repeat(16), "00".repeat(16));
    assert_eq!(view_as(&app, slug, Some(&forged), None).await["views"], 1);

    // Thirty views under thirty ids the server did issue: at most 3 guests per address per
    // window count (the rest are the address, already counted).
    let mut last = Value::Null;
    for _ in 0..30 {
        let guest = app.guest_id().await;
        last = view_as(&app, slug, Some(&guest), None).await;
    }
    assert_eq!(last["views"], 4, "the address and three guests");
    assert_eq!(
        app.count_in(
            "views",
            doc! { "postId": oid(post["_id"].as_str().unwrap()) }
        )
        .await,
        4
    );
}

#[actix_web::test]
async fn crawlers_and_headless_browsers_never_count() {
    let app = spawn_app().await;
    let (_, post) = a_post(&app).await;
    let slug = post["slug"].as_str().unwrap();
    let id = post["_id"].as_str().unwrap();
    let bots = [
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
        "python-requests/2.31.0",
    ];
    for agent in bots {
        let guest = app.guest_id().await;
        assert_eq!(
            view_as(&app, slug, Some(&guest), Some(agent)).await["views"],
            0,
            "{agent}"
        );
        let res = app
            .client
            .post(app.url(&format!("/api/post/{id}/share")))
            .header("user-agent", agent)
            .json(&json!({ "guestId": guest }))
            .send()
            .await
            .unwrap();
        assert_eq!(json_of(res).await["shareCount"], 0, "{agent}");
    }
    // A browser counts.
    let guest = app.guest_id().await;
    let person = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
    assert_eq!(
        view_as(&app, slug, Some(&guest), Some(person)).await["views"],
        1
    );
}

#[actix_web::test]
async fn the_authors_own_share_does_not_count() {
    let app = spawn_app().await;
    let (author, post) = a_post(&app).await;
    let id = post["_id"].as_str().unwrap();
    let res = app
        .post_json(
            &format!("/api/post/{id}/share"),
            &json!({}),
            Some(&author.token),
        )
        .await;
    assert_eq!(json_of(res).await["shareCount"], 0);
}

#[actix_web::test]
async fn reading_time_is_capped_per_reader_and_window() {
    let app = spawn_app().await;
    let (_, post) = a_post(&app).await;
    let id = post["_id"].as_str().unwrap();
    let minutes = post["readingTime"].as_i64().unwrap_or(1).max(1);
    let cap = minutes * 60 * 3;
    let reader = app.signup().await;
    let path = format!("/api/post/time-spent/{id}");
    // An hour reported in one go counts as the cap; more reports within the window add nothing.
    let res = app
        .post_json(&path, &json!({ "duration": 3600 }), Some(&reader.token))
        .await;
    assert_eq!(json_of(res).await["duration"], cap);
    let res = app
        .post_json(&path, &json!({ "duration": 30 }), Some(&reader.token))
        .await;
    assert_eq!(json_of(res).await["duration"], cap);
    // Half an hour later the reader's time counts again, up to the cap.
    let old = mongodb::bson::DateTime::from_millis(
        mongodb::bson::DateTime::now().timestamp_millis() - 31 * 60 * 1000,
    );
    app.collection("reading_times")
        .update_many(doc! {}, doc! { "$set": { "createdAt": old } })
        .await
        .unwrap();
    let res = app
        .post_json(&path, &json!({ "duration": 30 }), Some(&reader.token))
        .await;
    assert_eq!(json_of(res).await["duration"], cap + 30);
}

#[actix_web::test]
async fn engagement_bursts_get_429_with_retry_after() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.rate_limit.engagement_per_reader = 5;
            s.rate_limit.engagement_per_address = 8;
        })),
        ..AppOptions::default()
    })
    .await;
    let (_, post) = a_post(&app).await;
    let id = post["_id"].as_str().unwrap();
    let reader = app.signup().await;
    let like = format!("/api/post/like/{id}");
    for _ in 0..5 {
        let res = app.post_json(&like, &json!({}), Some(&reader.token)).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let res = app.post_json(&like, &json!({}), Some(&reader.token)).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert!(assert_error(res, StatusCode::TOO_MANY_REQUESTS)
        .await
        .starts_with("Too many attempts"));
    // Another reader from the same address still has the address's allowance (8), then not.
    let other = app.signup().await;
    for _ in 0..3 {
        let res = app.post_json(&like, &json!({}), Some(&other.token)).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let res = app.post_json(&like, &json!({}), Some(&other.token)).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    // Each action has its own allowance: a bookmark still works.
    let res = app
        .post_json(
            &format!("/api/post/bookmark/{id}"),
            &json!({}),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    // Views, shares, votes, comments and follows are limited too.
    let slug = post["slug"].as_str().unwrap();
    let view = format!("/api/post/view/{slug}");
    let mut codes = Vec::new();
    for _ in 0..7 {
        codes.push(
            app.post_json(&view, &json!({}), Some(&reader.token))
                .await
                .status(),
        );
    }
    assert_eq!(codes.iter().filter(|c| **c == StatusCode::OK).count(), 5);
    assert_eq!(codes.last(), Some(&StatusCode::TOO_MANY_REQUESTS));
}

#[actix_web::test]
async fn analytics_refusals_carry_error_as_well_as_message() {
    let app = spawn_app().await;
    let (author, post) = a_post(&app).await;
    let stranger = app.signup().await;
    let id = post["_id"].as_str().unwrap();
    for (path, token, status) in [
        (
            format!("/api/post/analytics/post/{id}"),
            Some(stranger.token.as_str()),
            StatusCode::FORBIDDEN,
        ),
        (
            format!("/api/post/analytics/post/{id}"),
            None,
            StatusCode::UNAUTHORIZED,
        ),
        (
            "/api/post/analytics/post/nope".to_string(),
            Some(stranger.token.as_str()),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/post/analytics/user-engagement?days=0".to_string(),
            Some(stranger.token.as_str()),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/post/analytics/user-engagement?userId={}", author.id),
            Some(stranger.token.as_str()),
            StatusCode::FORBIDDEN,
        ),
    ] {
        let res = app.get(&path, token).await;
        assert_eq!(res.status(), status, "{path}");
        let body = json_of(res).await;
        assert!(body["message"].is_string(), "{path}: {body}");
        assert_eq!(body["error"], body["message"], "{path}: {body}");
    }
}

#[actix_web::test]
async fn counters_verify_lists_tampered_counters_and_repair_fixes_them() {
    let app = spawn_app().await;
    let (author, post) = a_post(&app).await;
    let (_, other) = a_post(&app).await;
    let id = post["_id"].as_str().unwrap();
    let reader = app.signup().await;
    for path in [
        format!("/api/post/like/{id}"),
        format!("/api/post/{id}/share"),
    ] {
        let res = app.post_json(&path, &json!({}), Some(&reader.token)).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let res = app
        .post_json(
            &format!("/api/post/view/{}", post["slug"].as_str().unwrap()),
            &json!({}),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let _ = author;
    let verify = |repair| {
        let settings = app.settings.clone();
        async move {
            pressroom::cli::run_counters(
                &settings,
                pressroom::cli::CountersAction::Verify { repair },
            )
            .await
            .unwrap()
        }
    };
    let clean = verify(false).await;
    assert!(clean.consistent, "{}", clean.text);
    assert!(
        clean.text.ends_with("0 counters differ from their records"),
        "{}",
        clean.text
    );

    // Someone pumps the numbers directly in the database.
    app.collection("posts")
        .update_one(
            doc! { "_id": oid(id) },
            doc! { "$set": { "views": 5000_i64, "shareCount": 900_i64, "likesCount": 0_i64 } },
        )
        .await
        .unwrap();
    app.collection("posts")
        .update_one(
            doc! { "_id": oid(other["_id"].as_str().unwrap()) },
            doc! { "$set": { "commentsCount": 7_i64 } },
        )
        .await
        .unwrap();
    let found = verify(false).await;
    assert!(!found.consistent);
    for line in [
        format!("post {id} views: stored 5000, records 1"),
        format!("post {id} shareCount: stored 900, records 1"),
        format!("post {id} likesCount: stored 0, records 1"),
        format!(
            "post {} commentsCount: stored 7, records 0",
            other["_id"].as_str().unwrap()
        ),
        "4 counters differ from their records (run with --repair to fix them)".to_string(),
    ] {
        assert!(found.text.contains(&line), "{line} in\n{}", found.text);
    }
    // Verifying changes nothing.
    let stored = app.find_doc("posts", doc! { "_id": oid(id) }).await;
    assert_eq!(stored.get_i64("views").unwrap(), 5000);

    let repaired = verify(true).await;
    assert!(repaired.consistent, "{}", repaired.text);
    assert!(repaired.text.contains(&format!(
        "post {id} views: stored 5000, records 1 -> repaired"
    )));
    assert!(
        repaired
            .text
            .ends_with("4 counters differed from their records, 4 repaired"),
        "{}",
        repaired.text
    );
    let fixed = app.find_doc("posts", doc! { "_id": oid(id) }).await;
    assert_eq!(fixed.get_i64("views").unwrap(), 1);
    assert_eq!(fixed.get_i64("shareCount").unwrap(), 1);
    assert_eq!(fixed.get_i64("likesCount").unwrap(), 1);
    // The API answers the repaired numbers.
    let body = json_of(
        app.get(
            &format!("/api/post/{}", post["slug"].as_str().unwrap()),
            None,
        )
        .await,
    )
    .await;
    let shown = if body["post"].is_object() {
        &body["post"]
    } else {
        &body
    };
    assert_eq!(shown["views"], 1, "{body}");
    assert!(verify(false).await.consistent);
}

/// A mail server that takes connections and never answers (each send waits, then fails).
async fn silent_mail_server() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
                drop(socket);
            });
        }
    });
    port
}

#[actix_web::test]
async fn retrying_failed_emails_answers_at_once_and_finishes_in_the_background() {
    let port = silent_mail_server().await;
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s: &mut pressroom::config::Settings| {
            s.mail.smtp_port = port;
            s.mail.max_attempts = 1;
        })),
        ..AppOptions::default()
    })
    .await;
    let admin = app.admin().await;
    let logs: Vec<_> = (0..3)
        .map(|n| {
            doc! {
                "_id": mongodb::bson::oid::ObjectId::new(),
                "email": format!("reader{n}@example.com"), "type": "contact_reply",
                "subject": "Re: Hi", "success": false, "error": "451 try later", "attempts": 1,
                "stopEmailAttempts": false, "createdAt": mongodb::bson::DateTime::now(),
                "body": "Our answer", "retries": 0,
            }
        })
        .collect();
    app.collection("email_logs")
        .insert_many(logs)
        .await
        .unwrap();

    let started = std::time::Instant::now();
    let res = app
        .post_json(
            "/api/admin/retry-failed-emails",
            &json!({ "type": "contact_reply" }),
            Some(&admin.token),
        )
        .await;
    let took = started.elapsed();
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    assert!(
        took < std::time::Duration::from_secs(1),
        "answered in {took:?}"
    );
    let body = json_of(res).await;
    assert_eq!(body["results"], json!([]));
    assert_eq!(
        body["message"],
        "Retrying the failed emails in the background"
    );
    let id = body["jobId"].as_str().unwrap().to_string();
    assert_eq!(body["job"]["_id"], id.as_str());
    // Each send waits on the silent server: the job is still at work after the answer.
    let res = app
        .get(&format!("/api/admin/jobs/{id}"), Some(&admin.token))
        .await;
    let job = json_of(res).await["job"].clone();
    assert_ne!(job["status"], "done", "{job}");

    let job = wait_for_job(&app, &admin, &id).await;
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(job["total"], 3);
    assert_eq!(job["done"], 3);
    assert_eq!(job["message"], "0 sent, 3 still failing");
    let results = job["results"].as_array().unwrap();
    assert_eq!(results.len(), 3, "{job}");
    assert!(results.iter().all(|r| r["success"] == false), "{job}");

    // Bad input is still refused at once, and an unknown job is a 404.
    let res = app
        .post_json(
            "/api/admin/retry-failed-emails",
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .get(
            &format!("/api/admin/jobs/{}", mongodb::bson::oid::ObjectId::new()),
            Some(&admin.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Job not found"
    );
}

#[actix_web::test]
async fn a_broadcast_answers_at_once_and_is_written_once_by_two_nodes() {
    let app = spawn_app().await;
    // A second node over the same database and Redis: both workers look for jobs.
    let db_name = app.db_name.clone();
    let other = spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s: &mut pressroom::config::Settings| {
            s.database.name = db_name;
        })),
        ..AppOptions::default()
    })
    .await;
    let admin = app.admin().await;
    let users: Vec<_> = (0..1200)
        .map(|n| {
            doc! {
                "_id": mongodb::bson::oid::ObjectId::new(),
                "name": format!("Reader {n}"),
                "email": format!("bulk-{n}-{}@example.com", uuid::Uuid::new_v4().simple()),
                "role": "user", "blocked": false, "createdAt": mongodb::bson::DateTime::now(),
            }
        })
        .collect();
    app.collection("users").insert_many(users).await.unwrap();

    let started = std::time::Instant::now();
    let res = other
        .post_json(
            "/api/notification/broadcast",
            &json!({ "content": "Maintenance tonight" }),
            Some(&admin.token),
        )
        .await;
    let took = started.elapsed();
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    assert!(
        took < std::time::Duration::from_secs(1),
        "answered in {took:?}"
    );
    let body = json_of(res).await;
    assert_eq!(body["count"], 1200);
    let id = body["jobId"].as_str().unwrap().to_string();
    let job = wait_for_job(&app, &admin, &id).await;
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(job["done"], 1200);
    assert_eq!(job["message"], "Notification sent to 1200 users");
    // Written once, whichever node ran it.
    assert_eq!(
        app.count_in("notifications", doc! { "content": "Maintenance tonight" })
            .await,
        1200
    );
    assert_eq!(
        app.count_in("admin_jobs", doc! { "status": "done" }).await,
        1
    );
}

#[actix_web::test]
async fn engagement_limits_are_shared_by_two_nodes() {
    let low = |s: &mut pressroom::config::Settings| {
        s.rate_limit.engagement_per_reader = 6;
        s.rate_limit.engagement_per_address = 1000;
    };
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(low)),
        ..AppOptions::default()
    })
    .await;
    let db_name = app.db_name.clone();
    let other = spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s: &mut pressroom::config::Settings| {
            low(s);
            s.database.name = db_name;
        })),
        ..AppOptions::default()
    })
    .await;
    let (_, post) = a_post(&app).await;
    let id = post["_id"].as_str().unwrap();
    let reader = app.signup().await;
    let path = format!("/api/post/like/{id}");
    // Three likes on each node use up the reader's six: the seventh, on either node, is refused.
    for node in [&app, &other, &app, &other, &app, &other] {
        let res = node.post_json(&path, &json!({}), Some(&reader.token)).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    for node in [&app, &other] {
        let res = node.post_json(&path, &json!({}), Some(&reader.token)).await;
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
        assert!(res.headers().contains_key("retry-after"));
    }
}
