//! Achievements: badges from the real metrics.

use mongodb::bson::{doc, DateTime};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::engagement::{id_of, post_ok};
use crate::support::*;

fn badge_ids(body: &Value) -> Vec<String> {
    body["badges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn badges_follow_the_metrics_and_are_kept() {
    let app = spawn_app().await;
    let writer = app.signup().await;
    let fresh = get_ok(&app, "/api/achievement/achievements", Some(&writer.token)).await;
    assert_eq!(fresh["badges"], json!([]));

    // Three posts on three consecutive days.
    let day = 24 * 60 * 60 * 1000;
    let now = DateTime::now().timestamp_millis();
    let mut posts = Vec::new();
    for i in 0..3 {
        let p = publish(&app, &writer, &format!("Day {i}"), "x").await;
        set_fields(
            &app,
            &id_of(&p),
            doc! { "createdAt": DateTime::from_millis(now - (2 - i) * day) },
        )
        .await;
        posts.push(p);
    }
    let fans = app.signup_many(10).await;
    for fan in &fans {
        post_ok(
            &app,
            &format!("/api/post/like/{}", id_of(&posts[0])),
            &json!({}),
            Some(&fan.token),
        )
        .await;
        post_ok(
            &app,
            &format!("/api/follow/{}", writer.id),
            &json!({}),
            Some(&fan.token),
        )
        .await;
    }
    post_ok(
        &app,
        &format!("/api/post/view/{}", posts[1]["slug"].as_str().unwrap()),
        &json!({}),
        Some(&fans[0].token),
    )
    .await;

    let res = app
        .post_empty(
            "/api/achievement/achievements/calculate",
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    let m = &body["metrics"];
    assert_eq!(m["posts"], 3);
    assert_eq!(m["likesReceived"], 10);
    assert_eq!(m["viewsReceived"], 1);
    assert_eq!(m["followers"], 10);
    assert_eq!(m["commentsWritten"], 0);
    assert_eq!(m["longestStreak"], 3);
    assert_eq!(m["currentStreak"], 3);
    assert_eq!(
        badge_ids(&body),
        ["first-post", "well-liked", "rising-voice", "on-a-roll"]
    );
    assert_eq!(
        body["newBadges"],
        json!(["first-post", "well-liked", "rising-voice", "on-a-roll"])
    );
    let first = &body["badges"][0];
    assert_eq!(first["name"], "First Post");
    assert_eq!(first["threshold"], 1);
    assert!(first["earnedAt"].is_string());

    // Losing likes keeps the badge and its date; nothing is new.
    for fan in &fans {
        post_ok(
            &app,
            &format!("/api/post/like/{}", id_of(&posts[0])),
            &json!({}),
            Some(&fan.token),
        )
        .await;
    }
    let again = json_of(
        app.post_empty(
            "/api/achievement/achievements/calculate",
            Some(&writer.token),
        )
        .await,
    )
    .await;
    assert_eq!(again["metrics"]["likesReceived"], 0);
    assert_eq!(badge_ids(&again), badge_ids(&body));
    assert_eq!(again["newBadges"], json!([]));
    assert_eq!(
        again["badges"][1]["earnedAt"],
        body["badges"][1]["earnedAt"]
    );
    let read = get_ok(&app, "/api/achievement/achievements", Some(&writer.token)).await;
    assert_eq!(badge_ids(&read), badge_ids(&body));

    let res = app.get("/api/achievement/achievements", None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    let res = app
        .post_empty("/api/achievement/achievements/calculate", None)
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}
