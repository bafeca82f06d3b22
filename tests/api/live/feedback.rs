//! Feedback: the prompting cadence, submission rules, the admin list and manual prompts.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::*;

async fn should_prompt(app: &TestApp, user: &TestUser) -> bool {
    let res = app.get("/api/user/feedback/check", Some(&user.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    json_of(res).await["shouldPrompt"].as_bool().unwrap()
}

#[actix_web::test]
async fn the_prompt_comes_after_three_days_once_and_not_after_feedback() {
    let app = spawn_app().await;
    let user = app.signup().await;
    assert!(!should_prompt(&app, &user).await, "a brand-new account");
    app.age_account(&user, 4).await;
    assert!(should_prompt(&app, &user).await);
    assert!(
        !should_prompt(&app, &user).await,
        "asked once, not again at once"
    );

    let other = app.signup().await;
    app.age_account(&other, 4).await;
    let res = app
        .post_json(
            "/api/user/feedback/submit",
            // Keys the body does not name are ignored.
            &json!({ "rating": 5, "message": "Lovely", "page": "/home" }),
            Some(&other.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(json_of(res).await["success"], true);
    assert!(!should_prompt(&app, &other).await, "just gave feedback");

    let res = app.get("/api/user/feedback/check", None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}

#[actix_web::test]
async fn feedback_needs_a_rating_from_one_to_five_and_a_message() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let cases = [
        (
            json!({ "rating": 0, "message": "x" }),
            "Rating must be a whole number from 1 to 5",
        ),
        (
            json!({ "rating": 6, "message": "x" }),
            "Rating must be a whole number from 1 to 5",
        ),
        (
            json!({ "rating": 3.5, "message": "x" }),
            "Rating must be a whole number from 1 to 5",
        ),
        (
            json!({ "rating": "4", "message": "x" }),
            "Rating must be a whole number from 1 to 5",
        ),
        (
            json!({ "message": "x" }),
            "Rating must be a whole number from 1 to 5",
        ),
        (
            json!({ "rating": null, "message": "x" }),
            "Rating must be a whole number from 1 to 5",
        ),
        (
            json!({ "rating": 2.5, "message": "" }),
            "Rating must be a whole number from 1 to 5",
        ),
        (
            json!({ "rating": { "$gt": 0 }, "message": "x" }),
            "Rating must be a whole number from 1 to 5",
        ),
        (json!({ "rating": 4 }), "Feedback message is required"),
        (
            json!({ "rating": 4, "message": "   " }),
            "Feedback message is required",
        ),
        (
            json!({ "rating": 4, "message": "x".repeat(2001) }),
            "Feedback message must be at most 2000 characters",
        ),
    ];
    for (body, message) in cases {
        let res = app
            .post_json("/api/user/feedback/submit", &body, Some(&user.token))
            .await;
        assert_eq!(
            assert_error(res, StatusCode::BAD_REQUEST).await,
            message,
            "case {body}"
        );
    }
}

#[actix_web::test]
async fn administrators_read_all_feedback_newest_first() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    for (rating, message) in [(2, "Slow"), (5, "Great")] {
        app.post_json(
            "/api/user/feedback/submit",
            &json!({ "rating": rating, "message": message }),
            Some(&user.token),
        )
        .await;
    }
    let body = json_of(app.get("/api/user/feedback/all", Some(&admin.token)).await).await;
    let list = body["feedbacks"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["message"], "Great");
    assert_eq!(list[0]["rating"], 5);
    assert_eq!(list[0]["user"]["_id"], user.id);
    let res = app.get("/api/user/feedback/all", Some(&user.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "Admin access required"
    );
}

#[actix_web::test]
async fn a_manual_prompt_is_for_administrators_and_defaults_its_message() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let path = format!("/api/user/feedback/manual/{}", user.id);
    let res = app.post_json(&path, &json!({}), Some(&admin.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["prompt"], "We'd love your feedback!");
    let res = app
        .post_json(
            &path,
            &json!({ "message": "How was the editor?" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(json_of(res).await["prompt"], "How was the editor?");
    let res = app.post_json(&path, &json!({}), Some(&user.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "Admin access required"
    );
    let res = app
        .post_json(
            "/api/user/feedback/manual/64b000000000000000000000",
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    let res = app
        .post_json(
            "/api/user/feedback/manual/undefined",
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}
