//! Comments: the tree, validation, reactions, and who may edit, block and delete what.

use futures_util::future::join_all;
use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::comments::*;
use crate::support::content::*;
use crate::support::engagement::{count_docs, counter, id_of, notifications_to, oid};
use crate::support::*;

#[actix_web::test]
async fn comments_form_a_tree_with_reply_counts() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let alice = app.signup().await;
    let bob = app.signup().await;
    let post = publish(&app, &author, "Discuss", "x").await;
    let pid = id_of(&post);

    let first = comment(
        &app,
        &alice,
        &pid,
        "First <b>thoughts</b><script>alert(1)</script>",
        None,
    )
    .await;
    assert_eq!(first["content"], "First <b>thoughts</b>");
    assert_eq!(first["post"], pid.as_str());
    assert_eq!(first["user"], alice.id.as_str());
    assert_eq!(first["userData"]["_id"], alice.id.as_str());
    assert_eq!(first["userData"]["name"], "Ada Lovelace");
    assert!(first["userData"].get("avatar").is_some());
    assert_eq!(first["parent"], Value::Null);
    for key in ["isFlagged", "blocked", "edited"] {
        assert_eq!(first[key], false, "{key}");
    }
    assert_eq!(first["repliesCount"], 0);
    assert_eq!(first["replies"], json!([]));
    assert_eq!(first["reactions"], json!({}));
    assert!(first["createdAt"].is_string() && first["updatedAt"].is_string());

    let second = comment(&app, &bob, &pid, "Second", None).await;
    let reply = comment(&app, &bob, &pid, "A reply", Some(&id_of(&first))).await;
    assert_eq!(reply["parent"], id_of(&first).as_str());
    let nested = comment(&app, &author, &pid, "Deeper", Some(&id_of(&reply))).await;

    let body = comments_of(&app, &pid, None).await;
    assert_eq!(body["count"], 4);
    let top = body["comments"].as_array().unwrap();
    assert_eq!(top.len(), 2);
    assert_eq!(
        top[0]["_id"],
        id_of(&second).as_str(),
        "newest top-level comment first"
    );
    assert_eq!(top[1]["_id"], id_of(&first).as_str());
    assert_eq!(top[1]["repliesCount"], 1);
    assert_eq!(top[1]["replies"][0]["_id"], id_of(&reply).as_str());
    assert_eq!(top[1]["replies"][0]["repliesCount"], 1);
    assert_eq!(
        top[1]["replies"][0]["replies"][0]["_id"],
        id_of(&nested).as_str()
    );
    assert_eq!(counter(&app, &pid, "commentsCount").await, 4);

    // The post's author hears of comments, a parent's author of replies; nobody of their own.
    assert_eq!(notifications_to(&app, &author.id, "comment").await, 3);
    assert_eq!(notifications_to(&app, &alice.id, "reply").await, 1);
    assert_eq!(notifications_to(&app, &bob.id, "reply").await, 1);
    assert_eq!(notifications_to(&app, &bob.id, "comment").await, 0);
}

/// (case, path, body, token, status, text the message holds).
type Case<'a> = (&'a str, String, Value, Option<&'a str>, StatusCode, &'a str);

#[actix_web::test]
async fn bad_comments_are_refused_with_clear_messages() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = publish(&app, &author, "Strict", "x").await;
    let other = publish(&app, &author, "Elsewhere", "x").await;
    let pid = id_of(&post);
    let foreign = comment(&app, &reader, &id_of(&other), "On the other post", None).await;
    let private = create_post(
        &app,
        &author.token,
        with(post_body("Hidden", "x"), json!({ "visibility": "Private" })),
    )
    .await;
    let long = "a".repeat(5001);
    let add = format!("/api/comment/add-comment/{pid}");
    let cases: Vec<Case> = vec![
        (
            "no content",
            add.clone(),
            json!({}),
            Some(&reader.token),
            StatusCode::BAD_REQUEST,
            "Comment cannot be empty",
        ),
        (
            "blank",
            add.clone(),
            json!({ "content": "   " }),
            Some(&reader.token),
            StatusCode::BAD_REQUEST,
            "Comment cannot be empty",
        ),
        (
            "only a script",
            add.clone(),
            json!({ "content": "<script>x</script>" }),
            Some(&reader.token),
            StatusCode::BAD_REQUEST,
            "Comment cannot be empty",
        ),
        (
            "too long",
            add.clone(),
            json!({ "content": long }),
            Some(&reader.token),
            StatusCode::BAD_REQUEST,
            "at most 5000",
        ),
        (
            "content not text",
            add.clone(),
            json!({ "content": { "$gt": "" } }),
            Some(&reader.token),
            StatusCode::BAD_REQUEST,
            "content",
        ),
        (
            "bad parent id",
            add.clone(),
            json!({ "content": "x", "parentId": "nope" }),
            Some(&reader.token),
            StatusCode::BAD_REQUEST,
            "parentId",
        ),
        (
            "unknown parent",
            add.clone(),
            json!({ "content": "x", "parentId": ObjectId::new().to_hex() }),
            Some(&reader.token),
            StatusCode::NOT_FOUND,
            "Comment not found",
        ),
        (
            "parent on another post",
            add.clone(),
            json!({ "content": "x", "parentId": id_of(&foreign) }),
            Some(&reader.token),
            StatusCode::BAD_REQUEST,
            "not on this post",
        ),
        (
            "guest",
            add.clone(),
            json!({ "content": "x" }),
            None,
            StatusCode::UNAUTHORIZED,
            "",
        ),
        (
            "unknown post",
            format!("/api/comment/add-comment/{}", ObjectId::new().to_hex()),
            json!({ "content": "x" }),
            Some(&reader.token),
            StatusCode::NOT_FOUND,
            "Post not found",
        ),
        (
            "private post",
            format!("/api/comment/add-comment/{}", id_of(&private)),
            json!({ "content": "x" }),
            Some(&reader.token),
            StatusCode::NOT_FOUND,
            "Post not found",
        ),
        (
            "bad post id",
            "/api/comment/add-comment/123".into(),
            json!({ "content": "x" }),
            Some(&reader.token),
            StatusCode::BAD_REQUEST,
            "post id",
        ),
    ];
    for (case, path, body, token, status, text) in cases {
        let res = app.post_json(&path, &body, token).await;
        let msg = assert_error(res, status).await;
        assert!(msg.contains(text), "case '{case}': {msg}");
    }
    // Exactly 5000 characters is fine.
    comment(&app, &reader, &pid, &"b".repeat(5000), None).await;
    assert_eq!(counter(&app, &pid, "commentsCount").await, 1);
    let res = app
        .get(
            &format!("/api/comment/all-comments/{}", id_of(&private)),
            Some(&reader.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
}

#[actix_web::test]
async fn who_may_edit_block_and_delete_what() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let commenter = app.signup().await;
    let stranger = app.signup().await;
    let admin = app.admin().await;
    let post = publish(&app, &author, "Moderated", "x").await;
    let pid = id_of(&post);

    // (action, who, allowed)
    let users = [
        ("comment author", &commenter),
        ("post author", &author),
        ("administrator", &admin),
        ("stranger", &stranger),
    ];
    let matrix = [
        ("edit", [true, false, false, false]),
        ("block", [false, true, true, false]),
        ("delete", [true, true, true, false]),
    ];
    for (action, allowed) in matrix {
        for ((who, user), may) in users.iter().zip(allowed) {
            let c = comment(&app, &commenter, &pid, "Target", None).await;
            let cid = id_of(&c);
            let res = match action {
                "edit" => {
                    app.put_json(
                        &format!("/api/comment/edit/{cid}"),
                        &json!({ "content": "Changed" }),
                        Some(&user.token),
                    )
                    .await
                }
                "block" => {
                    app.put_json(
                        &format!("/api/comment/block/{cid}"),
                        &json!({}),
                        Some(&user.token),
                    )
                    .await
                }
                _ => {
                    app.delete(&format!("/api/comment/delete/{cid}"), Some(&user.token))
                        .await
                }
            };
            let status = res.status();
            let body = json_of(res).await;
            let expected = if may {
                StatusCode::OK
            } else {
                StatusCode::FORBIDDEN
            };
            assert_eq!(status, expected, "{action} by the {who}: {body}");
            if may {
                match action {
                    "edit" => {
                        assert_eq!(body["comment"]["content"], "Changed");
                        assert_eq!(body["comment"]["edited"], true);
                    }
                    "block" => {
                        assert_eq!(body["comment"]["blocked"], true);
                        assert_eq!(body["comment"]["isFlagged"], true);
                    }
                    _ => assert_eq!(body["postId"], pid.as_str()),
                }
            } else {
                assert!(body["message"].is_string(), "{action} by the {who}: {body}");
            }
        }
    }
    // Nobody edits a blocked comment, not even its author.
    let c = comment(&app, &commenter, &pid, "Soon blocked", None).await;
    let cid = id_of(&c);
    app.put_json(
        &format!("/api/comment/block/{cid}"),
        &json!({}),
        Some(&author.token),
    )
    .await;
    let res = app
        .put_json(
            &format!("/api/comment/edit/{cid}"),
            &json!({ "content": "Sneaky" }),
            Some(&commenter.token),
        )
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app
        .put_json(
            &format!("/api/comment/edit/{cid}"),
            &json!({ "content": "" }),
            Some(&commenter.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    for path in [
        format!("/api/comment/edit/{}", ObjectId::new().to_hex()),
        format!("/api/comment/block/{}", ObjectId::new().to_hex()),
    ] {
        let res = app
            .put_json(&path, &json!({ "content": "x" }), Some(&author.token))
            .await;
        assert_error(res, StatusCode::NOT_FOUND).await;
    }
    let res = app
        .delete("/api/comment/delete/bad-id", Some(&author.token))
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .put_json(
            &format!("/api/comment/edit/{cid}"),
            &json!({ "content": "x" }),
            None,
        )
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}

#[actix_web::test]
async fn a_blocked_comment_hides_its_text_and_leaves_the_count() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let commenter = app.signup().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let post = publish(&app, &author, "Heated", "x").await;
    let pid = id_of(&post);
    let rude = comment(&app, &commenter, &pid, "Something rude", None).await;
    comment(&app, &reader, &pid, "Something kind", None).await;
    assert_eq!(counter(&app, &pid, "commentsCount").await, 2);

    let body = json_of(
        app.put_json(
            &format!("/api/comment/block/{}", id_of(&rude)),
            &json!({}),
            Some(&author.token),
        )
        .await,
    )
    .await;
    assert_eq!(body["message"], "Comment blocked successfully");
    assert_eq!(counter(&app, &pid, "commentsCount").await, 1);
    // Blocking again changes nothing.
    app.put_json(
        &format!("/api/comment/block/{}", id_of(&rude)),
        &json!({}),
        Some(&admin.token),
    )
    .await;
    assert_eq!(counter(&app, &pid, "commentsCount").await, 1);

    let find = |body: &Value| {
        body["comments"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["_id"] == id_of(&rude).as_str())
            .cloned()
            .unwrap()
    };
    for (who, token, sees) in [
        ("guest", None, false),
        ("another reader", Some(reader.token.as_str()), false),
        ("comment author", Some(commenter.token.as_str()), true),
        ("post author", Some(author.token.as_str()), true),
        ("administrator", Some(admin.token.as_str()), true),
    ] {
        let shown = find(&comments_of(&app, &pid, token).await);
        assert_eq!(shown["blocked"], true, "{who}");
        assert_eq!(shown["isFlagged"], true, "{who}");
        let text = shown["content"].as_str().unwrap();
        assert_eq!(text == "Something rude", sees, "{who} sees '{text}'");
    }
    // Reacting to a blocked comment is refused.
    let res = app
        .post_json(
            &format!("/api/comment/reaction/{}", id_of(&rude)),
            &json!({ "reactionType": "like" }),
            Some(&reader.token),
        )
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    // Lifting the block counts it again.
    let body = json_of(
        app.put_json(
            &format!("/api/comment/block/{}", id_of(&rude)),
            &json!({ "blocked": false }),
            Some(&author.token),
        )
        .await,
    )
    .await;
    assert_eq!(body["comment"]["blocked"], false);
    assert_eq!(counter(&app, &pid, "commentsCount").await, 2);
}

#[actix_web::test]
async fn deleting_a_comment_removes_its_replies_and_keeps_the_count_right() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let a = app.signup().await;
    let b = app.signup().await;
    let post = publish(&app, &author, "Threads", "x").await;
    let pid = id_of(&post);
    let root = comment(&app, &a, &pid, "Root", None).await;
    let r1 = comment(&app, &b, &pid, "Reply 1", Some(&id_of(&root))).await;
    comment(&app, &a, &pid, "Reply 1.1", Some(&id_of(&r1))).await;
    let blocked_reply = comment(&app, &b, &pid, "Reply 2", Some(&id_of(&root))).await;
    let keep = comment(&app, &b, &pid, "Unrelated", None).await;
    app.put_json(
        &format!("/api/comment/block/{}", id_of(&blocked_reply)),
        &json!({}),
        Some(&author.token),
    )
    .await;
    assert_eq!(counter(&app, &pid, "commentsCount").await, 4);
    let res = app
        .post_json(
            &format!("/api/comment/reaction/{}", id_of(&r1)),
            &json!({ "reactionType": "love" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);

    let res = app
        .delete(
            &format!("/api/comment/delete/{}", id_of(&root)),
            Some(&a.token),
        )
        .await;
    let body = json_of(res).await;
    assert_eq!(body["postId"], pid.as_str());
    assert_eq!(body["deletedCount"], 4);
    assert_eq!(body["commentsCount"], 1);
    assert_eq!(counter(&app, &pid, "commentsCount").await, 1);
    let left = comments_of(&app, &pid, None).await;
    assert_eq!(left["count"], 1);
    assert_eq!(left["comments"][0]["_id"], id_of(&keep).as_str());
    assert_eq!(
        count_docs(&app, "comment_reactions", doc! { "postId": oid(&pid) }).await,
        0
    );
    // Deleting it again: gone.
    let res = app
        .delete(
            &format!("/api/comment/delete/{}", id_of(&root)),
            Some(&a.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    // Deleting the post removes the rest.
    app.delete(&format!("/api/post/delete/{pid}"), Some(&author.token))
        .await;
    assert_eq!(
        count_docs(&app, "comments", doc! { "post": oid(&pid) }).await,
        0
    );
}

#[actix_web::test]
async fn reactions_toggle_per_user_and_type() {
    let app = spawn_app().await;
    app.wait_for_index("comment_reactions", "comment_user_type_unique")
        .await;
    let author = app.signup().await;
    let a = app.signup().await;
    let b = app.signup().await;
    let post = publish(&app, &author, "Reactive", "x").await;
    let c = comment(&app, &author, &id_of(&post), "React to me", None).await;
    let path = format!("/api/comment/reaction/{}", id_of(&c));

    let body = json_of(
        app.post_json(&path, &json!({ "reactionType": "like" }), Some(&a.token))
            .await,
    )
    .await;
    assert_eq!(body["reactions"], json!({ "like": [a.id] }));
    assert_eq!(body["reacted"], true);
    let body = json_of(
        app.post_json(&path, &json!({ "reactionType": "like" }), Some(&b.token))
            .await,
    )
    .await;
    assert_eq!(body["reactions"], json!({ "like": [a.id, b.id] }));
    let body = json_of(
        app.post_json(&path, &json!({ "reactionType": "love" }), Some(&a.token))
            .await,
    )
    .await;
    assert_eq!(body["reactions"]["love"], json!([a.id]));
    let body = json_of(
        app.post_json(&path, &json!({ "reactionType": "like" }), Some(&a.token))
            .await,
    )
    .await;
    assert_eq!(body["reactions"], json!({ "like": [b.id], "love": [a.id] }));
    assert_eq!(body["reacted"], false);
    let shown = comments_of(&app, &id_of(&post), None).await;
    assert_eq!(
        shown["comments"][0]["reactions"],
        json!({ "like": [b.id], "love": [a.id] })
    );

    for (case, body, token, status) in [
        (
            "unknown type",
            json!({ "reactionType": "meh" }),
            Some(&a.token),
            StatusCode::BAD_REQUEST,
        ),
        (
            "type not text",
            json!({ "reactionType": 5 }),
            Some(&a.token),
            StatusCode::BAD_REQUEST,
        ),
        (
            "guest",
            json!({ "reactionType": "like" }),
            None,
            StatusCode::UNAUTHORIZED,
        ),
    ] {
        let res = app.post_json(&path, &body, token.map(String::as_str)).await;
        assert_eq!(res.status(), status, "case '{case}'");
    }
    let res = app
        .post_json(
            &format!("/api/comment/reaction/{}", ObjectId::new().to_hex()),
            &json!({}),
            Some(&a.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;

    // Many users at once: every reaction lands.
    let users = app.signup_many(15).await;
    let results = join_all(users.iter().map(|u| {
        app.post_owned(
            path.clone(),
            json!({ "reactionType": "wow" }),
            Some(u.token.clone()),
        )
    }))
    .await;
    assert!(results.iter().all(|r| r.status() == StatusCode::OK));
    let shown = comments_of(&app, &id_of(&post), None).await;
    assert_eq!(
        shown["comments"][0]["reactions"]["wow"]
            .as_array()
            .unwrap()
            .len(),
        15
    );
}

/// Adds a comment with an `Idempotency-Key` header; the status and body.
async fn comment_with_key(
    app: &TestApp,
    user: &TestUser,
    post: &str,
    content: &str,
    key: &str,
) -> (StatusCode, Value) {
    let res = app
        .client
        .post(format!("{}/api/comment/add-comment/{post}", app.address))
        .bearer_auth(&user.token)
        .header("Idempotency-Key", key)
        .json(&json!({ "content": content }))
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, json_of(res).await)
}

#[actix_web::test]
async fn a_comment_sent_again_with_its_idempotency_key_is_stored_once() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let alice = app.signup().await;
    let bob = app.signup().await;
    let post = publish(&app, &author, "Queued", "x").await;
    let pid = id_of(&post);

    let (status, first) = comment_with_key(&app, &alice, &pid, "Written offline", "q-1").await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    assert_eq!(first["message"], "Comment added successfully");
    // Sent again (the app did not hear the answer), alone and then twice at once: the same
    // comment answers, nothing new is stored, the author is told once.
    let (status, again) = comment_with_key(&app, &alice, &pid, "Written offline", "q-1").await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(again["comment"]["_id"], first["comment"]["_id"]);
    let both = join_all([
        comment_with_key(&app, &alice, &pid, "Written offline", "q-2"),
        comment_with_key(&app, &alice, &pid, "Written offline", "q-2"),
    ])
    .await;
    assert_eq!(both[0].1["comment"]["_id"], both[1].1["comment"]["_id"]);
    assert_ne!(both[0].1["comment"]["_id"], first["comment"]["_id"]);
    assert_eq!(counter(&app, &pid, "commentsCount").await, 2);
    assert_eq!(
        count_docs(&app, "comments", doc! { "post": oid(&pid) }).await,
        2
    );
    assert_eq!(notifications_to(&app, &author.id, "comment").await, 2);
    // Another person's key is theirs alone.
    let (status, bobs) = comment_with_key(&app, &bob, &pid, "Mine", "q-1").await;
    assert_eq!(status, StatusCode::CREATED);
    assert_ne!(bobs["comment"]["_id"], first["comment"]["_id"]);
    // A key already used on another post is refused, naming why.
    let other = id_of(&publish(&app, &author, "Elsewhere", "y").await);
    let (status, body) = comment_with_key(&app, &alice, &other, "Written offline", "q-1").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["message"],
        "This Idempotency-Key was already used for a comment on another post"
    );
    assert_eq!(counter(&app, &other, "commentsCount").await, 0);
    // A key that is not one is refused and stores nothing.
    for bad in ["", "has space", &"k".repeat(129), "semi;colon"] {
        let (status, body) = comment_with_key(&app, &alice, &pid, "Never", bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad:?}: {body}");
        assert_eq!(
            body["message"],
            "Idempotency-Key must be 1 to 128 letters, digits or the characters - _ . :"
        );
    }
    assert_eq!(counter(&app, &pid, "commentsCount").await, 3);
}
