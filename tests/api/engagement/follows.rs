//! Following: follow, unfollow, status, lists, and many follows at once.

use futures_util::future::join_all;
use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::content::*;
use crate::support::engagement::{count_docs, oid, post_ok};
use crate::support::*;

#[actix_web::test]
async fn follow_unfollow_and_status_are_idempotent() {
    let app = spawn_app().await;
    let me = app.signup().await;
    let author = app.signup().await;
    let path = format!("/api/follow/{}", author.id);

    let body = post_ok(&app, &path, &json!({}), Some(&me.token)).await;
    assert_eq!(body["isFollowing"], true);
    assert_eq!(body["followersCount"], 1);
    let body = post_ok(&app, &path, &json!({}), Some(&me.token)).await;
    assert_eq!(body["followersCount"], 1, "following twice is one follow");
    let status = get_ok(
        &app,
        &format!("/api/follow/status/{}", author.id),
        Some(&me.token),
    )
    .await;
    assert_eq!(status["isFollowing"], true);
    let status = get_ok(
        &app,
        &format!("/api/follow/status/{}", me.id),
        Some(&author.token),
    )
    .await;
    assert_eq!(status["isFollowing"], false);

    let unfollow = format!("/api/follow/unfollow/{}", author.id);
    let body = post_ok(&app, &unfollow, &json!({}), Some(&me.token)).await;
    assert_eq!(body["isFollowing"], false);
    assert_eq!(body["followersCount"], 0);
    let body = post_ok(&app, &unfollow, &json!({}), Some(&me.token)).await;
    assert_eq!(body["followersCount"], 0, "unfollowing twice is fine");

    let cases = [
        (
            "follow yourself",
            format!("/api/follow/{}", me.id),
            Some(&me.token),
            StatusCode::BAD_REQUEST,
            "yourself",
        ),
        (
            "unfollow yourself",
            format!("/api/follow/unfollow/{}", me.id),
            Some(&me.token),
            StatusCode::BAD_REQUEST,
            "yourself",
        ),
        (
            "unknown user",
            format!("/api/follow/{}", ObjectId::new().to_hex()),
            Some(&me.token),
            StatusCode::NOT_FOUND,
            "User not found",
        ),
        (
            "bad id",
            "/api/follow/someone".to_string(),
            Some(&me.token),
            StatusCode::BAD_REQUEST,
            "user id",
        ),
        ("guest", path.clone(), None, StatusCode::UNAUTHORIZED, ""),
    ];
    for (case, path, token, status, text) in cases {
        let res = app
            .post_json(&path, &json!({}), token.map(String::as_str))
            .await;
        let msg = assert_error(res, status).await;
        assert!(msg.contains(text), "case '{case}': {msg}");
    }
    let res = app.get("/api/follow/status/xyz", Some(&me.token)).await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app.get("/api/follow/followers", None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}

#[actix_web::test]
async fn followers_and_following_lists_page_by_twelve() {
    let app = spawn_app().await;
    let star = app.signup().await;
    let fans = app.signup_many(14).await;
    for fan in &fans {
        post_ok(
            &app,
            &format!("/api/follow/{}", star.id),
            &json!({}),
            Some(&fan.token),
        )
        .await;
    }
    // The star follows one fan back.
    post_ok(
        &app,
        &format!("/api/follow/{}", fans[0].id),
        &json!({}),
        Some(&star.token),
    )
    .await;

    let page1 = get_ok(&app, "/api/follow/followers", Some(&star.token)).await;
    assert_eq!(page1["count"], 14);
    assert_eq!(page1["page"], 1);
    assert_eq!(page1["totalPages"], 2);
    let list = page1["list"].as_array().unwrap();
    assert_eq!(list.len(), 12);
    assert_eq!(
        list[0]["_id"],
        fans[13].id.as_str(),
        "newest follower first"
    );
    assert_eq!(list[0]["name"], "Ada Lovelace");
    assert!(list[0]["followedAt"].is_string());
    let page2 = get_ok(&app, "/api/follow/followers?page=2", Some(&star.token)).await;
    let rest = page2["list"].as_array().unwrap();
    assert_eq!(rest.len(), 2);
    assert_eq!(rest[1]["_id"], fans[0].id.as_str());
    assert_eq!(
        rest[1]["isFollowing"], true,
        "the star follows this fan back"
    );
    assert_eq!(rest[0]["isFollowing"], false);

    let following = get_ok(
        &app,
        "/api/follow/following?page=1&limit=12",
        Some(&fans[0].token),
    )
    .await;
    assert_eq!(following["count"], 1);
    assert_eq!(following["list"][0]["_id"], star.id.as_str());
    // Another user's lists by userId.
    let theirs = get_ok(
        &app,
        &format!("/api/follow/followers?userId={}&limit=5", star.id),
        Some(&fans[3].token),
    )
    .await;
    assert_eq!(theirs["count"], 14);
    assert_eq!(theirs["totalPages"], 3);

    for query in ["page=0", "page=x", "limit=0", "limit=-3", "userId=nope"] {
        let res = app
            .get(&format!("/api/follow/followers?{query}"), Some(&star.token))
            .await;
        assert_error(res, StatusCode::BAD_REQUEST).await;
    }
}

#[actix_web::test]
async fn many_simultaneous_follows_and_toggles_end_consistent() {
    let app = spawn_app_bursting().await;
    app.wait_for_index("follows", "follower_followee_unique")
        .await;
    let star = app.signup().await;
    let fans = app.signup_many(25).await;
    let path = format!("/api/follow/{}", star.id);
    let results = join_all(
        fans.iter()
            .map(|f| app.post_owned(path.clone(), json!({}), Some(f.token.clone()))),
    )
    .await;
    assert!(results.iter().all(|r| r.status() == StatusCode::OK));
    let body = get_ok(&app, "/api/follow/followers", Some(&star.token)).await;
    assert_eq!(body["count"], 25);

    // One fan follows and unfollows many times at once.
    let fan = &fans[0];
    let unfollow = format!("/api/follow/unfollow/{}", star.id);
    let results = join_all((0..30).map(|i| {
        let p = if i % 2 == 0 {
            path.clone()
        } else {
            unfollow.clone()
        };
        app.post_owned(p, json!({}), Some(fan.token.clone()))
    }))
    .await;
    assert!(results.iter().all(|r| r.status() == StatusCode::OK));
    let edges = count_docs(
        &app,
        "follows",
        doc! { "followerId": oid(&fan.id), "followeeId": oid(&star.id) },
    )
    .await;
    assert!(edges <= 1, "{edges} follow records for one pair");
    let status = get_ok(
        &app,
        &format!("/api/follow/status/{}", star.id),
        Some(&fan.token),
    )
    .await;
    assert_eq!(status["isFollowing"], edges == 1);
    let body = get_ok(&app, "/api/follow/followers", Some(&star.token)).await;
    assert_eq!(body["count"], 24 + edges);
}
