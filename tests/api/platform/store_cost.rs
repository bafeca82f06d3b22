//! The store's cost of each everyday request does not grow with the store. On a store grown with
//! thousands of documents that belong to nobody in the test, every command an everyday request
//! (likes, comments, follows, signing in, notifications, publishing, votes, subscriber-only
//! posts) sends is priced on the embedded store (`support::store_cost`): FerretDB must read a
//! bounded number of documents for it, found through an index, never by reading a whole table.
//! Speed itself is measured by `scripts/bench writes`, not here.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::comments::comment;
use crate::support::content::{create_post, paragraph, post_body};
use crate::support::engagement::{id_of, poll_post};
use crate::support::store_cost::ReadCost;
use crate::support::*;

/// Documents in each collection that grows with the site's activity once the store is grown.
const GROWN: u64 = 2_500;

/// The most documents one read of an everyday request may make FerretDB decode: the records of
/// the people and posts in the request, never those of the rest of the site.
const READ_AT_MOST: u64 = 40;

/// Collections whose size does not grow with activity: set by operators or by the server itself.
const FIXED: &[&str] = &[
    "migrations",
    "subscription_criteria",
    "admin_settings",
    "index_state",
    "categories",
];

/// Checks the reads of the request just made, adding what is wrong to `failures`.
async fn priced(app: &TestApp, request: &str, res: reqwest::Response, failures: &mut Vec<String>) {
    let status = res.status();
    let body = res.text().await.unwrap_or_default();
    assert!(status.is_success(), "{request}: {status} {body}");
    judge(app, request, failures).await;
}

/// Adds to `failures` each read of the request just made that is not bounded: served from a
/// whole table, or reading more than `READ_AT_MOST` documents.
async fn judge(app: &TestApp, request: &str, failures: &mut Vec<String>) {
    let costs: Vec<ReadCost> = app.read_costs().await;
    assert!(
        !costs.is_empty() || request == "auth/check",
        "{request} read nothing from the store"
    );
    for cost in costs {
        if WINDOWED.contains(&cost.read.collection.as_str()) {
            continue;
        }
        if cost.scans || cost.examined > READ_AT_MOST {
            failures.push(format!("{request}: {cost}"));
        }
    }
}

fn members_post() -> Value {
    json!({
        "title": "Members digest",
        "audience": "subscribers",
        "blocks": [paragraph("p1", "For the people who pay for this."), paragraph("p2", "And more.")],
    })
}

#[actix_web::test]
async fn every_everyday_request_reads_a_bounded_number_of_documents_through_indexes() {
    let app = spawn_app_with(AppOptions {
        record_commands: true,
        // The billing sweep (its own test's business) runs at start only.
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.payments.job_interval_seconds = 86_400;
        })),
        ..AppOptions::default()
    })
    .await;
    app.money_ready().await;

    // A site with something of every kind: writers, readers, posts with a poll and for
    // subscribers, comments, likes, follows, notifications, a subscription.
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let other = app.signup().await;
    let plan = app.create_plan(&author, 1000).await;
    app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let members = create_post(&app, &author.token, members_post()).await;
    let post = poll_post(&app, &author, false, Value::Null).await;
    let post_id = id_of(&post);
    let slug = post["slug"].as_str().unwrap().to_string();
    let seed_comment = comment(&app, &other, &post_id, "First!", None).await;
    for user in [&reader, &other] {
        app.post_empty(&format!("/api/post/like/{post_id}"), Some(&user.token))
            .await;
        app.post_empty(&format!("/api/follow/{}", author.id), Some(&user.token))
            .await;
        app.post_empty(&format!("/api/post/bookmark/{post_id}"), Some(&user.token))
            .await;
    }
    app.post_json(
        &format!("/api/comment/reaction/{}", id_of(&seed_comment)),
        &json!({ "reactionType": "like" }),
        Some(&reader.token),
    )
    .await;
    app.post_empty(&format!("/api/post/view/{slug}"), Some(&other.token))
        .await;
    app.post_empty(&format!("/api/post/{post_id}/share"), Some(&other.token))
        .await;
    app.post_json(
        &format!("/api/post/time-spent/{post_id}"),
        &json!({ "duration": 30 }),
        Some(&other.token),
    )
    .await;
    app.post_json(
        "/api/admin/reports",
        &json!({ "postId": post_id, "reason": "Spam", "details": "Selling things." }),
        Some(&other.token),
    )
    .await;

    app.grow_store(GROWN, FIXED).await;
    app.recorder().take();
    let mut failures = Vec::new();

    // Signing in, and a session's first requests.
    let res = app.login(&reader.email, PASSWORD).await;
    let token = {
        let text = res.text().await.unwrap();
        let body: Value = serde_json::from_str(&text).unwrap();
        app.read_costs().await;
        body["token"].as_str().unwrap().to_string()
    };
    let res = app.login(&reader.email, PASSWORD).await;
    priced(&app, "login", res, &mut failures).await;
    let res = app.get("/api/user/get-user", Some(&token)).await;
    priced(&app, "a session's first request", res, &mut failures).await;
    let res = app.get("/api/auth/check", Some(&token)).await;
    priced(&app, "auth/check", res, &mut failures).await;

    // Marks on a post.
    for (name, path) in [
        ("like", format!("/api/post/like/{post_id}")),
        ("unlike", format!("/api/post/like/{post_id}")),
        ("bookmark", format!("/api/post/bookmark/{post_id}")),
        ("view", format!("/api/post/view/{slug}")),
        ("share", format!("/api/post/{post_id}/share")),
    ] {
        let res = app.post_empty(&path, Some(&token)).await;
        priced(&app, name, res, &mut failures).await;
    }
    let res = app
        .post_json(
            "/api/post/vote",
            &json!({ "postId": post_id, "blockId": "v1", "optionIndex": 1 }),
            Some(&token),
        )
        .await;
    priced(&app, "vote", res, &mut failures).await;

    // Comments.
    let res = app
        .post_json(
            &format!("/api/comment/add-comment/{post_id}"),
            &json!({ "content": "Well said" }),
            Some(&token),
        )
        .await;
    let text = res.text().await.unwrap();
    let added: Value = serde_json::from_str(&text).unwrap();
    judge(&app, "comment", &mut failures).await;
    let comment_id = id_of(&added["comment"]);
    let res = app
        .put_json(
            &format!("/api/comment/edit/{comment_id}"),
            &json!({ "content": "Well said, indeed" }),
            Some(&token),
        )
        .await;
    priced(&app, "edit a comment", res, &mut failures).await;
    let res = app
        .post_json(
            &format!("/api/comment/reaction/{}", id_of(&seed_comment)),
            &json!({ "reactionType": "love" }),
            Some(&token),
        )
        .await;
    priced(&app, "react to a comment", res, &mut failures).await;
    let res = app
        .delete(&format!("/api/comment/delete/{comment_id}"), Some(&token))
        .await;
    priced(&app, "delete a comment", res, &mut failures).await;

    // Follows.
    let res = app
        .post_empty(&format!("/api/follow/unfollow/{}", author.id), Some(&token))
        .await;
    priced(&app, "unfollow", res, &mut failures).await;
    let res = app
        .post_empty(&format!("/api/follow/{}", author.id), Some(&token))
        .await;
    priced(&app, "follow", res, &mut failures).await;

    // The author's notifications.
    let res = app
        .get("/api/notification/unread-count", Some(&author.token))
        .await;
    priced(&app, "unread count", res, &mut failures).await;
    let res = app
        .get("/api/notification/notifications", Some(&author.token))
        .await;
    let text = res.text().await.unwrap();
    let list: Value = serde_json::from_str(&text).unwrap();
    judge(&app, "notification list", &mut failures).await;
    let notice = list["notifications"][0]["_id"]
        .as_str()
        .expect("the author was told of something")
        .to_string();
    let res = app
        .patch_empty(
            &format!("/api/notification/mark-as-read/{notice}"),
            Some(&author.token),
        )
        .await;
    priced(&app, "mark one read", res, &mut failures).await;
    let res = app
        .patch_empty("/api/notification/mark-all-as-read", Some(&author.token))
        .await;
    priced(&app, "mark all read", res, &mut failures).await;

    // A subscriber reads a subscriber-only post.
    let res = app
        .get(
            &format!("/api/post/{}", members["slug"].as_str().unwrap()),
            Some(&token),
        )
        .await;
    priced(&app, "a subscriber-only post", res, &mut failures).await;

    // Publishing, editing and deleting a post.
    let res = app
        .post_json(
            "/api/post/post-create",
            &post_body("Fresh thoughts", "Something new to say."),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let created: Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    judge(&app, "publish", &mut failures).await;
    let fresh_slug = created["post"]["slug"].as_str().unwrap().to_string();
    let fresh_id = id_of(&created["post"]);
    let res = app
        .patch_json(
            &format!("/api/post/update/{fresh_slug}"),
            &post_body("Fresh thoughts, revised", "Something newer to say."),
            Some(&author.token),
        )
        .await;
    priced(&app, "edit a post", res, &mut failures).await;

    // Its revisions: listed and compared.
    let res = app
        .get(
            &format!("/api/post/{fresh_id}/revisions"),
            Some(&author.token),
        )
        .await;
    let text = res.text().await.unwrap();
    let revisions: Value = serde_json::from_str(&text).unwrap();
    judge(&app, "list revisions", &mut failures).await;
    let oldest = revisions["revisions"][1]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .get(
            &format!("/api/post/{fresh_id}/revisions/compare?from={oldest}&to=current"),
            Some(&author.token),
        )
        .await;
    priced(&app, "compare revisions", res, &mut failures).await;

    // A series: made, given the post, read by a reader, and the part read with its place.
    let res = app
        .post_json(
            "/api/series",
            &json!({ "title": "Fresh series" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let series: Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    judge(&app, "create a series", &mut failures).await;
    let series_id = id_of(&series["series"]);
    let res = app
        .post_json(
            &format!("/api/series/{series_id}/posts"),
            &json!({ "postId": fresh_id }),
            Some(&author.token),
        )
        .await;
    priced(&app, "add a part to a series", res, &mut failures).await;
    let res = app
        .get(&format!("/api/series/{series_id}"), Some(&token))
        .await;
    priced(&app, "read a series", res, &mut failures).await;
    let res = app
        .get(&format!("/api/post/{fresh_slug}"), Some(&token))
        .await;
    priced(&app, "a part of a series", res, &mut failures).await;

    let res = app
        .delete(&format!("/api/post/delete/{fresh_id}"), Some(&author.token))
        .await;
    priced(&app, "delete a post", res, &mut failures).await;

    assert!(
        failures.is_empty(),
        "reads that grow with the store ({} documents a collection):\n{}",
        GROWN,
        failures.join("\n")
    );
}

/// Collections whose size is bounded by a time window rather than by the site's size: pending
/// account deletions (the grace period), data exports (kept for days), email claims of posts
/// being announced. Their background polls may read them whole.
const WINDOWED: &[&str] = &["account_deletions", "data_exports"];

/// Checks the reads of a background job just run: each collection read in full at most once
/// (reads of a batch of the documents it goes through, by id, are not passes).
async fn one_pass_each(app: &TestApp, job: &str, failures: &mut Vec<String>) {
    let mut full: std::collections::BTreeMap<String, Vec<ReadCost>> = Default::default();
    let mut counted = std::collections::HashSet::new();
    for cost in app.read_costs().await {
        if WINDOWED.contains(&cost.read.collection.as_str()) {
            continue;
        }
        if cost.is_pass() && counted.insert(cost.shape.clone()) {
            let reads = full.entry(cost.read.collection.clone()).or_default();
            // Every read of the shape is a pass like this one.
            for _ in 0..cost.times {
                reads.push(cost.clone());
            }
        }
    }
    for (collection, reads) in full {
        if reads.len() > 1 {
            failures.push(format!(
                "{job}: {} passes over {collection}, e.g.\n  {}\n  {}",
                reads.len(),
                reads[0],
                reads[1]
            ));
        }
    }
}

#[actix_web::test]
async fn every_background_job_reads_each_collection_in_full_at_most_once() {
    let app = spawn_app_with(AppOptions {
        record_commands: true,
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.accounts.deletion_grace_seconds = 1;
            // The billing sweep runs at start only: each job here is measured alone.
            s.payments.job_interval_seconds = 86_400;
        })),
        ..AppOptions::default()
    })
    .await;
    app.money_ready().await;

    // Writers and readers with follows, yesterday's posts, a subscription that renews soon.
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let leaving = app.signup().await;
    let plan = app.create_plan(&author, 1000).await;
    let subscription = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    for user in [&reader, &leaving] {
        app.post_empty(&format!("/api/follow/{}", author.id), Some(&user.token))
            .await;
    }
    let mut posts = Vec::new();
    for n in 0..3 {
        let post = create_post(
            &app,
            &author.token,
            post_body(&format!("Yesterday's news {n}"), "What happened."),
        )
        .await;
        app.post_empty(
            &format!("/api/post/like/{}", id_of(&post)),
            Some(&leaving.token),
        )
        .await;
        comment(&app, &leaving, &id_of(&post), "Noted.", None).await;
        posts.push(id_of(&post));
    }
    let today = chrono::Utc::now().date_naive();
    let yesterday = mongodb::bson::DateTime::from_millis(
        (today - chrono::Duration::days(1))
            .and_hms_opt(12, 0, 0)
            .unwrap()
            .and_utc()
            .timestamp_millis(),
    );
    let oids: Vec<mongodb::bson::oid::ObjectId> = posts
        .iter()
        .map(|p| crate::support::engagement::oid(p))
        .collect();
    app.db
        .database()
        .collection::<mongodb::bson::Document>("posts")
        .update_many(
            mongodb::bson::doc! { "_id": { "$in": &oids } },
            mongodb::bson::doc! { "$set": { "createdAt": yesterday, "publishedAt": yesterday } },
        )
        .await
        .unwrap();
    // Everyone gets the daily email: the grown store's people too.
    app.db
        .database()
        .collection::<mongodb::bson::Document>("users")
        .update_many(
            mongodb::bson::doc! {},
            mongodb::bson::doc! { "$set": { "isAccountVerified": true } },
        )
        .await
        .unwrap();

    let mut fixed = FIXED.to_vec();
    fixed.extend_from_slice(WINDOWED);
    app.grow_store(GROWN, &fixed).await;
    app.recorder().take();
    let mut failures = Vec::new();

    // The daily post email.
    let summary = pressroom::services::jobs::daily_mail::DailyMailer {
        db: &app.state.db,
        mailer: &app.state.mailer,
        settings: &app.state.settings,
    }
    .run(today, true)
    .await
    .unwrap();
    assert!(summary.recipients > GROWN / 2, "{summary:?}");
    assert!(summary.sent >= 2, "{summary:?}");
    one_pass_each(&app, "daily mail", &mut failures).await;

    // Renewal reminders, a day before the subscription renews.
    let period_end = app
        .subscription_doc(&subscription)
        .await
        .get_datetime("currentPeriodEnd")
        .copied()
        .unwrap();
    let at = mongodb::bson::DateTime::from_millis(period_end.timestamp_millis() - 86_400_000);
    let reminders = pressroom::services::billing::renewals::send_reminders(&app.state, at)
        .await
        .unwrap();
    assert_eq!(reminders.sent, 1, "{reminders:?}");
    one_pass_each(&app, "renewal reminders", &mut failures).await;

    // Counters checked against their records.
    let verified = pressroom::persistence::counter_repair::verify(&app.state.db, false)
        .await
        .unwrap();
    assert!(verified.posts as u64 >= GROWN, "{}", verified.posts);
    one_pass_each(&app, "counters verify", &mut failures).await;

    // The read index rebuilt from the store, through the recorder.
    let mut settings = app.settings.clone();
    settings.database.uri = format!("mongodb://127.0.0.1:{}/", app.recorder().port).into();
    settings.redis.url = required_env("PRESSROOM_TEST_REDIS_URL").into();
    let line = pressroom::cli::run_index(&settings, pressroom::cli::IndexAction::Rebuild)
        .await
        .unwrap();
    assert!(line.starts_with("read index rebuilt"), "{line}");
    one_pass_each(&app, "index rebuild", &mut failures).await;

    // A reader's data export, built by the server's own worker.
    let res = app
        .post_json("/api/user/export", &json!({}), Some(&reader.token))
        .await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let list: Value = serde_json::from_str(
            &app.get("/api/user/export", Some(&reader.token))
                .await
                .text()
                .await
                .unwrap(),
        )
        .unwrap();
        if list["exports"][0]["state"] == "ready" {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the export was never built: {list}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    one_pass_each(&app, "data export", &mut failures).await;

    // An account deleted by its owner, carried out by the server's own worker.
    let res = app
        .post_json(
            "/api/user/delete-account",
            &json!({ "password": PASSWORD }),
            Some(&leaving.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while app
        .count_in(
            "users",
            mongodb::bson::doc! { "_id": crate::support::engagement::oid(&leaving.id) },
        )
        .await
        > 0
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the account was never removed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    one_pass_each(&app, "account deletion", &mut failures).await;

    assert!(
        failures.is_empty(),
        "background jobs reading a collection in full more than once ({GROWN} documents a collection):\n{}",
        failures.join("\n")
    );
}
