//! Engagement: answers checked on the way, stored documents and counters read back, the
//! notifications a user was sent, and a post with a poll.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Document};
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::content::*;
use super::*;

/// POSTs and asserts 200; returns the body.
pub async fn post_ok(app: &TestApp, path: &str, body: &Value, token: Option<&str>) -> Value {
    let res = app.post_json(path, body, token).await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::OK, "POST {path}: {body}");
    body
}

/// How many documents of `collection` match.
pub async fn count_docs(app: &TestApp, collection: &str, filter: Document) -> u64 {
    app.db
        .database()
        .collection::<Document>(collection)
        .count_documents(filter)
        .await
        .unwrap()
}

pub fn oid(hex: &str) -> ObjectId {
    ObjectId::parse_str(hex).unwrap()
}

pub fn id_of(v: &Value) -> String {
    v["_id"].as_str().unwrap().to_string()
}

/// The stored post by id.
pub async fn stored_post(app: &TestApp, id: &str) -> Document {
    app.db
        .database()
        .collection::<Document>("posts")
        .find_one(doc! { "_id": oid(id) })
        .await
        .unwrap()
        .expect("the post")
}

/// An integer field of a stored document (stored as 32 or 64 bits).
pub fn int(d: &Document, key: &str) -> i64 {
    d.get_i64(key)
        .or_else(|_| d.get_i32(key).map(i64::from))
        .unwrap_or_else(|_| panic!("no {key} in {d}"))
}

/// A stored post counter.
pub async fn counter(app: &TestApp, id: &str, key: &str) -> i64 {
    int(&stored_post(app, id).await, key)
}

/// Notifications stored for `user` of `kind`.
pub async fn notifications_to(app: &TestApp, user: &str, kind: &str) -> u64 {
    count_docs(
        app,
        "notifications",
        doc! { "userId": oid(user), "type": kind },
    )
    .await
}

/// A published post with a poll `v1` of three options (and `multiple` as given).
pub async fn poll_post(app: &TestApp, user: &TestUser, multiple: bool, closes_at: Value) -> Value {
    create_post(
        app,
        &user.token,
        json!({
            "title": "Poll time",
            "blocks": [
                paragraph("p1", "Vote below"),
                { "id": "v1", "type": "poll", "data": {
                    "question": "Best?",
                    "options": [{ "text": "A" }, { "text": "B" }, { "text": "C" }],
                    "multiple": multiple,
                    "closesAt": closes_at,
                } },
            ],
        }),
    )
    .await
}
