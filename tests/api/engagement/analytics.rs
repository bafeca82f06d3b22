//! Post analytics and user engagement: the numbers match the actions performed.

use mongodb::bson::oid::ObjectId;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::comments::comment;
use crate::support::content::*;
use crate::support::engagement::{id_of, post_ok};
use crate::support::*;

#[actix_web::test]
async fn post_analytics_match_the_actions_and_belong_to_the_author() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let stranger = app.signup().await;
    let admin = app.admin().await;
    let readers = app.signup_many(3).await;
    let post = publish(&app, &author, "Measured", "x").await;
    let other = publish(&app, &author, "Other", "x").await;
    let pid = id_of(&post);
    let slug = post["slug"].as_str().unwrap();
    for (i, r) in readers.iter().enumerate() {
        post_ok(
            &app,
            &format!("/api/post/view/{slug}"),
            &json!({}),
            Some(&r.token),
        )
        .await;
        post_ok(
            &app,
            &format!("/api/post/time-spent/{pid}"),
            &json!({ "duration": 10 * (i + 1) }),
            Some(&r.token),
        )
        .await;
    }
    post_ok(
        &app,
        &format!("/api/post/view/{slug}"),
        &json!({ "guestId": "g1" }),
        None,
    )
    .await;
    post_ok(
        &app,
        &format!("/api/post/like/{pid}"),
        &json!({}),
        Some(&readers[0].token),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/post/like/{pid}"),
        &json!({}),
        Some(&readers[1].token),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/post/bookmark/{pid}"),
        &json!({}),
        Some(&readers[2].token),
    )
    .await;
    // Three readers share it (a reader's shares count once a day).
    for r in &readers[..3] {
        post_ok(
            &app,
            &format!("/api/post/{pid}/share"),
            &json!({}),
            Some(&r.token),
        )
        .await;
    }
    comment(&app, &readers[0], &pid, "Good", None).await;
    comment(&app, &readers[1], &pid, "Bad", None).await;
    post_ok(
        &app,
        &format!("/api/post/like/{}", id_of(&other)),
        &json!({}),
        Some(&readers[0].token),
    )
    .await;

    let stats = get_ok(
        &app,
        &format!("/api/post/analytics/post/{pid}"),
        Some(&author.token),
    )
    .await;
    assert_eq!(stats["postId"], pid.as_str());
    assert_eq!(stats["views"], 4);
    assert_eq!(stats["likes"], 2);
    assert_eq!(stats["bookmarks"], 1);
    assert_eq!(stats["shares"], 3);
    assert_eq!(stats["comments"], 2);
    assert_eq!(stats["totalReadingTime"], 60);
    assert_eq!(stats["readers"], 3);
    assert_eq!(stats["averageReadingTime"], 20);
    let daily = stats["daily"].as_array().unwrap();
    assert_eq!(daily.len(), 30);
    let today = daily.last().unwrap();
    assert_eq!(
        today["date"],
        chrono::Utc::now().format("%Y-%m-%d").to_string()
    );
    assert_eq!(
        (
            today["views"].clone(),
            today["likes"].clone(),
            today["bookmarks"].clone(),
            today["shares"].clone(),
            today["comments"].clone(),
            today["readingTime"].clone()
        ),
        (json!(4), json!(2), json!(1), json!(3), json!(2), json!(60))
    );
    assert!(daily[..29].iter().all(|d| d["views"] == 0));
    let week = get_ok(
        &app,
        &format!("/api/post/analytics/post/{pid}?days=7"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(week["daily"].as_array().unwrap().len(), 7);
    assert_eq!(week["views"], 4);

    let cases = [
        (
            "a stranger",
            format!("/api/post/analytics/post/{pid}"),
            Some(&stranger.token),
            StatusCode::FORBIDDEN,
        ),
        (
            "a guest",
            format!("/api/post/analytics/post/{pid}"),
            None,
            StatusCode::UNAUTHORIZED,
        ),
        (
            "a bad id",
            "/api/post/analytics/post/xyz".to_string(),
            Some(&author.token),
            StatusCode::BAD_REQUEST,
        ),
        (
            "a missing post",
            format!("/api/post/analytics/post/{}", ObjectId::new().to_hex()),
            Some(&author.token),
            StatusCode::NOT_FOUND,
        ),
        (
            "zero days",
            format!("/api/post/analytics/post/{pid}?days=0"),
            Some(&author.token),
            StatusCode::BAD_REQUEST,
        ),
        (
            "too many days",
            format!("/api/post/analytics/post/{pid}?days=366"),
            Some(&author.token),
            StatusCode::BAD_REQUEST,
        ),
    ];
    for (case, path, token, status) in cases {
        let res = app.get(&path, token.map(String::as_str)).await;
        assert_eq!(res.status(), status, "case '{case}'");
    }

    for r in &readers[..2] {
        post_ok(
            &app,
            &format!("/api/follow/{}", author.id),
            &json!({}),
            Some(&r.token),
        )
        .await;
    }
    let mine = get_ok(
        &app,
        "/api/post/analytics/user-engagement",
        Some(&author.token),
    )
    .await;
    assert_eq!(mine["posts"], 2);
    assert_eq!(mine["views"], 4);
    assert_eq!(mine["likes"], 3);
    assert_eq!(mine["bookmarks"], 1);
    assert_eq!(mine["shares"], 3);
    assert_eq!(mine["comments"], 2);
    assert_eq!(mine["totalReadingTime"], 60);
    assert_eq!(mine["followers"], 2);
    assert_eq!(mine["engagementRate"], 2.25, "(3 + 2 + 3 + 1) / 4");
    assert_eq!(mine["topPosts"][0]["_id"], pid.as_str());
    let res = app.get("/api/post/analytics/user-engagement", None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    let none = get_ok(
        &app,
        "/api/post/analytics/user-engagement",
        Some(&stranger.token),
    )
    .await;
    assert_eq!(
        (
            none["posts"].clone(),
            none["views"].clone(),
            none["engagementRate"].clone()
        ),
        (json!(0), json!(0), json!(0.0))
    );
}
