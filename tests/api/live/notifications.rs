//! Notifications: the addressee's list, counts, marking, deleting, replies; administrators'
//! notices, broadcasts and history; every message of seed 000 §5.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::*;

async fn notice(app: &TestApp, admin: &TestUser, to: &TestUser, content: &str) -> Value {
    let res = app
        .post_json(
            "/api/notification/admin",
            &json!({ "userId": to.id, "content": content, "navigateTo": "/post/hello" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    json_of(res).await["notification"].clone()
}

async fn unread(app: &TestApp, user: &TestUser) -> u64 {
    let body = json_of(
        app.get("/api/notification/unread-count", Some(&user.token))
            .await,
    )
    .await;
    body["count"].as_u64().unwrap()
}

async fn mark_all_read(app: &TestApp, user: &TestUser) {
    let res = app
        .patch_json(
            "/api/notification/mark-all-as-read",
            &json!({}),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[actix_web::test]
async fn an_admin_notice_reaches_its_addressee_with_the_spec_fields() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let item = notice(&app, &admin, &user, "Welcome aboard").await;
    assert_eq!(item["type"], "admin");
    assert_eq!(item["content"], "Welcome aboard");
    assert_eq!(item["read"], false);
    assert_eq!(item["navigateTo"], "/post/hello");
    assert_eq!(item["sender"]["name"], "Ada Lovelace");
    assert_eq!(item["user"], user.id);
    assert!(item["createdAt"].as_str().unwrap().contains('T'));

    let body = json_of(
        app.get("/api/notification/notifications", Some(&user.token))
            .await,
    )
    .await;
    assert_eq!(body["total"], 1);
    assert_eq!(body["notifications"][0]["_id"], item["_id"]);
    assert_eq!(unread(&app, &user).await, 1);
    // The sender's own list is untouched.
    assert_eq!(unread(&app, &admin).await, 0);
}

#[actix_web::test]
async fn lists_are_paged_twenty_at_a_time_newest_first() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    for i in 0..23 {
        notice(&app, &admin, &user, &format!("n{i}")).await;
    }
    let first = json_of(
        app.get("/api/notification/notifications", Some(&user.token))
            .await,
    )
    .await;
    assert_eq!(first["total"], 23);
    assert_eq!(first["notifications"].as_array().unwrap().len(), 20);
    assert_eq!(first["notifications"][0]["content"], "n22");
    let second = json_of(
        app.get("/api/notification/notifications?page=2", Some(&user.token))
            .await,
    )
    .await;
    assert_eq!(second["notifications"].as_array().unwrap().len(), 3);
    assert_eq!(second["notifications"][2]["content"], "n0");
    let res = app
        .get(
            "/api/notification/notifications?page=abc",
            Some(&user.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}

#[actix_web::test]
async fn the_type_filter_pages_and_counts_on_the_server() {
    // The inbox's type=admin / type=post views: a page of one kind must not come back empty
    // while matching notifications sit on later pages of the unfiltered list.
    let app = spawn_app().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post =
        crate::support::content::publish(&app, &author, "Filtered", "Some text to like").await;
    let post_id = post["_id"].as_str().unwrap();
    let res = app
        .post_empty(&format!("/api/post/like/{post_id}"), Some(&reader.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    // The like is older than a full page of administrator notices.
    for i in 0..21 {
        notice(&app, &admin, &author, &format!("n{i}")).await;
    }
    let list = |query: &'static str| {
        let app = &app;
        let token = author.token.clone();
        async move {
            let res = app
                .get(
                    &format!("/api/notification/notifications{query}"),
                    Some(&token),
                )
                .await;
            assert_eq!(res.status(), StatusCode::OK, "{query}");
            json_of(res).await
        }
    };
    let all = list("").await;
    assert_eq!(all["total"], 22);
    assert!(all["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .all(|n| n["type"] == "admin"));

    let posts = list("?type=post").await;
    assert_eq!(posts["total"], 1);
    assert_eq!(posts["totalPages"], 1);
    assert_eq!(posts["notifications"][0]["type"], "like");
    assert_eq!(
        posts["unreadCount"], 22,
        "the unread count is over every kind"
    );
    assert_eq!(list("?type=like").await["total"], 1);

    let admins = list("?type=admin&page=2").await;
    assert_eq!(admins["total"], 21);
    assert_eq!(admins["notifications"].as_array().unwrap().len(), 1);
    assert_eq!(admins["notifications"][0]["content"], "n0");
    assert_eq!(list("?type=admin_reply").await["total"], 0);

    for bad in ["?type=everything", "?type=Admin"] {
        let res = app
            .get(
                &format!("/api/notification/notifications{bad}"),
                Some(&author.token),
            )
            .await;
        let message = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(
            message.starts_with("type must be admin, post"),
            "{bad}: {message}"
        );
    }
}

#[actix_web::test]
async fn marking_read_one_and_all_lowers_the_count() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let a = notice(&app, &admin, &user, "a").await;
    notice(&app, &admin, &user, "b").await;
    notice(&app, &admin, &user, "c").await;
    let id = a["_id"].as_str().unwrap();
    let res = app
        .patch_json(
            &format!("/api/notification/mark-as-read/{id}"),
            &json!({}),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["notification"]["read"], true);
    assert_eq!(unread(&app, &user).await, 2);
    mark_all_read(&app, &user).await;
    assert_eq!(unread(&app, &user).await, 0);
}

#[actix_web::test]
async fn only_the_addressee_reads_marks_deletes_or_replies() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let owner = app.signup().await;
    let other = app.signup().await;
    let item = notice(&app, &admin, &owner, "private").await;
    let id = item["_id"].as_str().unwrap();
    let res = app
        .patch_json(
            &format!("/api/notification/mark-as-read/{id}"),
            &json!({}),
            Some(&other.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Notification not found"
    );
    let res = app
        .delete(&format!("/api/notification/{id}"), Some(&other.token))
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    let res = app
        .post_json(
            "/api/notification/reply",
            &json!({ "notificationId": id, "content": "hi" }),
            Some(&other.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    // Still there and unread for its owner.
    assert_eq!(unread(&app, &owner).await, 1);
    let res = app
        .delete(&format!("/api/notification/{id}"), Some(&owner.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(unread(&app, &owner).await, 0);
    let res = app
        .delete(&format!("/api/notification/{id}"), Some(&owner.token))
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
}

#[actix_web::test]
async fn every_spec_message_is_the_servers() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let t = Some(user.token.as_str());
    let a = Some(admin.token.as_str());
    let cases: Vec<(&str, reqwest::Response, StatusCode, &str)> = vec![
        (
            "mark undefined",
            app.patch_json("/api/notification/mark-as-read/undefined", &json!({}), t)
                .await,
            StatusCode::BAD_REQUEST,
            "Invalid notification ID",
        ),
        (
            "mark empty",
            app.patch_json("/api/notification/mark-as-read/", &json!({}), t)
                .await,
            StatusCode::BAD_REQUEST,
            "Invalid notification ID",
        ),
        (
            "mark garbage",
            app.patch_json("/api/notification/mark-as-read/xyz", &json!({}), t)
                .await,
            StatusCode::BAD_REQUEST,
            "Invalid notification ID",
        ),
        (
            "delete undefined",
            app.delete("/api/notification/undefined", t).await,
            StatusCode::BAD_REQUEST,
            "Invalid notification ID",
        ),
        (
            "delete empty",
            app.delete("/api/notification/", t).await,
            StatusCode::BAD_REQUEST,
            "Invalid notification ID",
        ),
        (
            "admin no user",
            app.post_json("/api/notification/admin", &json!({ "content": "x" }), a)
                .await,
            StatusCode::BAD_REQUEST,
            "Missing userId or content",
        ),
        (
            "admin blank content",
            app.post_json(
                "/api/notification/admin",
                &json!({ "userId": user.id, "content": "  " }),
                a,
            )
            .await,
            StatusCode::BAD_REQUEST,
            "Missing userId or content",
        ),
        (
            "broadcast",
            app.post_json("/api/notification/broadcast", &json!({}), a)
                .await,
            StatusCode::BAD_REQUEST,
            "Content is required",
        ),
        (
            "reply no id",
            app.post_json("/api/notification/reply", &json!({ "content": "x" }), t)
                .await,
            StatusCode::BAD_REQUEST,
            "Missing notificationId or content",
        ),
        (
            "reply no content",
            app.post_json(
                "/api/notification/reply",
                &json!({ "notificationId": "abc" }),
                t,
            )
            .await,
            StatusCode::BAD_REQUEST,
            "Missing notificationId or content",
        ),
        (
            "history empty",
            app.get("/api/notification/user/", a).await,
            StatusCode::BAD_REQUEST,
            "Missing userId",
        ),
        (
            "history undefined",
            app.get("/api/notification/user/undefined", a).await,
            StatusCode::BAD_REQUEST,
            "Missing userId",
        ),
        (
            "list guest",
            app.get("/api/notification/notifications", None).await,
            StatusCode::UNAUTHORIZED,
            "User not authenticated",
        ),
        (
            "count guest",
            app.get("/api/notification/unread-count", None).await,
            StatusCode::UNAUTHORIZED,
            "User not authenticated",
        ),
        (
            "admin by user",
            app.post_json(
                "/api/notification/admin",
                &json!({ "userId": user.id, "content": "x" }),
                t,
            )
            .await,
            StatusCode::FORBIDDEN,
            "Admin access required",
        ),
        (
            "broadcast by user",
            app.post_json("/api/notification/broadcast", &json!({ "content": "x" }), t)
                .await,
            StatusCode::FORBIDDEN,
            "Admin access required",
        ),
        (
            "history by user",
            app.get(&format!("/api/notification/user/{}", user.id), t)
                .await,
            StatusCode::FORBIDDEN,
            "Admin access required",
        ),
        (
            "admin to nobody",
            app.post_json(
                "/api/notification/admin",
                &json!({ "userId": "64b000000000000000000000", "content": "x" }),
                a,
            )
            .await,
            StatusCode::NOT_FOUND,
            "User not found",
        ),
        (
            "admin open redirect",
            app.post_json(
                "/api/notification/admin",
                &json!({ "userId": user.id, "content": "x", "navigateTo": "https://evil.example" }),
                a,
            )
            .await,
            StatusCode::BAD_REQUEST,
            "navigateTo must be a path inside the site, starting with /",
        ),
        (
            "admin operator",
            app.post_json(
                "/api/notification/admin",
                &json!({ "userId": { "$ne": null }, "content": "x" }),
                a,
            )
            .await,
            StatusCode::BAD_REQUEST,
            "Invalid value for 'userId'",
        ),
    ];
    for (name, res, status, message) in cases {
        assert_eq!(res.status(), status, "case {name}");
        let body = json_of(res).await;
        let got = body["message"].as_str().unwrap_or_default();
        assert!(got.starts_with(message), "case {name}: {got}");
        assert!(body["code"].is_string(), "case {name}");
    }
}

#[actix_web::test]
async fn a_broadcast_reaches_every_user_but_the_sender() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let a = app.signup().await;
    let b = app.signup().await;
    let res = app
        .post_json(
            "/api/notification/broadcast",
            &json!({ "content": "Maintenance at noon" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let body = json_of(res).await;
    assert_eq!(body["count"], 2);
    let job = wait_for_job(&app, &admin, body["jobId"].as_str().unwrap()).await;
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(job["message"], "Notification sent to 2 users");
    assert_eq!(job["done"], 2);
    for user in [&a, &b] {
        let body = json_of(
            app.get("/api/notification/notifications", Some(&user.token))
                .await,
        )
        .await;
        assert_eq!(body["notifications"][0]["content"], "Maintenance at noon");
        assert_eq!(body["notifications"][0]["type"], "admin");
    }
    assert_eq!(unread(&app, &admin).await, 0);
}

#[actix_web::test]
async fn a_reply_goes_back_to_the_sender_and_the_admin_sees_the_history() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let item = notice(&app, &admin, &user, "Please fix your post").await;
    let res = app
        .post_json(
            "/api/notification/reply",
            &json!({ "notificationId": item["_id"], "content": "Done, thanks" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let reply = json_of(res).await["notification"].clone();
    assert_eq!(reply["type"], "admin_reply");
    assert_eq!(reply["user"], admin.id);
    assert_eq!(reply["replyTo"], item["_id"]);
    let admin_list = json_of(
        app.get("/api/notification/notifications", Some(&admin.token))
            .await,
    )
    .await;
    assert_eq!(admin_list["notifications"][0]["content"], "Done, thanks");
    assert_eq!(admin_list["notifications"][0]["sender"]["_id"], user.id);

    let history = json_of(
        app.get(
            &format!("/api/notification/user/{}", user.id),
            Some(&admin.token),
        )
        .await,
    )
    .await;
    assert_eq!(history["notifications"].as_array().unwrap().len(), 1);
    assert_eq!(
        history["notifications"][0]["content"],
        "Please fix your post"
    );
}

#[actix_web::test]
async fn a_reply_to_a_notice_reaches_the_administrator_across_a_block() {
    // Moderation is never silenced by a block, in either direction.
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let item = notice(&app, &admin, &user, "hello").await;
    app.block_directly(&user, &admin).await;
    app.block_directly(&admin, &user).await;
    let res = app
        .post_json(
            "/api/notification/reply",
            &json!({ "notificationId": item["_id"], "content": "x" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(unread(&app, &admin).await, 1);
}

#[actix_web::test]
async fn only_an_administrators_notice_can_be_replied_to() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = crate::support::content::publish(&app, &author, "Likeable", "x").await;
    let res = app
        .post_empty(
            &format!("/api/post/like/{}", post["_id"].as_str().unwrap()),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let list = json_of(
        app.get("/api/notification/notifications", Some(&author.token))
            .await,
    )
    .await;
    let like = &list["notifications"][0];
    assert_eq!(like["type"], "like");
    let res = app
        .post_json(
            "/api/notification/reply",
            &json!({ "notificationId": like["_id"], "content": "thanks" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Only notices from an administrator can be replied to"
    );
    assert_eq!(unread(&app, &reader).await, 0);
}

#[actix_web::test]
async fn an_appeal_reaches_administrators_even_when_they_blocked_each_other() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let post = crate::support::content::publish(&app, &author, "Blocked one", "x").await;
    let id = post["_id"].as_str().unwrap();
    crate::support::content::set_blocked(&app, id, true).await;
    app.block_directly(&admin, &author).await;
    app.block_directly(&author, &admin).await;
    let res = app
        .post_json(
            &format!("/api/post/appeal/{id}"),
            &json!({ "message": "Please look again" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let list = json_of(
        app.get("/api/notification/notifications", Some(&admin.token))
            .await,
    )
    .await;
    assert_eq!(list["notifications"][0]["type"], "appeal");
    assert_eq!(list["notifications"][0]["content"], "Please look again");
}

/// The unread count is kept in Redis between requests; whatever happens to a person's
/// notifications, it equals what the store holds — marking one read twice, deleting a read one,
/// deleting an unread one, marking all read, a new one after that.
#[actix_web::test]
async fn the_kept_unread_count_always_equals_the_stores() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let uid = mongodb::bson::oid::ObjectId::parse_str(&user.id).unwrap();
    let (app, admin, user) = (&app, &admin, &user);
    let truth = || async move {
        pressroom::persistence::notifications::count_unread(&app.db, uid)
            .await
            .unwrap()
    };
    let check = |step: &'static str| async move {
        let (kept, stored) = (unread(app, user).await, truth().await);
        assert_eq!(kept, stored, "after {step}");
        kept
    };
    assert_eq!(check("nothing").await, 0);
    let a = notice(app, admin, user, "a").await;
    let b = notice(app, admin, user, "b").await;
    notice(app, admin, user, "c").await;
    assert_eq!(check("three notices").await, 3);
    let mark = |n: &Value| {
        let path = format!(
            "/api/notification/mark-as-read/{}",
            n["_id"].as_str().unwrap()
        );
        async move {
            let res = app.patch_json(&path, &json!({}), Some(&user.token)).await;
            assert_eq!(res.status(), StatusCode::OK);
        }
    };
    mark(&a).await;
    assert_eq!(check("one read").await, 2);
    mark(&a).await;
    assert_eq!(check("the same one read again").await, 2);
    let delete = |n: &Value| {
        let path = format!("/api/notification/{}", n["_id"].as_str().unwrap());
        async move {
            let res = app.delete(&path, Some(&user.token)).await;
            assert_eq!(res.status(), StatusCode::OK);
        }
    };
    delete(&a).await;
    assert_eq!(check("a read one deleted").await, 2);
    delete(&b).await;
    assert_eq!(check("an unread one deleted").await, 1);
    notice(app, admin, user, "d").await;
    assert_eq!(check("another notice").await, 2);
    mark_all_read(app, user).await;
    assert_eq!(check("all read").await, 0);
    notice(app, admin, user, "e").await;
    assert_eq!(check("a notice after all read").await, 1);
    // The number answered is the one kept in Redis, not a count of the store.
    let key = app.state.redis.key(&format!("unread:{}", user.id));
    let kept: Option<u64> = app
        .state
        .redis
        .run(|mut c| async move {
            deadpool_redis::redis::cmd("GET")
                .arg(key)
                .query_async(&mut c)
                .await
        })
        .await
        .unwrap();
    assert_eq!(kept, Some(1));
}
