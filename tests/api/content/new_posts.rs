//! New posts reach their readers: a `new_post` notice to each follower who may read the post,
//! emails by each follower's alert mode (instant, digest, off) and to confirmed email-only
//! subscribers, each (post, recipient) at most once; double opt-in; one-click unsubscribe;
//! hard-bounce suppression; the author's choice and figures.

use std::time::{Duration, Instant};

use mongodb::bson::oid::ObjectId;
use pressroom::mail::Mailer;
use pressroom::services::jobs::daily_mail::DailyMailer;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::{create_post, delivered, delivery, paragraph, post_body, with};
use crate::support::*;

async fn verify(app: &TestApp, user: &TestUser) {
    let id = ObjectId::parse_str(&user.id).unwrap();
    pressroom::persistence::users::mark_verified(&app.db, id)
        .await
        .unwrap();
}

async fn new_post_notices(app: &TestApp, user: &TestUser) -> Vec<Value> {
    let body = json_of(
        app.get("/api/notification/notifications", Some(&user.token))
            .await,
    )
    .await;
    body["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == "new_post")
        .cloned()
        .collect()
}

async fn set_mode(
    app: &TestApp,
    user: &TestUser,
    author: &TestUser,
    mode: &str,
) -> reqwest::Response {
    app.put_json(
        &format!("/api/follow/alerts/{}", author.id),
        &json!({ "mode": mode }),
        Some(&user.token),
    )
    .await
}

async fn status(app: &TestApp, user: &TestUser, author: &TestUser) -> Value {
    json_of(
        app.get(
            &format!("/api/follow/status/{}", author.id),
            Some(&user.token),
        )
        .await,
    )
    .await
}

#[actix_web::test]
async fn followers_hear_of_a_new_post_by_the_mode_they_chose_and_only_once() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let instant = app.signup().await;
    let digest = app.signup().await;
    let off = app.signup().await;
    let blocked_by_author = app.signup().await;
    let blocker = app.signup().await;
    let stranger = app.signup().await;
    let unverified = app.signup().await;
    for u in [
        &instant,
        &digest,
        &off,
        &blocked_by_author,
        &blocker,
        &stranger,
    ] {
        verify(&app, u).await;
    }
    for u in [
        &instant,
        &digest,
        &off,
        &blocked_by_author,
        &blocker,
        &unverified,
    ] {
        app.follow_directly(u, &author).await;
    }
    app.block_directly(&author, &blocked_by_author).await;
    app.block_directly(&blocker, &author).await;

    // Modes: instant by default, kept with the follow, anything else refused naming `mode`.
    assert_eq!(status(&app, &instant, &author).await["alerts"], "instant");
    assert_eq!(
        status(&app, &stranger, &author).await["alerts"],
        Value::Null
    );
    assert_eq!(status(&app, &stranger, &author).await["isFollowing"], false);
    assert_eq!(
        set_mode(&app, &digest, &author, "digest").await.status(),
        StatusCode::OK
    );
    assert_eq!(
        set_mode(&app, &off, &author, "off").await.status(),
        StatusCode::OK
    );
    assert_eq!(status(&app, &digest, &author).await["alerts"], "digest");
    assert_eq!(status(&app, &off, &author).await["alerts"], "off");
    for bad in [json!({ "mode": "weekly" }), json!({ "mode": 3 }), json!({})] {
        let res = app
            .put_json(
                &format!("/api/follow/alerts/{}", author.id),
                &bad,
                Some(&digest.token),
            )
            .await;
        let message = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(message.contains("mode"), "{message}");
    }
    let res = set_mode(&app, &stranger, &author, "digest").await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    let following = json_of(app.get("/api/follow/following", Some(&digest.token)).await).await;
    assert_eq!(following["list"][0]["alerts"], "digest");

    let mails_before: Vec<usize> = [&instant, &digest, &off, &blocked_by_author, &blocker]
        .iter()
        .map(|u| app.mail_count(&u.email))
        .collect();
    let started = Instant::now();
    let post = create_post(
        &app,
        &author.token,
        post_body("Morning tides", "The sea came in."),
    )
    .await;
    // The request does not wait for the readers to be told.
    assert!(started.elapsed() < Duration::from_secs(5));
    let post_id = post["_id"].as_str().unwrap().to_string();
    let slug = post["slug"].as_str().unwrap().to_string();
    let figures = delivered(&app, &author, &post_id).await;
    assert_eq!(figures["notices"], 3, "{figures}");
    assert_eq!(figures["emailsSent"], 1, "{figures}");
    assert_eq!(figures["emailsFailed"], 0, "{figures}");
    assert_eq!(figures["sendEmail"], true);

    for (who, user, expected) in [
        ("instant", &instant, 1),
        ("digest", &digest, 1),
        ("unverified", &unverified, 1),
        ("off", &off, 0),
        ("blocked by the author", &blocked_by_author, 0),
        ("blocker", &blocker, 0),
        ("stranger", &stranger, 0),
    ] {
        let notices = new_post_notices(&app, user).await;
        assert_eq!(notices.len(), expected, "{who}: {notices:?}");
        if let Some(n) = notices.first() {
            assert_eq!(n["navigateTo"], format!("/post/{slug}"));
            assert_eq!(n["sender"]["_id"], author.id);
            assert_eq!(n["post"]["title"], "Morning tides");
        }
    }

    // One email, to the instant follower only, with its one-click unsubscribe and both parts.
    let mail = app.wait_for_mail(&instant.email, mails_before[0]).await;
    for (i, u) in [&digest, &off, &blocked_by_author, &blocker]
        .iter()
        .enumerate()
    {
        assert_eq!(app.mail_count(&u.email), mails_before[i + 1], "{}", u.email);
    }
    let text = decoded(&mail);
    assert!(text.contains("Morning tides"));
    assert!(text.contains("The sea came in."));
    assert!(text.contains(&format!("/post/{slug}")));
    assert!(text.contains("text/plain"));
    assert!(text.contains("text/html"));
    assert_eq!(
        header(&mail, "List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let unsubscribe = header(&mail, "List-Unsubscribe").unwrap();
    assert!(unsubscribe.starts_with("<http"), "{unsubscribe}");
    assert!(
        text.contains("/user-setting"),
        "a link to all email choices"
    );

    // Editing, and unpublishing then publishing again, tell nobody anything new.
    let path = format!("/api/post/update/{slug}");
    for change in [
        json!({ "title": "Morning tides, revised" }),
        json!({ "status": "draft" }),
        json!({ "status": "published" }),
    ] {
        let res = app.patch_json(&path, &change, Some(&author.token)).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(new_post_notices(&app, &instant).await.len(), 1);
    assert_eq!(app.mail_count(&instant.email), mails_before[0] + 1);
    assert_eq!(delivery(&app, &author, &post_id).await["notices"], 3);

    // The day's digest carries the post to the digest follower, and leaves it out for the
    // instant follower (emailed already) and the one who turned alerts off.
    let mailer = Mailer::new(&app.settings.mail, app.db.clone()).unwrap();
    let job = DailyMailer {
        db: &app.db,
        mailer: &mailer,
        settings: &app.settings,
    };
    let tomorrow = chrono::Utc::now().date_naive().succ_opt().unwrap();
    let summary = job.run(tomorrow, false).await.unwrap();
    assert_eq!(summary.outcome, "sent");
    let digest_mail = app.wait_for_mail(&digest.email, mails_before[1]).await;
    assert!(decoded(&digest_mail).contains(&format!("/post/{slug}")));
    assert_eq!(app.mail_count(&instant.email), mails_before[0] + 1);
    assert_eq!(app.mail_count(&off.email), mails_before[2]);

    // One-click unsubscribe (RFC 8058): a POST with `List-Unsubscribe=One-Click` stops this
    // author's emails; the follow stays.
    let url = unsubscribe.trim_matches(|c| c == '<' || c == '>');
    let local = url.replacen(&app.settings.server.public_url, &app.address, 1);
    let res = app
        .client
        .post(&local)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let now = status(&app, &instant, &author).await;
    assert_eq!(now["isFollowing"], true);
    assert_eq!(now["alerts"], "off");
    let forged = format!(
        "{}0",
        local.trim_end_matches(|c: char| c.is_ascii_hexdigit())
    );
    let res = app.client.post(&forged).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);

    // Someone else's post figures are not for others.
    let res = app
        .get(
            &format!("/api/post/delivery/{post_id}"),
            Some(&instant.token),
        )
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
}

#[actix_web::test]
async fn a_post_is_announced_when_it_becomes_visible_and_the_author_may_send_no_email() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    verify(&app, &reader).await;
    app.follow_directly(&reader, &author).await;
    let mails = app.mail_count(&reader.email);

    // A draft and a private post tell nobody; publishing the draft and making the private post
    // public do.
    let draft = create_post(
        &app,
        &author.token,
        with(
            post_body("Draft first", "Later."),
            json!({ "status": "draft" }),
        ),
    )
    .await;
    let private = create_post(
        &app,
        &author.token,
        with(
            post_body("Kept close", "Shh."),
            json!({ "visibility": "private" }),
        ),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(new_post_notices(&app, &reader).await.is_empty());
    assert_eq!(
        delivery(&app, &author, draft["_id"].as_str().unwrap()).await["announced"],
        false
    );
    for (post, change) in [
        (&draft, json!({ "status": "published" })),
        (
            &private,
            json!({ "visibility": "public", "emailSubscribers": false }),
        ),
    ] {
        let res = app
            .patch_json(
                &format!("/api/post/update/{}", post["slug"].as_str().unwrap()),
                &change,
                Some(&author.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        delivered(&app, &author, post["_id"].as_str().unwrap()).await;
    }
    assert_eq!(new_post_notices(&app, &reader).await.len(), 2);
    let figures = delivery(&app, &author, private["_id"].as_str().unwrap()).await;
    assert_eq!(figures["sendEmail"], false);
    assert_eq!(figures["emailsSent"], 0);
    assert_eq!(figures["notices"], 1);
    app.wait_for_mail(&reader.email, mails).await;
    assert_eq!(
        app.mail_count(&reader.email),
        mails + 1,
        "only the draft's email"
    );

    // A scheduled post tells its readers when it publishes itself.
    let at = (chrono::Utc::now() + chrono::Duration::seconds(2)).to_rfc3339();
    let scheduled = create_post(
        &app,
        &author.token,
        with(
            post_body("Right on time", "Scheduled words."),
            json!({ "status": "scheduled", "publishAt": at }),
        ),
    )
    .await;
    let id = scheduled["_id"].as_str().unwrap();
    assert_eq!(delivery(&app, &author, id).await["announced"], false);
    let figures = delivered(&app, &author, id).await;
    assert_eq!(figures["notices"], 1);
    assert_eq!(figures["emailsSent"], 1);
    let mail = app.wait_for_mail(&reader.email, mails + 1).await;
    assert!(decoded(&mail).contains("Scheduled words."));
}

#[actix_web::test]
async fn a_subscribers_only_post_emails_subscribers_the_full_text_and_followers_the_teaser() {
    const SECRET: &str = "quokkazanzibar";
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let paying = app.signup().await;
    let follower = app.signup().await;
    for u in [&paying, &follower] {
        verify(&app, u).await;
        app.follow_directly(u, &author).await;
    }
    let plan = app.create_plan(&author, 1000).await;
    app.subscribed(&paying, plan["_id"].as_str().unwrap()).await;
    let before = (
        app.mail_count(&paying.email),
        app.mail_count(&follower.email),
    );
    let post = create_post(
        &app,
        &author.token,
        json!({
            "title": "Members digest",
            "audience": "subscribers",
            "blocks": [
                paragraph("p1", &"A long opening paragraph that every reader may see as the teaser. ".repeat(5)),
                paragraph("p2", &format!("The part for subscribers: {SECRET}.")),
            ],
        }),
    )
    .await;
    let figures = delivered(&app, &author, post["_id"].as_str().unwrap()).await;
    assert_eq!(figures["notices"], 2);
    assert_eq!(figures["emailsSent"], 2);
    let full = decoded(&app.wait_for_mail(&paying.email, before.0).await);
    let teaser = decoded(&app.wait_for_mail(&follower.email, before.1).await);
    assert!(full.contains(SECRET), "the subscriber reads it all");
    assert!(!teaser.contains(SECRET), "the follower gets the teaser");
    assert!(teaser.contains("A long opening paragraph"));
    assert!(teaser.contains(&format!("/plans/{}", author.id)));
    assert_eq!(new_post_notices(&app, &follower).await.len(), 1);
}

#[actix_web::test]
async fn anyone_may_subscribe_by_email_after_confirming_and_unsubscribe_in_one_click() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let email = unique_email();
    let subscribe = |address: String| {
        let app = &app;
        let path = format!("/api/newsletter/{}/subscribe", author.id);
        async move {
            app.post_json(&path, &json!({ "email": address }), None)
                .await
        }
    };
    let res = subscribe(email.clone()).await;
    assert_eq!(res.status(), StatusCode::OK);
    let answer = json_of(res).await;
    let confirmation = app.wait_for_mail(&email, 0).await;
    let text = decoded(&confirmation);
    let start = text.find("http").unwrap();
    let link: String = text[start..]
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap()
        .to_string();
    assert!(link.contains("confirm"), "{link}");

    // Nothing but the confirmation goes to an address before it is confirmed.
    let first = create_post(&app, &author.token, post_body("Before", "Not for you yet.")).await;
    delivered(&app, &author, first["_id"].as_str().unwrap()).await;
    assert_eq!(app.mail_count(&email), 1);

    let local = link.replacen(&app.settings.server.public_url, &app.address, 1);
    let res = app.client.post(&local).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    // A link works once.
    let res = app.client.get(&local).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);

    // Asking again answers the same and sends nothing (no disclosure, no mail to a subscriber).
    let again = subscribe(email.to_uppercase()).await;
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(json_of(again).await, answer);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.mail_count(&email), 1);

    let second = create_post(
        &app,
        &author.token,
        post_body("After", "Now it is for you."),
    )
    .await;
    let figures = delivered(&app, &author, second["_id"].as_str().unwrap()).await;
    assert_eq!(figures["emailsSent"], 1);
    let mail = app.wait_for_mail(&email, 1).await;
    assert!(decoded(&mail).contains("Now it is for you."));
    assert_eq!(
        header(&mail, "List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let unsubscribe = header(&mail, "List-Unsubscribe").unwrap();
    let url = unsubscribe.trim_matches(|c| c == '<' || c == '>').replacen(
        &app.settings.server.public_url,
        &app.address,
        1,
    );
    let res = app
        .client
        .post(&url)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let third = create_post(&app, &author.token, post_body("Gone", "You left.")).await;
    delivered(&app, &author, third["_id"].as_str().unwrap()).await;
    assert_eq!(app.mail_count(&email), 2);

    // An expired link is refused.
    let late = unique_email();
    assert_eq!(subscribe(late.clone()).await.status(), StatusCode::OK);
    let text = decoded(&app.wait_for_mail(&late, 0).await);
    let start = text.find("http").unwrap();
    let link = text[start..]
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap()
        .replacen(&app.settings.server.public_url, &app.address, 1);
    pressroom::persistence::post_mail::set_token_expiry(
        &app.db,
        ObjectId::parse_str(&author.id).unwrap(),
        &late,
        mongodb::bson::DateTime::from_millis(0),
    )
    .await
    .unwrap();
    let res = app.client.post(&link).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);

    // Bad input, and the limits per address.
    let res = app
        .post_json(
            &format!("/api/newsletter/{}/subscribe", author.id),
            &json!({ "email": "not an address" }),
            None,
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .post_json(
            &format!("/api/newsletter/{}/subscribe", ObjectId::new().to_hex()),
            &json!({ "email": unique_email() }),
            None,
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    let busy = unique_email();
    let mut refused = false;
    for _ in 0..5 {
        if subscribe(busy.clone()).await.status() == StatusCode::TOO_MANY_REQUESTS {
            refused = true;
        }
    }
    assert!(refused, "asking again and again for one address is limited");
}

#[actix_web::test]
async fn an_address_that_bounces_hard_is_suppressed_and_shown_to_administrators() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let bouncing = app
        .signup_as(&format!("refuse-once-5xx-{}", unique_email()))
        .await;
    verify(&app, &bouncing).await;
    app.follow_directly(&bouncing, &author).await;
    let first = create_post(&app, &author.token, post_body("One", "First.")).await;
    let figures = delivered(&app, &author, first["_id"].as_str().unwrap()).await;
    assert_eq!(figures["emailsFailed"], 1, "{figures}");
    assert_eq!(figures["emailsSent"], 0);
    let list = json_of(
        app.get("/api/admin/email-suppressions", Some(&admin.token))
            .await,
    )
    .await;
    let entry = list["list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["email"] == bouncing.email.to_lowercase())
        .cloned()
        .expect("the address is listed");
    assert_eq!(entry["reason"], "hard_bounce");
    // The sink would take the next one: it is never tried.
    let second = create_post(&app, &author.token, post_body("Two", "Second.")).await;
    let figures = delivered(&app, &author, second["_id"].as_str().unwrap()).await;
    assert_eq!(figures["emailsSent"], 0);
    assert_eq!(figures["emailsFailed"], 0);
    assert_eq!(figures["notices"], 1);
    assert_eq!(app.mail_count(&bouncing.email), 0);
    let res = app
        .get("/api/admin/email-suppressions", Some(&author.token))
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
}

#[actix_web::test]
async fn two_nodes_and_a_run_taken_over_from_the_start_send_each_follower_one_email() {
    let a = spawn_app().await;
    let shared = a.db_name.clone();
    let b = spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s: &mut pressroom::config::Settings| {
            s.database.name = shared;
        })),
        ..AppOptions::default()
    })
    .await;
    let author = a.signup().await;
    let mut readers = Vec::new();
    for _ in 0..12 {
        let r = a.signup().await;
        verify(&a, &r).await;
        a.follow_directly(&r, &author).await;
        readers.push(r);
    }
    let post = create_post(&a, &author.token, post_body("Twice told", "Once only.")).await;
    let id = post["_id"].as_str().unwrap().to_string();
    // Both nodes' workers look for it; node B is also asked by hand at once. (On FerretDB two
    // workers may both take the lease; a run that finds its lease taken over stops with an error
    // after its batch, and the figures catch up when it records that batch.)
    let _ = pressroom::services::jobs::announce::run_once(&b.state).await;
    delivered(&a, &author, &id).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while delivery(&a, &author, &id).await["emailsSent"] != 12 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let figures = delivery(&a, &author, &id).await;
    assert_eq!(figures["emailsSent"], 12, "{figures}");
    assert_eq!(figures["notices"], 12, "{figures}");

    // A node that took the announcement over as if the first had died before recording any
    // progress goes through every follower again: the claims let nothing out twice.
    a.db.database()
        .collection::<mongodb::bson::Document>("post_announcements")
        .update_one(
            mongodb::bson::doc! { "_id": ObjectId::parse_str(&id).unwrap() },
            mongodb::bson::doc! { "$set": {
                "phase": "followers", "cursor": null, "leaseOwner": null, "leaseUntil": null,
            } },
        )
        .await
        .unwrap();
    let _ = pressroom::services::jobs::announce::run_once(&b.state).await;
    let figures = delivered(&b, &author, &id).await;
    assert_eq!(
        figures["emailsSent"], 12,
        "nothing more went out: {figures}"
    );
    assert_eq!(figures["notices"], 12);
    tokio::time::sleep(Duration::from_millis(500)).await;
    for r in &readers {
        assert_eq!(a.mail_count(&r.email), 1, "{}", r.email);
        assert_eq!(new_post_notices(&a, r).await.len(), 1, "{}", r.email);
    }
}

#[actix_web::test]
async fn emails_a_stopped_worker_left_in_flight_are_recorded_as_failed_and_can_be_retried() {
    use mongodb::bson::{doc, DateTime, Document};
    let app = spawn_app().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let mut early = Vec::new();
    for _ in 0..2 {
        let r = app.signup().await;
        verify(&app, &r).await;
        app.follow_directly(&r, &author).await;
        early.push(r);
    }
    let post = create_post(&app, &author.token, post_body("Cut short", "Sent once.")).await;
    let id = post["_id"].as_str().unwrap().to_string();
    let post_id = ObjectId::parse_str(&id).unwrap();
    let figures = delivered(&app, &author, &id).await;
    assert_eq!(figures["emailsSent"], 2, "{figures}");

    // A worker that died mid-chunk: its chunk in flight on the announcement, two of its emails
    // claimed (a minute ago) and never logged, one follower not reached, its lease expired and
    // its progress not recorded.
    let mut lost = Vec::new();
    for _ in 0..2 {
        let r = app.signup().await;
        verify(&app, &r).await;
        app.follow_directly(&r, &author).await;
        lost.push(r);
    }
    let later = app.signup().await;
    verify(&app, &later).await;
    app.follow_directly(&later, &author).await;
    // And one it sent and logged (under its claim's id) before it could end the chunk.
    let logged = app.signup().await;
    verify(&app, &logged).await;
    app.follow_directly(&logged, &author).await;
    let db = app.db.database();
    let logged_claim = ObjectId::new();
    db.collection::<Document>("post_deliveries")
        .insert_one(doc! {
            "_id": logged_claim,
            "postId": post_id,
            "channel": "email",
            "to": logged.email.to_lowercase(),
            "createdAt": DateTime::from_millis(DateTime::now().timestamp_millis() - 60_000),
            "owner": "a-worker-that-died",
            "recipient": "follower",
            "recipientId": ObjectId::parse_str(&logged.id).unwrap(),
            "full": false,
            "userId": ObjectId::parse_str(&logged.id).unwrap(),
        })
        .await
        .unwrap();
    db.collection::<Document>("email_logs")
        .insert_one(doc! {
            "_id": logged_claim,
            "email": logged.email.to_lowercase(),
            "type": "new_post",
            "subject": "Cut short",
            "success": true,
            "error": null,
            "attempts": 1,
            "stopEmailAttempts": false,
            "createdAt": DateTime::now(),
        })
        .await
        .unwrap();
    let claimed_at = DateTime::from_millis(DateTime::now().timestamp_millis() - 60_000);
    let mut in_flight = vec![logged_claim];
    for r in &lost {
        let claim = ObjectId::new();
        in_flight.push(claim);
        db.collection::<Document>("post_deliveries")
            .insert_one(doc! {
                "_id": claim,
                "postId": post_id,
                "channel": "email",
                "to": r.email.to_lowercase(),
                "createdAt": claimed_at,
                "owner": "a-worker-that-died",
                "recipient": "follower",
                "recipientId": ObjectId::parse_str(&r.id).unwrap(),
                "full": false,
                "userId": ObjectId::parse_str(&r.id).unwrap(),
            })
            .await
            .unwrap();
    }
    // An id the worker put in flight but never claimed (it stopped first): it counts for nothing.
    in_flight.push(ObjectId::new());
    db.collection::<Document>("post_announcements")
        .update_one(
            doc! { "_id": post_id },
            doc! { "$set": {
                "phase": "followers", "cursor": null, "finishedAt": null,
                "leaseOwner": "a-worker-that-died",
                "leaseUntil": DateTime::from_millis(DateTime::now().timestamp_millis() - 1_000),
                "inFlight": &in_flight,
            } },
        )
        .await
        .unwrap();
    let _ = pressroom::services::jobs::announce::run_once(&app.state).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut figures = delivered(&app, &author, &id).await;
    while (figures["emailsSent"] != 4 || figures["emailsFailed"] != 2) && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
        figures = delivery(&app, &author, &id).await;
    }
    assert_eq!(
        figures["emailsSent"], 4,
        "the unclaimed follower and the logged one: {figures}"
    );
    assert_eq!(
        figures["emailsFailed"], 2,
        "the interrupted ones: {figures}"
    );
    let announcement = db
        .collection::<Document>("post_announcements")
        .find_one(doc! { "_id": post_id })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        announcement
            .get_array("inFlight")
            .map(Vec::len)
            .unwrap_or(0),
        0,
        "the chunk is out of flight: {announcement}"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.mail_count(&later.email), 1);
    assert_eq!(app.mail_count(&logged.email), 0, "not sent again");
    for r in &early {
        assert_eq!(app.mail_count(&r.email), 1, "nothing twice: {}", r.email);
    }
    for r in &lost {
        assert_eq!(app.mail_count(&r.email), 0, "never resent by the worker");
        let logs = json_of(
            app.get(
                &format!("/api/admin/email-status?email={}&type=new_post", r.email),
                Some(&admin.token),
            )
            .await,
        )
        .await;
        let list = logs["logs"].as_array().expect("logs");
        assert_eq!(list.len(), 1, "one entry: {logs}");
        let entry = &list[0];
        assert_eq!(entry["success"], false);
        assert_eq!(entry["canRetry"], true, "{entry}");
        assert_eq!(
            entry["error"],
            pressroom::services::jobs::announce::INTERRUPTED,
            "{entry}"
        );
        assert!(entry["subject"].as_str().unwrap().contains("Cut short"));
    }

    // A second takeover records nothing more.
    db.collection::<Document>("post_announcements")
        .update_one(
            doc! { "_id": post_id },
            doc! { "$set": {
                "phase": "followers", "cursor": null,
                "leaseOwner": "another", "leaseUntil": DateTime::from_millis(0),
            } },
        )
        .await
        .unwrap();
    let _ = pressroom::services::jobs::announce::run_once(&app.state).await;
    let figures = delivered(&app, &author, &id).await;
    assert_eq!(figures["emailsFailed"], 2, "{figures}");
    assert_eq!(figures["emailsSent"], 4, "{figures}");

    // The administrators' retry sends them, text and HTML, once.
    let answer = retry_failed_emails(&app, &admin, "new_post").await;
    assert_eq!(answer["message"], "2 sent, 0 still failing", "{answer}");
    for r in &lost {
        let mail = decoded(&app.wait_for_mail(&r.email, 0).await);
        assert!(mail.contains("Cut short"), "{mail}");
        assert!(mail.contains("Sent once."), "{mail}");
        assert!(mail.to_ascii_lowercase().contains("text/html"), "{mail}");
        assert!(mail.to_ascii_lowercase().contains("text/plain"), "{mail}");
        assert!(header(&mail, "List-Unsubscribe").is_some(), "{mail}");
    }
    let answer = retry_failed_emails(&app, &admin, "new_post").await;
    assert_eq!(answer["message"], "0 sent, 0 still failing", "{answer}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    for r in &lost {
        assert_eq!(app.mail_count(&r.email), 1, "{}", r.email);
    }
    assert_eq!(app.mail_count(&logged.email), 0);
}

/// Of workers racing for one announcement (fresh, or its lease expired), exactly one takes it,
/// on FerretDB too, where a `findAndModify` is a read and then a write. Run on a database of the
/// test's own, where no server's worker looks for announcements.
#[actix_web::test]
async fn of_workers_racing_for_an_announcement_exactly_one_takes_it() {
    use futures_util::future::join_all;
    use mongodb::bson::{doc, DateTime};
    use pressroom::persistence::{post_mail, Db};
    let app = spawn_app().await;
    let mut settings = app.settings.database.clone();
    settings.name = format!("{}_take", app.db_name);
    let db = Db::connect(&settings).await.unwrap();
    let post = ObjectId::new();
    assert!(post_mail::announce(&db, post, ObjectId::new(), true)
        .await
        .unwrap());
    for round in 0..4 {
        let taken: Vec<String> = join_all((0..8).map(|i| {
            let db = db.clone();
            async move {
                let owner = format!("worker-{round}-{i}");
                post_mail::take(&db, &owner, 60_000)
                    .await
                    .unwrap()
                    .map(|_| owner)
            }
        }))
        .await
        .into_iter()
        .flatten()
        .collect();
        assert_eq!(taken.len(), 1, "round {round}: {taken:?}");
        let a = post_mail::find(&db, post).await.unwrap().unwrap();
        assert_eq!(
            a.lease_owner.as_deref(),
            Some(taken[0].as_str()),
            "round {round}"
        );
        assert!(
            post_mail::take(&db, "late", 60_000)
                .await
                .unwrap()
                .is_none(),
            "held"
        );
        // Its holder goes silent: the lease expires and is taken over again.
        db.database()
            .collection::<mongodb::bson::Document>(post_mail::ANNOUNCEMENTS)
            .update_one(
                doc! { "_id": post },
                doc! { "$set": { "leaseUntil": DateTime::from_millis(DateTime::now().timestamp_millis() - 1_000) } },
            )
            .await
            .unwrap();
    }
    db.database().drop().await.unwrap();
}
