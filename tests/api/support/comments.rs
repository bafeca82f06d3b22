//! Comments: adding one (or a reply) and reading a post's tree.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::content::get_ok;
use super::*;

/// Adds a comment (a reply with `parent`) and returns it.
pub async fn comment(
    app: &TestApp,
    user: &TestUser,
    post: &str,
    content: &str,
    parent: Option<&str>,
) -> Value {
    let res = app
        .post_json(
            &format!("/api/comment/add-comment/{post}"),
            &json!({ "content": content, "parentId": parent }),
            Some(&user.token),
        )
        .await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "add-comment: {body}");
    assert_eq!(body["message"], "Comment added successfully");
    body["comment"].clone()
}

pub async fn comments_of(app: &TestApp, post: &str, token: Option<&str>) -> Value {
    get_ok(app, &format!("/api/comment/all-comments/{post}"), token).await
}
