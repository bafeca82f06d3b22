//! A user's own activity: recorded by their actions, read by them or administrators, cleared.

use mongodb::bson::{doc, DateTime, Document};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::comments::comment;
use crate::support::content::*;
use crate::support::engagement::{id_of, oid, post_ok};
use crate::support::*;

fn types(body: &Value) -> Vec<String> {
    body["activity"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["type"].as_str().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn actions_are_recorded_and_only_the_user_or_an_admin_reads_them() {
    let app = spawn_app().await;
    let me = app.signup().await;
    let author = app.signup().await;
    let stranger = app.signup().await;
    let admin = app.admin().await;
    let post = publish(&app, &author, "Busy", "x").await;
    let pid = id_of(&post);
    post_ok(
        &app,
        &format!("/api/post/like/{pid}"),
        &json!({}),
        Some(&me.token),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/post/bookmark/{pid}"),
        &json!({}),
        Some(&me.token),
    )
    .await;
    let c = comment(&app, &me, &pid, "Nice", None).await;
    comment(&app, &me, &pid, "Me again", Some(&id_of(&c))).await;
    post_ok(
        &app,
        &format!("/api/follow/{}", author.id),
        &json!({}),
        Some(&me.token),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/post/{pid}/share"),
        &json!({}),
        Some(&me.token),
    )
    .await;
    // Unliking records nothing.
    post_ok(
        &app,
        &format!("/api/post/like/{pid}"),
        &json!({}),
        Some(&me.token),
    )
    .await;

    let path = format!("/api/user/activity/{}", me.id);
    let body = get_ok(&app, &path, Some(&me.token)).await;
    assert_eq!(
        types(&body),
        ["share", "follow", "reply", "comment", "bookmark", "like"]
    );
    let latest = &body["activity"][0];
    assert!(latest["createdAt"].is_string());
    assert_eq!(latest["details"], "Shared \"Busy\"");
    assert_eq!(latest["postId"], pid.as_str());
    assert_eq!(body["total"], 6);
    let by_admin = get_ok(&app, &path, Some(&admin.token)).await;
    assert_eq!(by_admin["total"], 6);
    let paged = get_ok(&app, &format!("{path}?limit=2&page=2"), Some(&me.token)).await;
    assert_eq!(types(&paged), ["reply", "comment"]);
    assert_eq!(paged["totalPages"], 3);
    assert_eq!(
        get_ok(
            &app,
            &format!("/api/user/activity/{}", author.id),
            Some(&author.token)
        )
        .await["total"],
        0
    );

    let res = app.get(&path, Some(&stranger.token)).await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app.get(&path, None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    let res = app.get("/api/user/activity/nope", Some(&me.token)).await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}

#[actix_web::test]
async fn clear_old_keeps_thirty_days_and_clear_removes_everything() {
    let app = spawn_app().await;
    let me = app.signup().await;
    let other = app.signup().await;
    let post = publish(&app, &other, "Anything", "x").await;
    post_ok(
        &app,
        &format!("/api/post/like/{}", id_of(&post)),
        &json!({}),
        Some(&me.token),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/post/like/{}", id_of(&post)),
        &json!({}),
        Some(&other.token),
    )
    .await;
    let day = 24 * 60 * 60 * 1000;
    let activity = app.db.database().collection::<Document>("user_activity");
    for days_ago in [29, 31, 90] {
        activity
            .insert_one(doc! {
                "userId": oid(&me.id),
                "type": "like",
                "details": format!("{days_ago} days ago"),
                "createdAt": DateTime::from_millis(DateTime::now().timestamp_millis() - days_ago * day),
            })
            .await
            .unwrap();
    }
    let path = format!("/api/user/activity/{}", me.id);
    assert_eq!(get_ok(&app, &path, Some(&me.token)).await["total"], 4);

    let res = app
        .delete("/api/user/activity/clear-old", Some(&me.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["deletedCount"], 2);
    let body = get_ok(&app, &path, Some(&me.token)).await;
    let details: Vec<&str> = body["activity"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["details"].as_str().unwrap())
        .collect();
    assert_eq!(details.len(), 2);
    assert!(details.contains(&"29 days ago"));

    let res = app
        .delete("/api/user/activity/clear", Some(&me.token))
        .await;
    let body = json_of(res).await;
    assert_eq!(body["deletedCount"], 2);
    assert!(body["message"].is_string());
    assert_eq!(
        get_ok(&app, &path, Some(&me.token)).await["activity"],
        json!([])
    );
    // Someone else's activity is untouched.
    let theirs = get_ok(
        &app,
        &format!("/api/user/activity/{}", other.id),
        Some(&other.token),
    )
    .await;
    assert_eq!(theirs["total"], 1);
    let res = app.delete("/api/user/activity/clear", None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}
