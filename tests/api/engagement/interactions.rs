//! Likes, bookmarks, views, shares, reading time, polls and suggestions.

use futures_util::future::join_all;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Document};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::engagement::*;
use crate::support::*;

fn votes_of(poll: &Value) -> Vec<i64> {
    poll["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["votes"].as_i64().unwrap())
        .collect()
}

/// The stored vote counts of poll `v1`.
async fn stored_votes(app: &TestApp, post: &str) -> Vec<i64> {
    let p = stored_post(app, post).await;
    let blocks = p.get_array("blocks").unwrap();
    let poll = blocks
        .iter()
        .filter_map(|b| b.as_document())
        .find(|b| b.get_str("id") == Ok("v1"))
        .unwrap();
    poll.get_document("data")
        .unwrap()
        .get_array("options")
        .unwrap()
        .iter()
        .map(|o| int(o.as_document().unwrap(), "votes"))
        .collect()
}

#[actix_web::test]
async fn a_like_toggles_and_the_counts_follow() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = publish(&app, &author, "Likeable", "x").await;
    let id = id_of(&post);

    let body = post_ok(
        &app,
        &format!("/api/post/like/{id}"),
        &json!({}),
        Some(&reader.token),
    )
    .await;
    assert_eq!(body["liked"], true);
    assert_eq!(body["likesCount"], 1);
    let status = get_ok(
        &app,
        &format!("/api/post/bookmark-status/{id}"),
        Some(&reader.token),
    )
    .await;
    assert_eq!(
        (
            status["liked"].clone(),
            status["bookmarked"].clone(),
            status["likesCount"].clone(),
            status["bookmarksCount"].clone()
        ),
        (json!(true), json!(false), json!(1), json!(0))
    );
    let res = app
        .post_empty(&format!("/api/post/like/{id}"), Some(&reader.token))
        .await;
    let body = json_of(res).await;
    assert_eq!(body["liked"], false);
    assert_eq!(body["likesCount"], 0);
    assert_eq!(counter(&app, &id, "likesCount").await, 0);

    // The author may like their own post, and is not told about it.
    let body = post_ok(
        &app,
        &format!("/api/post/like/{id}"),
        &json!({}),
        Some(&author.token),
    )
    .await;
    assert_eq!(body["likesCount"], 1);
    assert_eq!(
        notifications_to(&app, &author.id, "like").await,
        1,
        "only the reader's like"
    );
}

#[actix_web::test]
async fn engagement_refuses_bad_requests_with_clear_messages() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let public = publish(&app, &author, "Public", "x").await;
    let private = create_post(
        &app,
        &author.token,
        with(
            post_body("Private", "x"),
            json!({ "visibility": "Private" }),
        ),
    )
    .await;
    let draft = create_post(
        &app,
        &author.token,
        with(post_body("Draft", "x"), json!({ "status": "draft" })),
    )
    .await;
    let missing = ObjectId::new().to_hex();
    let cases: Vec<(&str, String, Option<&str>, StatusCode)> = vec![
        (
            "like as a guest",
            format!("/api/post/like/{}", id_of(&public)),
            None,
            StatusCode::UNAUTHORIZED,
        ),
        (
            "like a bad id",
            "/api/post/like/not-an-id".into(),
            Some(&reader.token),
            StatusCode::BAD_REQUEST,
        ),
        (
            "like a missing post",
            format!("/api/post/like/{missing}"),
            Some(&reader.token),
            StatusCode::NOT_FOUND,
        ),
        (
            "like someone's private post",
            format!("/api/post/like/{}", id_of(&private)),
            Some(&reader.token),
            StatusCode::NOT_FOUND,
        ),
        (
            "like someone's draft",
            format!("/api/post/like/{}", id_of(&draft)),
            Some(&reader.token),
            StatusCode::NOT_FOUND,
        ),
        (
            "bookmark as a guest",
            format!("/api/post/bookmark/{}", id_of(&public)),
            None,
            StatusCode::UNAUTHORIZED,
        ),
        (
            "bookmark a bad id",
            "/api/post/bookmark/123".into(),
            Some(&reader.token),
            StatusCode::BAD_REQUEST,
        ),
        (
            "bookmark a missing post",
            format!("/api/post/bookmark/{missing}"),
            Some(&reader.token),
            StatusCode::NOT_FOUND,
        ),
        (
            "share a missing post",
            format!("/api/post/{missing}/share"),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            "share a bad id",
            "/api/post/zzz/share".into(),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            "view a missing slug",
            "/api/post/view/no-such-post".into(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            "view a private post",
            format!("/api/post/view/{}", private["slug"].as_str().unwrap()),
            Some(&reader.token),
            StatusCode::NOT_FOUND,
        ),
        (
            "time on a missing post",
            format!("/api/post/time-spent/{missing}"),
            None,
            StatusCode::NOT_FOUND,
        ),
    ];
    for (case, path, token, status) in cases {
        let body = if case.starts_with("time") {
            json!({ "duration": 5 })
        } else {
            json!({})
        };
        let res = app.post_json(&path, &body, token).await;
        assert_eq!(res.status(), status, "case '{case}'");
        let body = json_of(res).await;
        assert!(
            body["message"].is_string() && body["code"].is_string(),
            "case '{case}': {body}"
        );
    }
    let res = app
        .get(
            &format!("/api/post/bookmark-status/{}", id_of(&public)),
            None,
        )
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    let res = app.get("/api/post/get-post/bookmarks", None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}

#[actix_web::test]
async fn parallel_likes_by_many_users_count_exactly() {
    let app = spawn_app().await;
    app.wait_for_index("likes", "user_post_unique").await;
    let author = app.signup().await;
    let post = publish(&app, &author, "Popular", "x").await;
    let id = id_of(&post);
    let readers = app.signup_many(30).await;
    let path = format!("/api/post/like/{id}");
    let results = join_all(
        readers
            .iter()
            .map(|r| app.post_owned(path.clone(), json!({}), Some(r.token.clone()))),
    )
    .await;
    for res in results {
        assert_eq!(res.status(), StatusCode::OK);
    }
    assert_eq!(counter(&app, &id, "likesCount").await, 30);
    assert_eq!(
        count_docs(&app, "likes", doc! { "postId": oid(&id) }).await,
        30
    );
    assert_eq!(notifications_to(&app, &author.id, "like").await, 30);
}

#[actix_web::test]
async fn parallel_toggles_by_one_user_leave_records_and_counters_equal() {
    let app = spawn_app_bursting().await;
    app.wait_for_index("likes", "user_post_unique").await;
    app.wait_for_index("bookmarks", "user_post_unique").await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let other = app.signup().await;
    let post = publish(&app, &author, "Contested", "x").await;
    let id = id_of(&post);
    // Someone else's like stays through it all.
    post_ok(
        &app,
        &format!("/api/post/like/{id}"),
        &json!({}),
        Some(&other.token),
    )
    .await;
    for (kind, field) in [("like", "likesCount"), ("bookmark", "bookmarksCount")] {
        let path = format!("/api/post/{kind}/{id}");
        for round in 0..2 {
            let results = join_all(
                (0..41)
                    .map(|_| app.post_owned(path.clone(), json!({}), Some(reader.token.clone()))),
            )
            .await;
            for res in results {
                assert_eq!(res.status(), StatusCode::OK, "{kind} round {round}");
                let body = json_of(res).await;
                let count = body[field].as_i64().unwrap();
                assert!(count >= 0, "{kind}: a negative count {body}");
            }
            let collection = format!("{kind}s");
            let records = count_docs(&app, &collection, doc! { "postId": oid(&id) }).await as i64;
            let mine = count_docs(
                &app,
                &collection,
                doc! { "postId": oid(&id), "userId": oid(&reader.id) },
            )
            .await;
            assert!(
                mine <= 1,
                "{kind} round {round}: {mine} records by one user"
            );
            assert_eq!(
                counter(&app, &id, field).await,
                records,
                "{kind} round {round}"
            );
        }
    }
}

#[actix_web::test]
async fn bookmarks_toggle_and_list_newest_first() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let first = publish(&app, &author, "First", "x").await;
    let second = publish(&app, &author, "Second", "x").await;
    let third = publish(&app, &author, "Third", "x").await;
    for p in [&second, &first, &third] {
        let body = post_ok(
            &app,
            &format!("/api/post/bookmark/{}", id_of(p)),
            &json!({}),
            Some(&reader.token),
        )
        .await;
        assert_eq!(body["bookmarked"], true);
        assert_eq!(body["bookmarksCount"], 1);
    }
    let body = post_ok(
        &app,
        &format!("/api/post/bookmark/{}", id_of(&first)),
        &json!({}),
        Some(&reader.token),
    )
    .await;
    assert_eq!(body["bookmarked"], false);
    assert_eq!(body["bookmarksCount"], 0);
    let list = get_ok(&app, "/api/post/get-post/bookmarks", Some(&reader.token)).await;
    assert_eq!(
        ids_of(&list),
        [id_of(&third), id_of(&second)],
        "most recently bookmarked first"
    );
    // A post that turns private leaves the list.
    set_fields(&app, &id_of(&third), doc! { "visibility": "Private" }).await;
    let list = get_ok(&app, "/api/post/get-post/bookmarks", Some(&reader.token)).await;
    assert_eq!(ids_of(&list), [id_of(&second)]);
    assert_eq!(notifications_to(&app, &author.id, "bookmark").await, 3);
    // Deleting a post removes its bookmarks.
    let res = app
        .delete(
            &format!("/api/post/delete/{}", id_of(&second)),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        count_docs(&app, "bookmarks", doc! { "postId": oid(&id_of(&second)) }).await,
        0
    );
}

#[actix_web::test]
async fn a_view_counts_once_per_viewer_per_half_hour() {
    let app = spawn_app().await;
    app.wait_for_index("view_windows", "post_viewer_unique")
        .await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = publish(&app, &author, "Viewed", "x").await;
    let slug = post["slug"].as_str().unwrap().to_string();
    let path = format!("/api/post/view/{slug}");
    let guest_a = app.guest_id().await;
    let guest_b = app.guest_id().await;

    let body = post_ok(&app, &path, &json!({}), Some(&reader.token)).await;
    assert_eq!(body["views"], 1);
    let body = post_ok(&app, &path, &json!({}), Some(&reader.token)).await;
    assert_eq!(body["views"], 1, "the same reader within 30 minutes");
    let body = post_ok(&app, &path, &json!({}), Some(&author.token)).await;
    assert_eq!(body["views"], 1, "the author's own view is not counted");
    let body = post_ok(&app, &path, &json!({ "guestId": guest_a }), None).await;
    assert_eq!(body["views"], 2);
    let body = post_ok(&app, &path, &json!({ "guestId": guest_a }), None).await;
    assert_eq!(body["views"], 2);
    // The public route shares the window.
    let public = format!("/api/public/post/{slug}/view");
    let body = post_ok(&app, &public, &json!({ "guestId": guest_a }), None).await;
    assert_eq!(body["message"], "View tracked");
    assert_eq!(body["views"], 2);
    let res = app
        .client
        .post(app.url(&public))
        .header("x-guest-id", guest_b.as_str())
        .send()
        .await
        .unwrap();
    assert_eq!(json_of(res).await["views"], 3);
    // Without any id, the address is the viewer (and the answer issues a guest id).
    let res = app.post_empty(&path, None).await;
    let cookie = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        cookie.starts_with("pr_guest=") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    assert_eq!(json_of(res).await["views"], 4);
    assert_eq!(json_of(app.post_empty(&path, None).await).await["views"], 4);

    // Half an hour later the reader counts again.
    app.db
        .database()
        .collection::<Document>("view_windows")
        .update_many(
            doc! { "viewer": format!("user:{}", reader.id) },
            doc! { "$set": { "countedAt": mongodb::bson::DateTime::from_millis(
            mongodb::bson::DateTime::now().timestamp_millis() - 31 * 60 * 1000) } },
        )
        .await
        .unwrap();
    let body = post_ok(&app, &path, &json!({}), Some(&reader.token)).await;
    assert_eq!(body["views"], 5);
    assert_eq!(counter(&app, &id_of(&post), "views").await, 5);

    let res = app
        .post_json(&path, &json!({ "guestId": "bad id!" }), None)
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .post_json(&path, &json!({ "guestId": { "$ne": null } }), None)
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}

#[actix_web::test]
async fn parallel_views_by_one_viewer_count_once() {
    let app = spawn_app().await;
    app.wait_for_index("view_windows", "post_viewer_unique")
        .await;
    let author = app.signup().await;
    let post = publish(&app, &author, "Rushed", "x").await;
    let path = format!("/api/post/view/{}", post["slug"].as_str().unwrap());
    let guest = app.guest_id().await;
    let results =
        join_all((0..25).map(|_| app.post_owned(path.clone(), json!({ "guestId": guest }), None)))
            .await;
    for res in results {
        assert_eq!(res.status(), StatusCode::OK);
    }
    assert_eq!(counter(&app, &id_of(&post), "views").await, 1);
}

#[actix_web::test]
async fn shares_count_once_per_reader_per_day_for_guests_and_users() {
    let app = spawn_app().await;
    app.wait_for_index("share_windows", "post_viewer_unique")
        .await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = publish(&app, &author, "Shared", "x").await;
    let path = format!("/api/post/{}/share", id_of(&post));
    assert_eq!(
        post_ok(&app, &path, &json!({}), None).await["shareCount"],
        1
    );
    assert_eq!(
        post_ok(&app, &path, &json!({}), Some(&reader.token)).await["shareCount"],
        2
    );
    // Ten more by the same reader, and ten by the same address without a guest id: nothing.
    let results = join_all((0..10).map(|_| app.post_empty(&path, None))).await;
    assert!(results.iter().all(|r| r.status() == StatusCode::OK));
    for _ in 0..10 {
        let body = post_ok(&app, &path, &json!({}), Some(&reader.token)).await;
        assert_eq!(body["shareCount"], 2);
    }
    // The author's own share is not counted.
    assert_eq!(
        post_ok(&app, &path, &json!({}), Some(&author.token)).await["shareCount"],
        2
    );
    assert_eq!(counter(&app, &id_of(&post), "shareCount").await, 2);
    assert_eq!(
        count_docs(&app, "shares", doc! { "postId": oid(&id_of(&post)) }).await,
        2
    );
    // A day later the reader's share counts again.
    app.db
        .database()
        .collection::<Document>("share_windows")
        .update_many(
            doc! { "viewer": format!("user:{}", reader.id) },
            doc! { "$set": { "countedAt": mongodb::bson::DateTime::from_millis(
            mongodb::bson::DateTime::now().timestamp_millis() - 25 * 3600 * 1000) } },
        )
        .await
        .unwrap();
    assert_eq!(
        post_ok(&app, &path, &json!({}), Some(&reader.token)).await["shareCount"],
        3
    );
}

#[actix_web::test]
async fn reading_time_accumulates_per_reader_and_rejects_nonsense() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let post = publish(&app, &author, "Long read", "x").await;
    let id = id_of(&post);
    let path = format!("/api/post/time-spent/{id}");

    let body = post_ok(&app, &path, &json!({ "duration": 30 }), Some(&reader.token)).await;
    assert_eq!(body["duration"], 30);
    assert!(body["updatedAt"].is_string());
    let body = post_ok(
        &app,
        &path,
        &json!({ "duration": 12.4 }),
        Some(&reader.token),
    )
    .await;
    assert_eq!(body["duration"], 42, "whole seconds, per reader");
    let body = post_ok(
        &app,
        &path,
        &json!({ "duration": "8", "guestId": app.guest_id().await }),
        None,
    )
    .await;
    assert_eq!(body["duration"], 8);

    let cases = [
        ("missing", json!({})),
        ("zero", json!({ "duration": 0 })),
        ("negative", json!({ "duration": -5 })),
        ("too long", json!({ "duration": 4 * 3600 + 1 })),
        ("text", json!({ "duration": "soon" })),
        ("bool", json!({ "duration": true })),
        ("object", json!({ "duration": { "$gt": 1 } })),
    ];
    for (case, body) in cases {
        let res = app.post_json(&path, &body, Some(&reader.token)).await;
        let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(msg.contains("duration"), "case '{case}': {msg}");
    }

    // The exact messages, and `null` counted as missing.
    let limit = "must be more than 0 and at most 14400 seconds";
    let cases = [
        ("/time-spent", json!({}), "duration is required".to_string()),
        (
            "/time-spent",
            json!({ "duration": null, "other": 1 }),
            "duration is required".into(),
        ),
        (
            "/time-spent",
            json!({ "duration": [] }),
            "duration must be a number of seconds".into(),
        ),
        (
            "/time-spent",
            json!({ "duration": "NaN" }),
            "duration must be a number of seconds".into(),
        ),
        (
            "/time-spent",
            json!({ "duration": "0" }),
            format!("duration {limit}"),
        ),
        (
            "admin",
            json!({ "postId": id }),
            "timeSpent is required".into(),
        ),
        (
            "admin",
            json!({ "postId": id, "timeSpent": null }),
            "timeSpent is required".into(),
        ),
        (
            "admin",
            json!({ "postId": id, "timeSpent": "soon" }),
            "timeSpent must be a number of seconds".into(),
        ),
        (
            "admin",
            json!({ "postId": id, "timeSpent": 14401 }),
            format!("timeSpent {limit}"),
        ),
        (
            "admin: postId first",
            json!({ "timeSpent": "soon" }),
            "postId is required".into(),
        ),
        (
            "admin: postId's form first",
            json!({ "postId": "x", "timeSpent": {} }),
            "Invalid postId".into(),
        ),
    ];
    for (case, body, expected) in cases {
        let res = if case.starts_with("admin") {
            app.post_json("/api/admin/reading-time", &body, Some(&admin.token))
                .await
        } else {
            app.post_json(&path, &body, Some(&reader.token)).await
        };
        assert_eq!(
            assert_error(res, StatusCode::BAD_REQUEST).await,
            expected,
            "case '{case}' {body}"
        );
    }

    // Seed 000 §5: "postId must be a string, else 'Invalid postId'".
    let res = app
        .post_json(
            "/api/post/time-spent/not-an-id",
            &json!({ "duration": 5 }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Invalid postId"
    );
    let res = app
        .post_json(
            "/api/admin/reading-time",
            &json!({ "postId": "nope", "timeSpent": 5 }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Invalid postId"
    );

    // The admin tracker is for administrators only, as its path says.
    let res = app
        .post_json(
            "/api/admin/reading-time",
            &json!({ "postId": id, "timeSpent": 20 }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "Admin access required"
    );
    // It records the administrator's time.
    let body = post_ok(
        &app,
        "/api/admin/reading-time",
        &json!({ "postId": id, "timeSpent": 20 }),
        Some(&admin.token),
    )
    .await;
    assert_eq!(body["totalTimeSpent"], 20);
    let res = app
        .post_json(
            "/api/admin/reading-time",
            &json!({ "timeSpent": 20 }),
            Some(&admin.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .post_json(
            "/api/admin/reading-time",
            &json!({ "postId": id, "timeSpent": -1 }),
            Some(&admin.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;

    let details = get_ok(
        &app,
        &format!("/api/admin/reading-details/{id}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(details["totalTimeSpent"], 70);
    assert_eq!(details["readers"], 3);
    assert_eq!(details["sessions"], 4);
    assert_eq!(details["averageTimeSpent"], 23);
    let first = &details["details"][0];
    assert_eq!(first["timeSpent"], 42);
    assert_eq!(first["user"]["_id"], reader.id.as_str());
    assert_eq!(first["guest"], false);
    let res = app
        .get(
            &format!("/api/admin/reading-details/{id}"),
            Some(&author.token),
        )
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app
        .get(
            &format!("/api/admin/reading-details/{}", ObjectId::new().to_hex()),
            Some(&admin.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
}

#[actix_web::test]
async fn a_vote_counts_moves_and_shows_the_callers_choice() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let voter = app.signup().await;
    let other = app.signup().await;
    let post = poll_post(&app, &author, false, Value::Null).await;
    let id = id_of(&post);
    let vote = |index: Value| json!({ "postId": id, "blockId": "v1", "optionIndex": index });

    let body = post_ok(&app, "/api/post/vote", &vote(json!(1)), Some(&voter.token)).await;
    let poll = &body["poll"];
    assert_eq!(votes_of(poll), [0, 1, 0]);
    assert_eq!(poll["userVote"], 1);
    assert_eq!(poll["totalVotes"], 1);
    assert_eq!(poll["question"], "Best?");
    assert_eq!(poll["closed"], false);
    let body = post_ok(&app, "/api/post/vote", &vote(json!(1)), Some(&voter.token)).await;
    assert_eq!(
        votes_of(&body["poll"]),
        [0, 1, 0],
        "the same vote again changes nothing"
    );
    let body = post_ok(
        &app,
        "/api/post/vote",
        &vote(json!("2")),
        Some(&voter.token),
    )
    .await;
    assert_eq!(
        votes_of(&body["poll"]),
        [0, 0, 1],
        "voting again moves the vote"
    );
    assert_eq!(body["poll"]["userVote"], 2);
    let body = post_ok(&app, "/api/post/vote", &vote(json!(0)), Some(&other.token)).await;
    assert_eq!(votes_of(&body["poll"]), [1, 0, 1]);
    assert_eq!(body["poll"]["userVote"], 0);
    assert_eq!(stored_votes(&app, &id).await, [1, 0, 1]);
    // The post as read shows the counts.
    let read = get_ok(
        &app,
        &format!("/api/post/{}", post["slug"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(read["post"]["blocks"][1]["data"]["options"][0]["votes"], 1);

    let cases: Vec<(&str, Value, Option<&str>, StatusCode, &str)> = vec![
        (
            "index too high",
            vote(json!(3)),
            Some(&voter.token),
            StatusCode::BAD_REQUEST,
            "between 0 and 2",
        ),
        (
            "negative index",
            vote(json!(-1)),
            Some(&voter.token),
            StatusCode::BAD_REQUEST,
            "between 0 and 2",
        ),
        (
            "fractional index",
            vote(json!(1.5)),
            Some(&voter.token),
            StatusCode::BAD_REQUEST,
            "whole number",
        ),
        (
            "missing index",
            json!({ "postId": id, "blockId": "v1" }),
            Some(&voter.token),
            StatusCode::BAD_REQUEST,
            "optionIndex",
        ),
        (
            "unknown block",
            json!({ "postId": id, "blockId": "nope", "optionIndex": 0 }),
            Some(&voter.token),
            StatusCode::BAD_REQUEST,
            "no poll",
        ),
        (
            "not a poll",
            json!({ "postId": id, "blockId": "p1", "optionIndex": 0 }),
            Some(&voter.token),
            StatusCode::BAD_REQUEST,
            "no poll",
        ),
        (
            "missing block",
            json!({ "postId": id, "optionIndex": 0 }),
            Some(&voter.token),
            StatusCode::BAD_REQUEST,
            "blockId",
        ),
        (
            "missing post",
            json!({ "blockId": "v1", "optionIndex": 0 }),
            Some(&voter.token),
            StatusCode::BAD_REQUEST,
            "postId",
        ),
        (
            "bad post id",
            json!({ "postId": "x", "blockId": "v1", "optionIndex": 0 }),
            Some(&voter.token),
            StatusCode::BAD_REQUEST,
            "post id",
        ),
        (
            "unknown post",
            json!({ "postId": ObjectId::new().to_hex(), "blockId": "v1", "optionIndex": 0 }),
            Some(&voter.token),
            StatusCode::NOT_FOUND,
            "Post not found",
        ),
        ("guest", vote(json!(0)), None, StatusCode::UNAUTHORIZED, ""),
    ];
    // The exact messages of `optionIndex`, after `postId` and `blockId`.
    let exact = [
        (
            "index missing",
            json!({ "postId": id, "blockId": "v1" }),
            "optionIndex is required",
        ),
        ("index null", vote(Value::Null), "optionIndex is required"),
        (
            "index a word",
            vote(json!("first")),
            "optionIndex must be a whole number",
        ),
        (
            "index a flag",
            vote(json!(true)),
            "optionIndex must be a whole number",
        ),
        (
            "index a list",
            vote(json!([0])),
            "optionIndex must be a whole number",
        ),
        (
            "postId first",
            json!({ "blockId": "v1", "optionIndex": "x" }),
            "postId is required",
        ),
        (
            "blockId first",
            json!({ "postId": id, "optionIndex": "x" }),
            "blockId is required",
        ),
    ];
    for (case, body, expected) in exact {
        let res = app
            .post_json("/api/post/vote", &body, Some(&voter.token))
            .await;
        assert_eq!(
            assert_error(res, StatusCode::BAD_REQUEST).await,
            expected,
            "case '{case}'"
        );
    }
    for (case, body, token, status, text) in cases {
        let res = app.post_json("/api/post/vote", &body, token).await;
        let msg = assert_error(res, status).await;
        assert!(
            msg.to_lowercase().contains(&text.to_lowercase()),
            "case '{case}': {msg}"
        );
    }
    assert_eq!(
        stored_votes(&app, &id).await,
        [1, 0, 1],
        "refused votes change nothing"
    );
}

#[actix_web::test]
async fn a_closed_poll_refuses_votes_and_a_multiple_poll_toggles_options() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let voter = app.signup().await;
    let future = (chrono::Utc::now() + chrono::Duration::seconds(2)).to_rfc3339();
    let closing = poll_post(&app, &author, false, json!(future)).await;
    let body = post_ok(
        &app,
        "/api/post/vote",
        &json!({ "postId": id_of(&closing), "blockId": "v1", "optionIndex": 0 }),
        Some(&voter.token),
    )
    .await;
    assert_eq!(body["poll"]["closed"], false);
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let res = app
        .post_json(
            "/api/post/vote",
            &json!({ "postId": id_of(&closing), "blockId": "v1", "optionIndex": 1 }),
            Some(&voter.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "This poll is closed"
    );

    let multi = poll_post(&app, &author, true, Value::Null).await;
    let vote = |i: i64| json!({ "postId": id_of(&multi), "blockId": "v1", "optionIndex": i });
    post_ok(&app, "/api/post/vote", &vote(0), Some(&voter.token)).await;
    let body = post_ok(&app, "/api/post/vote", &vote(2), Some(&voter.token)).await;
    assert_eq!(votes_of(&body["poll"]), [1, 0, 1]);
    assert_eq!(body["poll"]["userVotes"], json!([0, 2]));
    assert_eq!(body["poll"]["userVote"], Value::Null);
    let body = post_ok(&app, "/api/post/vote", &vote(0), Some(&voter.token)).await;
    assert_eq!(
        votes_of(&body["poll"]),
        [0, 0, 1],
        "choosing again takes it back"
    );
    assert_eq!(body["poll"]["userVotes"], json!([2]));
}

#[actix_web::test]
async fn parallel_votes_end_consistent_with_the_records() {
    let app = spawn_app_bursting().await;
    app.wait_for_index("poll_votes", "post_block_user_slot_unique")
        .await;
    let author = app.signup().await;
    let post = poll_post(&app, &author, false, Value::Null).await;
    let id = id_of(&post);
    let voters = app.signup_many(20).await;
    let results = join_all(voters.iter().enumerate().map(|(i, v)| {
        app.post_owned(
            "/api/post/vote".into(),
            json!({ "postId": id, "blockId": "v1", "optionIndex": i % 3 }),
            Some(v.token.clone()),
        )
    }))
    .await;
    assert!(results.iter().all(|r| r.status() == StatusCode::OK));
    assert_eq!(stored_votes(&app, &id).await, [7, 7, 6]);

    // One voter changing their mind many times at once.
    let fickle = &voters[0];
    let results = join_all((0..30).map(|i| {
        app.post_owned(
            "/api/post/vote".into(),
            json!({ "postId": id, "blockId": "v1", "optionIndex": i % 3 }),
            Some(fickle.token.clone()),
        )
    }))
    .await;
    assert!(results.iter().all(|r| r.status() == StatusCode::OK));
    let stored = stored_votes(&app, &id).await;
    assert_eq!(
        stored.iter().sum::<i64>(),
        20,
        "still one vote each: {stored:?}"
    );
    let records = count_docs(&app, "poll_votes", doc! { "postId": oid(&id) }).await;
    assert_eq!(records, 20);
    for option in 0..3i64 {
        let n = count_docs(
            &app,
            "poll_votes",
            doc! { "postId": oid(&id), "option": option },
        )
        .await as i64;
        assert_eq!(stored[option as usize], n, "option {option}");
    }
}

#[actix_web::test]
async fn suggestions_prefer_the_category_and_leave_out_the_open_post() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let blocked = app.signup().await;
    let res = app
        .post_json(
            "/api/category",
            &json!({ "name": "Rust things", "slug": "rust-things" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let category = json_of(res).await;
    let cat_id = category["category"]["_id"]
        .as_str()
        .or(category["_id"].as_str())
        .unwrap()
        .to_string();
    let open = create_post(
        &app,
        &author.token,
        with(post_body("Open", "x"), json!({ "category": cat_id })),
    )
    .await;
    let same = create_post(
        &app,
        &author.token,
        with(post_body("Same", "x"), json!({ "category": cat_id })),
    )
    .await;
    let mut others = Vec::new();
    for i in 0..5 {
        others.push(publish(&app, &author, &format!("Other {i}"), "x").await);
    }
    let hidden = create_post(
        &app,
        &blocked.token,
        with(post_body("Hidden", "x"), json!({ "category": cat_id })),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/block/block-user/{}", blocked.id),
        &json!({}),
        Some(&reader.token),
    )
    .await;

    let body = get_ok(
        &app,
        &format!(
            "/api/post/suggested-post/suggested?category=rust-things&exclude={}",
            id_of(&open)
        ),
        Some(&reader.token),
    )
    .await;
    let ids = ids_of(&body);
    assert_eq!(ids.len(), 4, "the default limit");
    assert_eq!(ids[0], id_of(&same), "the category first");
    assert!(!ids.contains(&id_of(&open)));
    assert!(!ids.contains(&id_of(&hidden)));
    assert!(ids[1..]
        .iter()
        .all(|id| others.iter().any(|o| &id_of(o) == id)));
    let body = get_ok(&app, "/api/post/suggested-post/suggested?limit=100", None).await;
    assert_eq!(
        ids_of(&body).len(),
        8,
        "everything for a guest, limit capped at 20"
    );
    let body = get_ok(
        &app,
        "/api/post/suggested-post/suggested?category=unknown-cat&limit=2",
        None,
    )
    .await;
    assert_eq!(ids_of(&body).len(), 2);
    let res = app
        .get("/api/post/suggested-post/suggested?limit=0", None)
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}
