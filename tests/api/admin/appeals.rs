//! Appeals against blocks, for administrators: the queue (`GET /api/admin/appeals`), one appeal
//! with the post as it was appealed, and the one decision (`PATCH /api/admin/appeals/{id}`):
//! accepting lifts the block, rejecting keeps it, the author is told, a second decision is
//! refused; lifting a block by hand settles the pending appeal.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::*;

async fn block(app: &TestApp, admin: &TestUser, post_id: &str) {
    let res = app
        .patch_empty(
            &format!("/api/admin/posts/block/{post_id}"),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
}

async fn appeal(app: &TestApp, author: &TestUser, post_id: &str, message: &str) -> String {
    let res = app
        .post_json(
            &format!("/api/post/appeal/{post_id}"),
            &json!({ "message": message }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    json_of(res).await["appeal"]["_id"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn decide(app: &TestApp, admin: &TestUser, id: &str, body: Value) -> reqwest::Response {
    app.patch_json(
        &format!("/api/admin/appeals/{id}"),
        &body,
        Some(&admin.token),
    )
    .await
}

async fn queue(app: &TestApp, admin: &TestUser, status: &str) -> Value {
    get_ok(
        app,
        &format!("/api/admin/appeals?status={status}"),
        Some(&admin.token),
    )
    .await
}

async fn post_blocked(app: &TestApp, slug: &str) -> bool {
    app.get(&format!("/api/post/public/{slug}"), None)
        .await
        .status()
        == StatusCode::NOT_FOUND
}

#[actix_web::test]
async fn an_administrator_reads_the_appealed_version_and_lifts_the_block_once() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let admin = app.admin().await;
    let second = app.admin().await;
    let post = create_post(
        &app,
        &author.token,
        json!({ "title": "On birds", "blocks": [paragraph("a", "The photos are mine.")] }),
    )
    .await;
    let (id, slug) = (
        post["_id"].as_str().unwrap(),
        post["slug"].as_str().unwrap(),
    );
    block(&app, &admin, id).await;
    let appeal_id = appeal(&app, &author, id, "I took these photos\nmyself.").await;

    // The queue: the author, the message, the pinned version, nothing changed since yet.
    let pending = queue(&app, &admin, "pending").await;
    assert_eq!(pending["total"], 1);
    let listed = &pending["appeals"][0];
    assert_eq!(listed["_id"], appeal_id.as_str());
    assert_eq!(listed["postId"], id);
    assert_eq!(listed["postSlug"], slug);
    assert_eq!(listed["postTitle"], "On birds");
    assert_eq!(listed["author"]["_id"], author.id);
    assert_eq!(listed["message"], "I took these photos\nmyself.");
    assert_eq!(listed["status"], "pending");
    assert_eq!(listed["editedSince"], false);
    assert_eq!(listed["postBlocked"], true);
    assert!(listed["decidedAt"].is_null() && listed["decidedBy"].is_null());
    let revision = listed["revisionId"].as_str().unwrap().to_string();
    // `pending` is the default.
    let default = get_ok(&app, "/api/admin/appeals", Some(&admin.token)).await;
    assert_eq!(default["total"], 1);

    // The author edits the blocked post: the appeal says so, and still shows what was appealed.
    let path = format!("/api/post/update/{slug}");
    let body = json!({ "blocks": [paragraph("a", "The photos are mine, with credits.")] });
    assert_eq!(
        app.patch_json(&path, &body, Some(&author.token))
            .await
            .status(),
        StatusCode::OK
    );
    let one = get_ok(
        &app,
        &format!("/api/admin/appeals/{appeal_id}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(one["appeal"]["editedSince"], true);
    assert_eq!(one["evidence"]["revisionId"], revision.as_str());
    assert_eq!(
        one["evidence"]["blocks"][0]["data"]["text"],
        "The photos are mine."
    );
    let changes = get_ok(
        &app,
        &format!("/api/post/{id}/revisions/compare?from={revision}&to=current"),
        Some(&admin.token),
    )
    .await;
    assert!(changes.to_string().contains("credits"), "{changes}");

    // Bad decisions change nothing.
    for (body, message) in [
        (json!({}), "decision must be accept or reject"),
        (
            json!({ "decision": "maybe" }),
            "decision must be accept or reject",
        ),
        (
            json!({ "decision": "accept", "reply": "x".repeat(2001) }),
            "Reply must be at most 2000 characters",
        ),
    ] {
        let res = decide(&app, &admin, &appeal_id, body).await;
        assert_eq!(assert_error(res, StatusCode::BAD_REQUEST).await, message);
    }
    let res = decide(&app, &admin, "nope", json!({ "decision": "accept" })).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Invalid appeal id"
    );
    let unknown = mongodb::bson::oid::ObjectId::new().to_hex();
    let res = decide(&app, &admin, &unknown, json!({ "decision": "accept" })).await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Appeal not found"
    );
    let res = app.get("/api/admin/appeals/nope", Some(&admin.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Invalid appeal id"
    );
    let res = app
        .get(&format!("/api/admin/appeals/{unknown}"), Some(&admin.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Appeal not found"
    );
    let res = app
        .get("/api/admin/appeals?status=open", Some(&admin.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "status must be one of: pending, decided, all"
    );
    let res = decide(&app, &author, &appeal_id, json!({ "decision": "accept" })).await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    assert!(post_blocked(&app, slug).await);
    assert_eq!(queue(&app, &admin, "pending").await["total"], 1);

    // Accepted with a reply: the post is back, the author is told, the log has it.
    let res = decide(
        &app,
        &admin,
        &appeal_id,
        json!({ "decision": "accept", "reply": "  Thanks for the credits.  " }),
    )
    .await;
    assert_eq!(res.status(), StatusCode::OK);
    let decided = json_of(res).await;
    assert_eq!(
        decided["message"],
        "Appeal accepted: the post is visible again"
    );
    assert_eq!(decided["appeal"]["status"], "accepted");
    assert_eq!(decided["appeal"]["reply"], "Thanks for the credits.");
    assert_eq!(decided["appeal"]["decidedBy"]["_id"], admin.id);
    assert_eq!(decided["appeal"]["postBlocked"], false);
    assert!(decided["appeal"]["decidedAt"].is_string());
    assert!(!post_blocked(&app, slug).await);
    let inbox = get_ok(&app, "/api/notification/notifications", Some(&author.token)).await;
    let told = &inbox["notifications"][0];
    assert_eq!(told["type"], "admin");
    assert_eq!(told["navigateTo"], format!("/post/{slug}"));
    assert_eq!(
        told["content"],
        "Your appeal for \"On birds\" was accepted: the post is visible again. Reply: Thanks for the credits."
    );
    let log = get_ok(&app, "/api/admin/audit-log", Some(&admin.token)).await;
    let actions: Vec<&str> = log["logs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["action"].as_str().unwrap())
        .collect();
    assert_eq!(&actions[..2], ["appeal.decide", "post.unblock"]);

    // Decided once: another administrator's decision is refused and changes nothing.
    let res = decide(&app, &second, &appeal_id, json!({ "decision": "reject" })).await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "This appeal was already decided"
    );
    assert!(!post_blocked(&app, slug).await);
    assert_eq!(queue(&app, &admin, "pending").await["total"], 0);
    let done = queue(&app, &admin, "decided").await;
    assert_eq!(done["total"], 1);
    assert_eq!(done["appeals"][0]["status"], "accepted");
    let inbox = get_ok(&app, "/api/notification/notifications", Some(&author.token)).await;
    assert_eq!(inbox["total"], 1, "told once");
}

#[actix_web::test]
async fn a_rejected_appeal_keeps_the_block_and_lifting_it_by_hand_settles_the_next() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let admin = app.admin().await;
    let post = publish(&app, &author, "Contested", "x").await;
    let (id, slug) = (
        post["_id"].as_str().unwrap(),
        post["slug"].as_str().unwrap(),
    );
    block(&app, &admin, id).await;
    let first = appeal(&app, &author, id, "Please look again").await;
    let res = decide(&app, &admin, &first, json!({ "decision": "reject" })).await;
    assert_eq!(res.status(), StatusCode::OK);
    let decided = json_of(res).await;
    assert_eq!(
        decided["message"],
        "Appeal rejected: the post stays blocked"
    );
    assert_eq!(decided["appeal"]["status"], "rejected");
    assert!(decided["appeal"]["reply"].is_null());
    assert!(post_blocked(&app, slug).await);
    let inbox = get_ok(&app, "/api/notification/notifications", Some(&author.token)).await;
    assert_eq!(
        inbox["notifications"][0]["content"],
        "Your appeal for \"Contested\" was rejected: the post stays blocked."
    );

    // The author may appeal again; an administrator then lifts the block from the posts list.
    let second = appeal(&app, &author, id, "I removed the quote").await;
    block(&app, &admin, id).await;
    assert!(!post_blocked(&app, slug).await);
    let one = get_ok(
        &app,
        &format!("/api/admin/appeals/{second}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(one["appeal"]["status"], "accepted");
    assert_eq!(one["appeal"]["decidedBy"]["_id"], admin.id);
    let all = queue(&app, &admin, "all").await;
    assert_eq!(all["total"], 2);
    assert_eq!(all["appeals"][0]["_id"], second.as_str(), "newest first");
    let inbox = get_ok(&app, "/api/notification/notifications", Some(&author.token)).await;
    assert_eq!(inbox["total"], 2);
    assert_eq!(
        inbox["notifications"][0]["content"],
        "Your appeal for \"Contested\" was accepted: the post is visible again."
    );
}

#[actix_web::test]
async fn two_administrators_deciding_at_once_make_one_decision() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let admins = [app.admin().await, app.admin().await];
    for round in 0..3 {
        let post = publish(&app, &author, &format!("Contested {round}"), "x").await;
        let (id, slug) = (
            post["_id"].as_str().unwrap(),
            post["slug"].as_str().unwrap(),
        );
        block(&app, &admins[0], id).await;
        let appeal_id = appeal(&app, &author, id, "Please").await;
        let (a, b) = futures_util::join!(
            decide(
                &app,
                &admins[0],
                &appeal_id,
                json!({ "decision": "accept" })
            ),
            decide(
                &app,
                &admins[1],
                &appeal_id,
                json!({ "decision": "reject" })
            ),
        );
        let statuses = [a.status(), b.status()];
        assert!(
            statuses.contains(&StatusCode::OK) && statuses.contains(&StatusCode::CONFLICT),
            "{statuses:?}"
        );
        let accepted = a.status() == StatusCode::OK;
        let one = get_ok(
            &app,
            &format!("/api/admin/appeals/{appeal_id}"),
            Some(&admins[0].token),
        )
        .await;
        assert_eq!(
            one["appeal"]["status"],
            if accepted { "accepted" } else { "rejected" }
        );
        assert_eq!(post_blocked(&app, slug).await, !accepted);
    }
}

#[actix_web::test]
async fn two_appeals_sent_at_once_make_one_pending_appeal() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let admin = app.admin().await;
    let post = publish(&app, &author, "Contested twice", "x").await;
    let id = post["_id"].as_str().unwrap();
    block(&app, &admin, id).await;
    let path = format!("/api/post/appeal/{id}");
    let (first, second) = (
        json!({ "message": "First" }),
        json!({ "message": "Second" }),
    );
    let (a, b) = futures_util::join!(
        app.post_json(&path, &first, Some(&author.token)),
        app.post_json(&path, &second, Some(&author.token)),
    );
    let mut statuses = [a.status(), b.status()];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::CREATED, StatusCode::CONFLICT]);
    assert_eq!(queue(&app, &admin, "pending").await["total"], 1);
}
