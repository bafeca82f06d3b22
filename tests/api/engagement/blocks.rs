//! Users blocking users: follows removed, interactions refused, feeds and comments hidden.

use mongodb::bson::oid::ObjectId;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::comments::{comment, comments_of};
use crate::support::content::*;
use crate::support::engagement::{id_of, post_ok};
use crate::support::*;

#[actix_web::test]
async fn blocking_removes_follows_and_refuses_interaction_both_ways() {
    let app = spawn_app().await;
    let blocker = app.signup().await;
    let blocked = app.signup().await;
    let their_post = publish(&app, &blocker, "Blocker's post", "x").await;
    let blocked_post = publish(&app, &blocked, "Blocked's post", "x").await;
    let c = comment(&app, &blocker, &id_of(&their_post), "Hello", None).await;
    post_ok(
        &app,
        &format!("/api/follow/{}", blocker.id),
        &json!({}),
        Some(&blocked.token),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/follow/{}", blocked.id),
        &json!({}),
        Some(&blocker.token),
    )
    .await;
    // A like from before the block can still be taken back afterwards.
    post_ok(
        &app,
        &format!("/api/post/like/{}", id_of(&their_post)),
        &json!({}),
        Some(&blocked.token),
    )
    .await;

    let body = post_ok(
        &app,
        &format!("/api/block/block-user/{}", blocked.id),
        &json!({}),
        Some(&blocker.token),
    )
    .await;
    assert_eq!(body["message"], "User blocked successfully");
    let body = post_ok(
        &app,
        &format!("/api/block/block-user/{}", blocked.id),
        &json!({}),
        Some(&blocker.token),
    )
    .await;
    assert_eq!(
        body["message"], "User blocked successfully",
        "blocking twice is fine"
    );
    for (who, user, other) in [
        ("blocked", &blocked, &blocker),
        ("blocker", &blocker, &blocked),
    ] {
        let status = get_ok(
            &app,
            &format!("/api/follow/status/{}", other.id),
            Some(&user.token),
        )
        .await;
        assert_eq!(status["isFollowing"], false, "{who}'s follow is gone");
    }

    let post_id = id_of(&their_post);
    let cases = [
        (
            "follow the blocker",
            format!("/api/follow/{}", blocker.id),
            json!({}),
            &blocked,
        ),
        (
            "follow the blocked user",
            format!("/api/follow/{}", blocked.id),
            json!({}),
            &blocker,
        ),
        (
            "comment on the blocker's post",
            format!("/api/comment/add-comment/{post_id}"),
            json!({ "content": "hi" }),
            &blocked,
        ),
        (
            "reply to the blocker",
            format!("/api/comment/add-comment/{post_id}"),
            json!({ "content": "hi", "parentId": id_of(&c) }),
            &blocked,
        ),
        (
            "react to the blocker's comment",
            format!("/api/comment/reaction/{}", id_of(&c)),
            json!({ "reactionType": "like" }),
            &blocked,
        ),
        (
            "bookmark the blocker's post",
            format!("/api/post/bookmark/{post_id}"),
            json!({}),
            &blocked,
        ),
        (
            "like the blocked user's post",
            format!("/api/post/like/{}", id_of(&blocked_post)),
            json!({}),
            &blocker,
        ),
    ];
    for (case, path, body, user) in cases {
        let res = app.post_json(&path, &body, Some(&user.token)).await;
        let msg = assert_error(res, StatusCode::FORBIDDEN).await;
        assert!(!msg.is_empty(), "case '{case}'");
    }
    let body = post_ok(
        &app,
        &format!("/api/post/like/{post_id}"),
        &json!({}),
        Some(&blocked.token),
    )
    .await;
    assert_eq!(body["liked"], false, "taking a like back is allowed");
    let res = app
        .post_json(
            &format!("/api/post/like/{post_id}"),
            &json!({}),
            Some(&blocked.token),
        )
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;

    // Unblocking restores interaction, not the old follows.
    let body = post_ok(
        &app,
        "/api/block/unblock",
        &json!({ "blockedUserId": blocked.id }),
        Some(&blocker.token),
    )
    .await;
    assert_eq!(body["message"], "User unblocked successfully");
    let status = get_ok(
        &app,
        &format!("/api/follow/status/{}", blocker.id),
        Some(&blocked.token),
    )
    .await;
    assert_eq!(status["isFollowing"], false);
    post_ok(
        &app,
        &format!("/api/follow/{}", blocker.id),
        &json!({}),
        Some(&blocked.token),
    )
    .await;
    comment(&app, &blocked, &post_id, "Friends again", None).await;
    let body = post_ok(
        &app,
        "/api/block/unblock",
        &json!({ "blockedUserId": blocked.id }),
        Some(&blocker.token),
    )
    .await;
    assert_eq!(
        body["message"], "User unblocked successfully",
        "unblocking twice is fine"
    );
}

#[actix_web::test]
async fn bad_block_requests_are_refused() {
    let app = spawn_app().await;
    let me = app.signup().await;
    let cases = [
        (
            "block yourself",
            format!("/api/block/block-user/{}", me.id),
            json!({}),
            Some(&me.token),
            StatusCode::BAD_REQUEST,
            "yourself",
        ),
        (
            "block a bad id",
            "/api/block/block-user/abc".into(),
            json!({}),
            Some(&me.token),
            StatusCode::BAD_REQUEST,
            "user id",
        ),
        (
            "block an unknown user",
            format!("/api/block/block-user/{}", ObjectId::new().to_hex()),
            json!({}),
            Some(&me.token),
            StatusCode::NOT_FOUND,
            "User not found",
        ),
        (
            "block as a guest",
            format!("/api/block/block-user/{}", me.id),
            json!({}),
            None,
            StatusCode::UNAUTHORIZED,
            "",
        ),
        (
            "unblock without an id",
            "/api/block/unblock".into(),
            json!({}),
            Some(&me.token),
            StatusCode::BAD_REQUEST,
            "blockedUserId",
        ),
        (
            "unblock a bad id",
            "/api/block/unblock".into(),
            json!({ "blockedUserId": "x" }),
            Some(&me.token),
            StatusCode::BAD_REQUEST,
            "blockedUserId",
        ),
        (
            "unblock with an operator",
            "/api/block/unblock".into(),
            json!({ "blockedUserId": { "$ne": null } }),
            Some(&me.token),
            StatusCode::BAD_REQUEST,
            "blockedUserId",
        ),
    ];
    for (case, path, body, token, status, text) in cases {
        let res = app.post_json(&path, &body, token.map(String::as_str)).await;
        let msg = assert_error(res, status).await;
        assert!(msg.contains(text), "case '{case}': {msg}");
    }
    let res = app
        .post_raw("/api/block/unblock", "", Some(&me.token))
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}

#[actix_web::test]
async fn neither_side_of_a_block_sees_the_others_posts_or_comments() {
    let app = spawn_app().await;
    let blocker = app.signup().await;
    let blocked = app.signup().await;
    let third = app.signup().await;
    let host = publish(&app, &third, "Neutral ground", "x").await;
    let blocked_post = publish(&app, &blocked, "Blocked writes", "x").await;
    let blocker_post = publish(&app, &blocker, "Blocker writes", "x").await;
    let from_blocked = comment(&app, &blocked, &id_of(&host), "From the blocked user", None).await;
    let under_blocked = comment(
        &app,
        &third,
        &id_of(&host),
        "A reply under it",
        Some(&id_of(&from_blocked)),
    )
    .await;
    let from_blocker = comment(&app, &blocker, &id_of(&host), "From the blocker", None).await;
    let neutral = comment(&app, &third, &id_of(&host), "Neutral", None).await;
    post_ok(
        &app,
        &format!("/api/block/block-user/{}", blocked.id),
        &json!({}),
        Some(&blocker.token),
    )
    .await;

    let feed = get_ok(&app, "/api/post/public/posts", Some(&blocker.token)).await;
    let ids = ids_of(&feed);
    assert!(!ids.contains(&id_of(&blocked_post)), "the blocker's feed");
    let feed = get_ok(&app, "/api/post/public/posts", Some(&blocked.token)).await;
    assert!(
        !ids_of(&feed).contains(&id_of(&blocker_post)),
        "the blocked user's feed"
    );
    let feed = get_ok(&app, "/api/post/public/posts", Some(&third.token)).await;
    assert_eq!(ids_of(&feed).len(), 3, "others see everything");

    let ids_in = |body: &serde_json::Value| -> Vec<String> {
        let mut out = Vec::new();
        fn walk(list: &serde_json::Value, out: &mut Vec<String>) {
            for c in list.as_array().unwrap() {
                out.push(c["_id"].as_str().unwrap().to_string());
                walk(&c["replies"], out);
            }
        }
        walk(&body["comments"], &mut out);
        out
    };
    let seen = ids_in(&comments_of(&app, &id_of(&host), Some(&blocker.token)).await);
    assert!(!seen.contains(&id_of(&from_blocked)));
    assert!(
        !seen.contains(&id_of(&under_blocked)),
        "replies under a hidden comment go with it"
    );
    assert!(seen.contains(&id_of(&neutral)) && seen.contains(&id_of(&from_blocker)));
    let seen = ids_in(&comments_of(&app, &id_of(&host), Some(&blocked.token)).await);
    assert!(!seen.contains(&id_of(&from_blocker)));
    assert!(seen.contains(&id_of(&from_blocked)));
    let seen = ids_in(&comments_of(&app, &id_of(&host), None).await);
    assert_eq!(seen.len(), 4, "guests see every comment");

    // Suggestions and bookmarks leave the other side out too.
    let body = get_ok(
        &app,
        "/api/post/suggested-post/suggested?limit=10",
        Some(&blocker.token),
    )
    .await;
    assert!(!ids_of(&body).contains(&id_of(&blocked_post)));
}
