//! `PATCH /api/admin/posts/block/{id}`: who may block a post, bad ids, and what readers see.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::content::{create_post, post_body};
use crate::support::*;

async fn toggle(app: &TestApp, id: &str, token: Option<&str>) -> reqwest::Response {
    app.patch_json(&format!("/api/admin/posts/block/{id}"), &json!({}), token)
        .await
}

#[actix_web::test]
async fn only_administrators_block_and_restore_posts() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let admin = app.signup().await;
    app.make_admin(&admin.email).await;
    let post = create_post(&app, &author.token, post_body("Moderated", "text")).await;
    let id = post["_id"].as_str().unwrap();
    let slug = post["slug"].as_str().unwrap();

    assert_error(toggle(&app, id, None).await, StatusCode::UNAUTHORIZED).await;
    let msg = assert_error(
        toggle(&app, id, Some(&author.token)).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(msg, "Admin access required");

    let mut blocked = json_of(toggle(&app, id, Some(&admin.token)).await).await;
    // The state blocked is kept as a pinned revision (tests/api/content/revisions.rs).
    let revision = blocked
        .as_object_mut()
        .unwrap()
        .remove("revisionId")
        .expect("the blocked revision");
    assert!(revision.is_string(), "{revision}");
    assert_eq!(
        blocked,
        json!({ "message": "Post blocked", "blocked": true, "postId": id })
    );
    let msg = assert_error(
        app.get(&format!("/api/post/public/{slug}"), None).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(msg, "Post not found");

    let restored = json_of(toggle(&app, id, Some(&admin.token)).await).await;
    assert_eq!(restored["blocked"], false);
    assert!(!restored["message"].as_str().unwrap().contains("blocked"));
    assert_eq!(
        app.get(&format!("/api/post/public/{slug}"), None)
            .await
            .status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn a_bad_or_unknown_post_id_is_a_clear_4xx() {
    let app = spawn_app().await;
    let admin = app.signup().await;
    app.make_admin(&admin.email).await;
    let msg = assert_error(
        toggle(&app, "not-an-id", Some(&admin.token)).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(msg, "Invalid post id");
    let unknown = mongodb::bson::oid::ObjectId::new().to_hex();
    let msg = assert_error(
        toggle(&app, &unknown, Some(&admin.token)).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(msg, "Post not found");
}
