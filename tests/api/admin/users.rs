//! User management, both families (seed 000 §7 "Users", seed 001 §7 "Administration"): the
//! list, the block and role toggles with their message rule, self and last-administrator
//! protection, and the removal of an account with everything that is theirs.

use mongodb::bson::doc;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::engagement::{count_docs, counter, oid, poll_post, post_ok};
use crate::support::*;

async fn patch_ok(app: &TestApp, path: &str, token: &str) -> Value {
    let res = app.patch_json(path, &json!({}), Some(token)).await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::OK, "PATCH {path}: {body}");
    body
}

/// The block toggles of both families.
fn block_paths(id: &str) -> [String; 2] {
    [
        format!("/api/user/toggle-block/{id}"),
        format!("/api/admin/users/block/{id}"),
    ]
}

fn role_paths(id: &str) -> [String; 2] {
    [
        format!("/api/user/toggle-role/{id}"),
        format!("/api/admin/users/role/{id}"),
    ]
}

/// Seed 001 §4: "The outcome is derived from whether the server message contains the word
/// blocked" — and "unblocked" must not pass for it.
fn says_blocked(message: &str) -> bool {
    message.contains("blocked")
}

#[actix_web::test]
async fn both_list_families_page_search_and_sort_users() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    for name in ["Zoe Quill", "adam Reed", "Maya Stone"] {
        let res = app.signup_raw(name, &unique_email(), PASSWORD, false).await;
        assert_eq!(res.status(), StatusCode::CREATED);
    }
    // Seed 000: page, limit (10), search, sortField (name), sortOrder (asc).
    let all = get_ok(&app, "/api/user/get-all-user", Some(&admin.token)).await;
    assert_eq!(all["total"], 4);
    assert_eq!(all["totalPages"], 1);
    let names: Vec<&str> = all["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap())
        .collect();
    // Name ascending by default ("Ada Lovelace" is the administrator).
    assert_eq!(
        names,
        ["Ada Lovelace", "Maya Stone", "Zoe Quill", "adam Reed"]
    );
    let first = &all["users"][0];
    for key in [
        "blocked",
        "role",
        "isEligibleForSubscription",
        "bypassSubscriptionCriteria",
        "email",
    ] {
        assert!(first.get(key).is_some(), "{key} in {first}");
    }
    assert_eq!(first["role"], "admin");

    let desc = get_ok(
        &app,
        "/api/user/get-all-user?sortField=name&sortOrder=desc&limit=2&page=1",
        Some(&admin.token),
    )
    .await;
    assert_eq!(desc["users"][0]["name"], "adam Reed");
    assert_eq!(desc["users"].as_array().unwrap().len(), 2);
    assert_eq!(desc["totalPages"], 2);

    let found = get_ok(
        &app,
        "/api/user/get-all-user?search=STONE",
        Some(&admin.token),
    )
    .await;
    assert_eq!(found["total"], 1);
    assert_eq!(found["users"][0]["name"], "Maya Stone");
    let by_email = get_ok(
        &app,
        &format!("/api/user/get-all-user?search={}", &admin.email[..12]),
        Some(&admin.token),
    )
    .await;
    assert_eq!(by_email["users"][0]["_id"], admin.id);
    // A regular expression is searched for literally.
    let literal = get_ok(&app, "/api/user/get-all-user?search=.*", Some(&admin.token)).await;
    assert_eq!(literal["total"], 0);

    // Seed 001: users, totalUsers, totalPages.
    let admin_list = get_ok(&app, "/api/admin/users?page=2&limit=3", Some(&admin.token)).await;
    assert_eq!(admin_list["totalUsers"], 4);
    assert_eq!(admin_list["totalPages"], 2);
    assert_eq!(admin_list["users"].as_array().unwrap().len(), 1);

    for (path, word) in [
        ("/api/admin/users?page=0", "page"),
        ("/api/admin/users?limit=abc", "limit"),
        ("/api/user/get-all-user?sortField=password", "sortField"),
        ("/api/user/get-all-user?sortOrder=up", "sortOrder"),
    ] {
        let msg = assert_error(
            app.get(path, Some(&admin.token)).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert!(msg.contains(word), "{path}: {msg}");
    }
}

#[actix_web::test]
async fn a_block_message_says_blocked_exactly_when_the_user_is_blocked_and_ends_their_sessions() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    for path in block_paths("ID") {
        let user = app.signup().await;
        let path = path.replace("ID", &user.id);
        let blocked = patch_ok(&app, &path, &admin.token).await;
        assert!(
            says_blocked(blocked["message"].as_str().unwrap()),
            "{blocked}"
        );
        assert_eq!(blocked["data"]["blocked"], true);
        assert_eq!(blocked["data"]["_id"], user.id);
        // Their token stopped working at once, and they cannot log in.
        let res = app.get("/api/user/get-user", Some(&user.token)).await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
        let res = app.login(&user.email, PASSWORD).await;
        assert_eq!(res.status(), StatusCode::FORBIDDEN);

        let active = patch_ok(&app, &path, &admin.token).await;
        let message = active["message"].as_str().unwrap();
        assert!(!says_blocked(message), "{message}");
        assert_eq!(active["data"]["blocked"], false);
        assert_eq!(
            app.login(&user.email, PASSWORD).await.status(),
            StatusCode::OK
        );
    }
}

#[actix_web::test]
async fn a_role_message_says_admin_exactly_when_the_user_is_an_administrator() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    for path in role_paths("ID") {
        let user = app.signup().await;
        let path = path.replace("ID", &user.id);
        let promoted = patch_ok(&app, &path, &admin.token).await;
        assert!(promoted["message"].as_str().unwrap().contains("admin"));
        assert_eq!(promoted["data"]["role"], "admin");
        // The stored role decides: their existing token now opens administrator routes.
        assert_eq!(
            app.get("/api/admin/users", Some(&user.token))
                .await
                .status(),
            StatusCode::OK
        );
        let demoted = patch_ok(&app, &path, &admin.token).await;
        let message = demoted["message"].as_str().unwrap();
        assert!(!message.contains("admin"), "{message}");
        assert_eq!(demoted["data"]["role"], "user");
        assert_eq!(
            app.get("/api/admin/users", Some(&user.token))
                .await
                .status(),
            StatusCode::FORBIDDEN
        );
    }
}

#[actix_web::test]
async fn an_administrator_cannot_block_demote_or_delete_themself() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let id = &admin.id;
    let cases = [
        (
            app.patch_json(
                &format!("/api/user/toggle-block/{id}"),
                &json!({}),
                Some(&admin.token),
            )
            .await,
            "You cannot block your own account",
        ),
        (
            app.patch_json(
                &format!("/api/admin/users/block/{id}"),
                &json!({}),
                Some(&admin.token),
            )
            .await,
            "You cannot block your own account",
        ),
        (
            app.patch_json(
                &format!("/api/admin/users/role/{id}"),
                &json!({}),
                Some(&admin.token),
            )
            .await,
            "You cannot change your own role",
        ),
        (
            app.delete(&format!("/api/admin/users/{id}"), Some(&admin.token))
                .await,
            "You cannot delete your own account",
        ),
        (
            app.client
                .delete(app.url("/api/user/delete-user"))
                .bearer_auth(&admin.token)
                .json(&json!({ "userId": id }))
                .send()
                .await
                .unwrap(),
            "You cannot delete your own account",
        ),
    ];
    for (res, expected) in cases {
        assert_eq!(assert_error(res, StatusCode::BAD_REQUEST).await, expected);
    }
    let me = get_ok(&app, "/api/user/get-user", Some(&admin.token)).await;
    assert_eq!(me["data"]["role"], "admin");
    assert_eq!(me["data"]["blocked"], false);
}

#[actix_web::test]
async fn the_last_administrator_is_never_demoted_or_deleted() {
    let app = spawn_app().await;
    let a = app.admin().await;
    let b = app.admin().await;
    // Two administrators demoting or deleting each other at the same moment: whatever the
    // interleaving, the site keeps an administrator, and every refusal is a clear 4xx.
    for round in 0..3 {
        let (to_b, to_a) = if round == 1 {
            (
                format!("/api/admin/users/{}", b.id),
                format!("/api/admin/users/{}", a.id),
            )
        } else {
            (
                format!("/api/admin/users/role/{}", b.id),
                format!("/api/admin/users/role/{}", a.id),
            )
        };
        let empty = json!({});
        let (ra, rb) = if round == 1 {
            futures_util::join!(
                app.delete(&to_b, Some(&a.token)),
                app.delete(&to_a, Some(&b.token))
            )
        } else {
            futures_util::join!(
                app.patch_json(&to_b, &empty, Some(&a.token)),
                app.patch_json(&to_a, &empty, Some(&b.token)),
            )
        };
        for res in [ra, rb] {
            let status = res.status();
            assert!(
                [
                    StatusCode::OK,
                    StatusCode::FORBIDDEN,
                    StatusCode::CONFLICT,
                    StatusCode::UNAUTHORIZED
                ]
                .contains(&status),
                "round {round}: {status}"
            );
        }
        let admins = count_docs(&app, "users", doc! { "role": "admin", "blocked": false }).await;
        assert!(admins >= 1, "round {round}: no administrator left");
        // Restore two administrators for the next round.
        for user in [&a, &b] {
            if count_docs(&app, "users", doc! { "_id": oid(&user.id) }).await == 1 {
                app.make_admin(&user.email).await;
            }
        }
        if count_docs(&app, "users", doc! { "role": "admin" }).await < 2 {
            break;
        }
    }

    // The operator's command follows the same rule.
    let app = spawn_app().await;
    let only = app.admin().await;
    let err = revoke(&app, &only.email).await.unwrap_err();
    assert!(err.to_string().contains("last administrator"), "{err}");
    let me = get_ok(&app, "/api/user/get-user", Some(&only.token)).await;
    assert_eq!(me["data"]["role"], "admin");
}

async fn revoke(app: &TestApp, email: &str) -> anyhow::Result<String> {
    use pressroom::cli::{run_admin, AdminAction, Command};
    let mut settings = app.settings.clone();
    settings.database.uri = std::env::var("PRESSROOM_TEST_MONGODB_URI").unwrap().into();
    run_admin(
        &settings,
        Command::Admin {
            action: AdminAction::Revoke {
                email: email.into(),
            },
        },
    )
    .await
}

#[actix_web::test]
async fn user_management_is_for_administrators_with_clear_errors() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let unknown = mongodb::bson::oid::ObjectId::new().to_hex();
    for path in block_paths(&unknown)
        .iter()
        .chain(role_paths(&unknown).iter())
    {
        let res = app.patch_json(path, &json!({}), Some(&admin.token)).await;
        assert_eq!(
            assert_error(res, StatusCode::NOT_FOUND).await,
            "User not found"
        );
        let res = app.patch_json(path, &json!({}), Some(&user.token)).await;
        assert_eq!(
            assert_error(res, StatusCode::FORBIDDEN).await,
            "Admin access required"
        );
        let res = app.patch_json(path, &json!({}), None).await;
        assert_error(res, StatusCode::UNAUTHORIZED).await;
    }
    let res = app
        .patch_json(
            "/api/admin/users/block/not-an-id",
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Invalid user id"
    );
    for body in [
        json!({}),
        json!({ "userId": "" }),
        json!({ "userId": { "$ne": null } }),
    ] {
        let res = app
            .client
            .delete(app.url("/api/user/delete-user"))
            .bearer_auth(&admin.token)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_error(res, StatusCode::BAD_REQUEST).await;
    }
}

#[actix_web::test]
async fn deleting_a_user_removes_everything_of_theirs_and_keeps_counters_right() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let doomed = app.signup().await;
    let author = app.signup().await;
    let friend = app.signup().await;

    // The doomed user writes, engages with someone else's post and is followed.
    let own = publish(&app, &doomed, "Mine", "soon gone").await;
    let own_id = own["_id"].as_str().unwrap().to_string();
    let theirs = poll_post(&app, &author, false, Value::Null).await;
    let post = theirs["_id"].as_str().unwrap().to_string();
    post_ok(
        &app,
        &format!("/api/post/like/{post}"),
        &json!({}),
        Some(&doomed.token),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/post/like/{post}"),
        &json!({}),
        Some(&friend.token),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/post/bookmark/{post}"),
        &json!({}),
        Some(&doomed.token),
    )
    .await;
    post_ok(
        &app,
        "/api/post/vote",
        &json!({ "postId": post, "blockId": "v1", "optionIndex": 1 }),
        Some(&doomed.token),
    )
    .await;
    let res = app
        .post_json(
            &format!("/api/comment/add-comment/{post}"),
            &json!({ "content": "First!" }),
            Some(&doomed.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let res = app
        .post_json(
            &format!("/api/comment/add-comment/{post}"),
            &json!({ "content": "Nice" }),
            Some(&friend.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    // Someone else comments on the doomed user's post.
    let res = app
        .post_json(
            &format!("/api/comment/add-comment/{own_id}"),
            &json!({ "content": "Hello" }),
            Some(&friend.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    for (path, token) in [
        (format!("/api/follow/{}", doomed.id), &friend.token),
        (format!("/api/follow/{}", author.id), &doomed.token),
    ] {
        assert_eq!(
            app.post_empty(&path, Some(token)).await.status(),
            StatusCode::OK
        );
    }
    app.block_directly(&doomed, &friend).await;
    post_ok(
        &app,
        "/api/user/save-location",
        &json!({ "coordinates": { "lat": 1.0, "lon": 2.0 }, "city": "X" }),
        Some(&doomed.token),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/post/time-spent/{post}"),
        &json!({ "duration": 30 }),
        Some(&doomed.token),
    )
    .await;
    let res = app
        .post_json(
            "/api/user/feedback/submit",
            &json!({ "rating": 4, "message": "ok" }),
            Some(&doomed.token),
        )
        .await;
    assert!(res.status().is_success());
    assert_eq!(counter(&app, &post, "likesCount").await, 2);
    assert_eq!(counter(&app, &post, "commentsCount").await, 2);
    assert_eq!(get_ok(&app, "/api/post/count/all", None).await["count"], 2);

    let res = app
        .delete(
            &format!("/api/admin/users/{}", doomed.id),
            Some(&admin.token),
        )
        .await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["message"], "User deleted successfully");
    assert_eq!(body["removed"]["posts"], 1);

    let me = oid(&doomed.id);
    for (collection, filter) in [
        ("users", doc! { "_id": me }),
        ("posts", doc! { "author": me }),
        ("comments", doc! { "user": me }),
        ("comments", doc! { "post": oid(&own_id) }),
        ("likes", doc! { "userId": me }),
        ("bookmarks", doc! { "userId": me }),
        ("poll_votes", doc! { "userId": me }),
        ("follows", doc! { "followerId": me }),
        ("follows", doc! { "followeeId": me }),
        ("blocks", doc! { "blockerId": me }),
        ("notifications", doc! { "userId": me }),
        ("notifications", doc! { "senderId": me }),
        ("user_locations", doc! { "userId": me }),
        ("user_activity", doc! { "userId": me }),
        ("feedback", doc! { "userId": me }),
        ("reading_times", doc! { "userId": me }),
    ] {
        assert_eq!(
            count_docs(&app, collection, filter.clone()).await,
            0,
            "{collection} {filter}"
        );
    }
    // Counters on the other post are right again.
    assert_eq!(counter(&app, &post, "likesCount").await, 1);
    assert_eq!(counter(&app, &post, "bookmarksCount").await, 0);
    assert_eq!(counter(&app, &post, "commentsCount").await, 1);
    let poll = get_ok(
        &app,
        &format!("/api/post/{}", theirs["slug"].as_str().unwrap()),
        None,
    )
    .await;
    let votes: i64 = poll["post"]["blocks"][1]["data"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["votes"].as_i64().unwrap())
        .sum();
    assert_eq!(votes, 0);
    assert_eq!(get_ok(&app, "/api/post/count/all", None).await["count"], 1);
    let status = get_ok(
        &app,
        &format!("/api/follow/followers?userId={}", author.id),
        Some(&author.token),
    )
    .await;
    assert_eq!(status["count"], 0);
    // Their token is dead, and the removal is in the audit log.
    assert_eq!(
        app.get("/api/user/get-user", Some(&doomed.token))
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
    let log = get_ok(&app, "/api/admin/audit-log", Some(&admin.token)).await;
    assert_eq!(log["logs"][0]["action"], "user.delete");
    assert_eq!(log["logs"][0]["targetId"], doomed.id);
    assert_eq!(log["logs"][0]["actor"]["_id"], admin.id);
    assert_eq!(log["logs"][0]["details"]["posts"], 1);

    // Seed 000's family removes an administrator too (there are two).
    let other_admin = app.signup().await;
    app.make_admin(&other_admin.email).await;
    let res = app
        .client
        .delete(app.url("/api/user/delete-user"))
        .bearer_auth(&admin.token)
        .json(&json!({ "userId": other_admin.id }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        count_docs(&app, "users", doc! { "_id": oid(&other_admin.id) }).await,
        0
    );
    let res = app
        .delete(
            &format!("/api/admin/users/{}", other_admin.id),
            Some(&admin.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "User not found"
    );
}
