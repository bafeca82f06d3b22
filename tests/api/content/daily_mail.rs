//! The daily post email: who gets what, once per day even when two runs start together, the
//! one-click unsubscribe link, the report and the command line.

use mongodb::bson::oid::ObjectId;
use pressroom::mail::Mailer;
use pressroom::services::jobs::daily_mail::DailyMailer;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::content::*;
use crate::support::*;

async fn verify(app: &TestApp, user: &TestUser) {
    let id = ObjectId::parse_str(&user.id).unwrap();
    pressroom::persistence::users::mark_verified(&app.db, id)
        .await
        .unwrap();
}

fn unsubscribe_link(mail: &str) -> String {
    let text = decoded(mail);
    let start = text
        .find("/api/dailyMail/unsubscribe?token=")
        .expect("an unsubscribe link");
    text[start..]
        .split(|c: char| c.is_whitespace() || c == '>')
        .next()
        .unwrap()
        .to_string()
}

async fn run(
    app: &TestApp,
    date: chrono::NaiveDate,
    by_hand: bool,
) -> pressroom::services::jobs::daily_mail::RunSummary {
    let mailer = Mailer::new(&app.settings.mail, app.db.clone()).unwrap();
    let job = DailyMailer {
        db: &app.db,
        mailer: &mailer,
        settings: &app.settings,
    };
    job.run(date, by_hand).await.unwrap()
}

#[actix_web::test]
async fn each_reader_gets_the_new_posts_they_care_about_once_even_when_two_runs_start_together() {
    let app = spawn_app().await;
    app.wait_for_index("daily_mail_logs", "date_user_unique")
        .await;
    let admin = app.admin().await;
    let reader = app.signup().await;
    let quiet = app.signup().await;
    let unverified = app.signup().await;
    let opted_out = app.signup().await;
    for user in [&reader, &quiet, &opted_out, &admin] {
        verify(&app, user).await;
    }
    let followed = app.signup().await;
    let in_category = app.signup().await;
    let stranger = app.signup().await;
    let blocked = app.signup().await;
    for follower in [&reader, &unverified, &opted_out] {
        app.follow_directly(follower, &followed).await;
    }
    app.follow_directly(&reader, &blocked).await;
    // They take new posts in the digest rather than at once (the default).
    for (follower, author) in [
        (&reader, &followed),
        (&reader, &blocked),
        (&opted_out, &followed),
    ] {
        let res = app
            .put_json(
                &format!("/api/follow/alerts/{}", author.id),
                &json!({ "mode": "digest" }),
                Some(&follower.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    app.block_directly(&reader, &blocked).await;
    let res = app
        .post_json(
            "/api/category",
            &json!({ "name": "Gardening", "slug": "gardening" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let category = json_of(res).await["category"]["_id"].clone();
    let res = app
        .post_json(
            &format!("/api/category/users/{}/categories", reader.id),
            &json!({ "categoryIds": [category] }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .patch_json(
            "/api/user/update-user",
            &json!({ "dailyPostEmail": false }),
            Some(&opted_out.token),
        )
        .await;
    assert_eq!(json_of(res).await["data"]["dailyPostEmail"], false);

    publish(&app, &followed, "Followed author's news", "x").await;
    create_post(
        &app,
        &in_category.token,
        with(
            post_body("Roses in winter", "x"),
            json!({ "category": category }),
        ),
    )
    .await;
    publish(&app, &stranger, "Nobody asked", "x").await;
    publish(&app, &blocked, "Blocked author's post", "x").await;
    create_post(
        &app,
        &followed.token,
        with(
            post_body("Still a draft", "x"),
            json!({ "status": "draft" }),
        ),
    )
    .await;

    // The email of tomorrow lists today's posts. Two runs start at once: one sends, the other
    // finds it taken.
    let tomorrow = chrono::Utc::now().date_naive().succ_opt().unwrap();
    let (a, b) = futures_util::join!(run(&app, tomorrow, false), run(&app, tomorrow, false));
    let outcomes = [a.outcome.as_str(), b.outcome.as_str()];
    assert!(outcomes.contains(&"sent"), "{a:?} {b:?}");
    assert_eq!(a.sent + b.sent, 1, "{a:?} {b:?}");
    assert_eq!(app.mail_count(&reader.email), 1);
    for user in [&quiet, &unverified, &opted_out, &admin] {
        assert_eq!(app.mail_count(&user.email), 0, "{}", user.email);
    }
    // Started again, by the job or by hand, nobody gets it twice.
    assert_eq!(run(&app, tomorrow, false).await.outcome, "done");
    let again = run(&app, tomorrow, true).await;
    assert_eq!((again.sent, again.already_claimed), (0, 1));
    assert_eq!(app.mail_count(&reader.email), 1);

    let mail = decoded(&app.wait_for_mail(&reader.email, 0).await);
    assert!(
        mail.contains("Subject: 2 new posts for you on Pressroom"),
        "{mail}"
    );
    assert!(mail.contains("Followed author's news"), "{mail}");
    assert!(mail.contains("Roses in winter"), "{mail}");
    assert!(mail.contains("http://127.0.0.1:8080/post/"), "{mail}");
    for absent in ["Nobody asked", "Blocked author's post", "Still a draft"] {
        assert!(!mail.contains(absent), "{absent} in {mail}");
    }
    assert!(mail.contains("List-Unsubscribe: <http"), "{mail}");
    assert!(
        mail.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
        "{mail}"
    );

    // The report lists the day's recipient.
    let report = get_ok(
        &app,
        &format!("/api/dailyMail/daily-post-report?date={tomorrow}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(report["total"], 1);
    let log = &report["logs"][0];
    assert_eq!(log["userId"], reader.id);
    assert_eq!(log["status"], "sent");
    assert_eq!(log["postCount"], 2);
    let other_day = get_ok(
        &app,
        "/api/dailyMail/daily-post-report?date=2001-01-01",
        Some(&admin.token),
    )
    .await;
    assert_eq!(other_day["total"], 0);
    let msg = assert_error(
        app.get(
            "/api/dailyMail/daily-post-report?date=tomorrow",
            Some(&admin.token),
        )
        .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(msg.contains("date"), "{msg}");
    assert_error(
        app.get("/api/dailyMail/daily-post-report", Some(&reader.token))
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;

    // The link unsubscribes without signing in; a forged one does nothing.
    let link = unsubscribe_link(&mail);
    let res = app.get(&link, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.text().await.unwrap().contains("no longer receive"));
    let me = get_ok(&app, "/api/user/get-user", Some(&reader.token)).await;
    assert_eq!(me["data"]["dailyPostEmail"], false);
    let forged = format!(
        "/api/dailyMail/unsubscribe?token={}.{}",
        quiet.id,
        "ab".repeat(32)
    );
    for path in [
        forged.as_str(),
        "/api/dailyMail/unsubscribe",
        "/api/dailyMail/unsubscribe?token=x.y",
    ] {
        let res = app.get(path, None).await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{path}");
    }
    // Mail programs POST to it (RFC 8058); repeating it is harmless.
    let res = app.post_empty(&link, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let me = get_ok(&app, "/api/user/get-user", Some(&quiet.token)).await;
    assert_eq!(me["data"]["dailyPostEmail"], true);
}

#[actix_web::test]
async fn the_command_line_sends_a_day_by_hand_and_nothing_goes_out_when_nothing_is_new() {
    use pressroom::cli::{run_admin, Command, MailAction};
    let app = spawn_app().await;
    app.wait_for_index("daily_mail_logs", "date_user_unique")
        .await;
    let reader = app.signup().await;
    verify(&app, &reader).await;
    let author = app.signup().await;
    app.follow_directly(&reader, &author).await;
    // New posts in the digest only, not also at once.
    let res = app
        .put_json(
            &format!("/api/follow/alerts/{}", author.id),
            &json!({ "mode": "digest" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let mut settings = app.settings.clone();
    settings.database.uri = std::env::var("PRESSROOM_TEST_MONGODB_URI").unwrap().into();
    let daily = |date: &str| Command::Mail {
        action: MailAction::Daily {
            date: Some(date.to_string()),
        },
    };
    let tomorrow = chrono::Utc::now()
        .date_naive()
        .succ_opt()
        .unwrap()
        .to_string();

    // Nothing new yet: nothing is sent.
    let line = run_admin(&settings, daily(&tomorrow)).await.unwrap();
    assert!(line.contains("0 sent"), "{line}");
    assert_eq!(app.mail_count(&reader.email), 0);

    publish(&app, &author, "Fresh", "x").await;
    let line = run_admin(&settings, daily(&tomorrow)).await.unwrap();
    assert!(line.contains("1 sent"), "{line}");
    assert_eq!(app.mail_count(&reader.email), 1);
    let line = run_admin(&settings, daily(&tomorrow)).await.unwrap();
    assert!(line.contains("1 had it already"), "{line}");
    assert_eq!(app.mail_count(&reader.email), 1);

    let err = run_admin(&settings, daily("31/12/2024")).await.unwrap_err();
    assert!(err.to_string().contains("--date"), "{err}");
}

/// The lease and claim every job run and lock stands on (`persistence::leases`), against the
/// real database: of owners racing for one lease exactly one wins, also for an expired lease
/// taken over; only the holder renews or releases it; a claim is made once.
#[actix_web::test]
async fn a_lease_has_one_holder_until_it_expires_and_only_that_holder_renews_it() {
    use futures_util::future::join_all;
    use mongodb::bson::doc;
    use pressroom::persistence::leases;

    let app = spawn_app().await;
    let db = &app.db;
    const LEASES: &str = "test_leases";
    let race = |key: &'static str, ttl_ms: i64, round: usize| {
        join_all((0..8).map(move |i| {
            let db = db.clone();
            async move {
                let owner = format!("owner-{round}-{i}");
                let won = leases::take(&db, LEASES, key, &owner, ttl_ms)
                    .await
                    .unwrap();
                won.then_some(owner)
            }
        }))
    };

    for round in 0..5 {
        let key: &'static str = Box::leak(format!("fresh-{round}").into_boxed_str());
        let winners: Vec<String> = race(key, 60_000, round)
            .await
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: {winners:?}");
        let holder = &winners[0];
        assert!(
            !leases::take(db, LEASES, key, "late", 60_000).await.unwrap(),
            "held"
        );
        assert!(
            !leases::renew(db, LEASES, key, "late", 60_000, doc! {})
                .await
                .unwrap(),
            "a non-holder cannot renew"
        );
        assert!(!leases::release(db, LEASES, key, "late").await.unwrap());
        assert!(
            leases::renew(db, LEASES, key, holder, 60_000, doc! { "step": 2 })
                .await
                .unwrap()
        );
        assert!(
            !leases::take(db, LEASES, key, "late", 60_000).await.unwrap(),
            "still held"
        );
        assert!(leases::release(db, LEASES, key, holder).await.unwrap());
        assert!(
            leases::take(db, LEASES, key, "late", 60_000).await.unwrap(),
            "free again"
        );
    }

    // An expired lease is taken over by exactly one of those racing for it, and its old holder
    // learns that it lost it.
    for round in 0..5 {
        let key: &'static str = Box::leak(format!("expiring-{round}").into_boxed_str());
        assert!(leases::take(db, LEASES, key, "first", 1).await.unwrap());
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        let winners: Vec<String> = race(key, 60_000, round)
            .await
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: {winners:?}");
        assert!(!leases::renew(db, LEASES, key, "first", 60_000, doc! {})
            .await
            .unwrap());
        assert!(!leases::release(db, LEASES, key, "first").await.unwrap());
        let stored = db
            .database()
            .collection::<mongodb::bson::Document>(LEASES)
            .find_one(doc! { "_id": key })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stored.get_str("owner").unwrap(), winners[0]);
    }

    // The takeovers' own claims are gone once the leases moved on.
    let left = db
        .database()
        .collection::<mongodb::bson::Document>(leases::TAKEOVERS)
        .count_documents(doc! {})
        .await
        .unwrap();
    assert_eq!(left, 0, "takeover claims left behind");

    // A claim is made by one insert of the racing ones, and may be made again once dropped.
    let claims = join_all((0..8).map(|i| {
        let db = db.clone();
        async move {
            leases::claim(&db, LEASES, &doc! { "_id": "claimed", "by": i })
                .await
                .unwrap()
        }
    }))
    .await;
    assert_eq!(claims.iter().filter(|made| **made).count(), 1, "{claims:?}");
    leases::drop_claim(db, LEASES, "claimed").await.unwrap();
    assert!(leases::claim(db, LEASES, &doc! { "_id": "claimed" })
        .await
        .unwrap());
}

/// A queue's record taken by version (`leases::take_version`, how the administrators' task
/// worker takes a queued job): of workers racing for one version exactly one takes it, and once
/// taken, the version read before is taken by nobody.
#[actix_web::test]
async fn a_queued_record_is_taken_by_one_worker_of_many() {
    use futures_util::future::join_all;
    use mongodb::bson::{doc, oid::ObjectId, Document};
    use pressroom::persistence::leases;

    let app = spawn_app().await;
    let db = &app.db;
    const QUEUE: &str = "test_queue";
    for round in 0..5 {
        let id = ObjectId::new();
        app.collection(QUEUE)
            .insert_one(doc! { "_id": id, "status": "queued", "round": round })
            .await
            .unwrap();
        let takers = join_all((0..8).map(|i| {
            let db = db.clone();
            async move {
                let version = doc! { "_id": id, "status": "queued" };
                let set = doc! { "status": "running", "node": format!("node-{i}") };
                leases::take_version(&db, QUEUE, version, set)
                    .await
                    .unwrap()
                    .then_some(i)
            }
        }))
        .await;
        let winners: Vec<usize> = takers.into_iter().flatten().collect();
        assert_eq!(winners.len(), 1, "round {round}: {winners:?}");
        let stored: Document = app
            .collection(QUEUE)
            .find_one(doc! { "_id": id })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stored.get_str("status").unwrap(), "running");
        assert_eq!(
            stored.get_str("node").unwrap(),
            format!("node-{}", winners[0])
        );
        let late = leases::take_version(
            db,
            QUEUE,
            doc! { "_id": id, "status": "queued" },
            doc! { "status": "running", "node": "late" },
        )
        .await
        .unwrap();
        assert!(
            !late,
            "round {round}: a version already taken is taken again"
        );
    }
}
