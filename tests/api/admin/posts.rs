//! The administrators' post list and delete (seed 001 §7: `GET /admin/posts?page&limit&search&
//! sortField&sortOrder` → posts, totalCount; `DELETE /admin/posts/{id}`).

use mongodb::bson::doc;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::engagement::{count_docs, oid, post_ok};
use crate::support::*;

fn titles(body: &Value) -> Vec<String> {
    body["posts"]
        .as_array()
        .unwrap_or_else(|| panic!("no posts in {body}"))
        .iter()
        .map(|p| p["title"].as_str().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn every_post_is_listed_with_its_author_and_blocked_flag() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let writer = app.signup().await;
    let res = app
        .patch_json(
            "/api/user/update-user",
            &json!({ "name": "Grace Writer" }),
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let other = app.signup().await;
    let public = publish(&app, &writer, "Banana bread", "x").await;
    create_post(
        &app,
        &writer.token,
        with(post_body("Apple draft", "x"), json!({ "status": "draft" })),
    )
    .await;
    create_post(
        &app,
        &other.token,
        with(
            post_body("Cherry secret", "x"),
            json!({ "visibility": "Private" }),
        ),
    )
    .await;
    let blocked = publish(&app, &other, "Date blocked", "x").await;
    set_blocked(&app, blocked["_id"].as_str().unwrap(), true).await;
    post_ok(
        &app,
        &format!("/api/post/like/{}", public["_id"].as_str().unwrap()),
        &json!({}),
        Some(&other.token),
    )
    .await;

    // Defaults: page 1, 10 per page, title ascending; drafts, private and blocked posts too.
    let body = get_ok(&app, "/api/admin/posts", Some(&admin.token)).await;
    assert_eq!(body["totalCount"], 4);
    assert_eq!(
        titles(&body),
        [
            "Apple draft",
            "Banana bread",
            "Cherry secret",
            "Date blocked"
        ]
    );
    let first = &body["posts"][0];
    assert_eq!(first["author"]["name"], "Grace Writer");
    assert_eq!(first["authorName"], "Grace Writer");
    assert_eq!(first["status"], "draft");
    assert_eq!(body["posts"][3]["blocked"], true);
    assert!(
        first.get("blocks").is_none(),
        "the list leaves the content out"
    );

    let by_likes = get_ok(
        &app,
        "/api/admin/posts?sortField=likes&sortOrder=desc",
        Some(&admin.token),
    )
    .await;
    assert_eq!(titles(&by_likes)[0], "Banana bread");
    let newest = get_ok(
        &app,
        "/api/admin/posts?sortField=createdAt&sortOrder=desc&limit=1&page=2",
        Some(&admin.token),
    )
    .await;
    assert_eq!(titles(&newest), ["Cherry secret"]);
    assert_eq!(newest["totalCount"], 4);
    let views = get_ok(&app, "/api/admin/posts?sortField=views", Some(&admin.token)).await;
    assert_eq!(views["posts"].as_array().unwrap().len(), 4);

    // Search: the title or the author's name, any case.
    let by_title = get_ok(&app, "/api/admin/posts?search=CHERRY", Some(&admin.token)).await;
    assert_eq!(titles(&by_title), ["Cherry secret"]);
    let by_author = get_ok(&app, "/api/admin/posts?search=grace", Some(&admin.token)).await;
    assert_eq!(titles(&by_author), ["Apple draft", "Banana bread"]);
    assert_eq!(by_author["totalCount"], 2);

    for (path, word) in [
        ("/api/admin/posts?sortField=author", "sortField"),
        ("/api/admin/posts?sortOrder=random", "sortOrder"),
        ("/api/admin/posts?page=-1", "page"),
    ] {
        let msg = assert_error(
            app.get(path, Some(&admin.token)).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert!(msg.contains(word), "{path}: {msg}");
    }
    assert_error(
        app.get("/api/admin/posts", Some(&writer.token)).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_error(
        app.get("/api/admin/posts", None).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[actix_web::test]
async fn an_administrator_deletes_any_post_like_its_author_would() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = publish(&app, &author, "Going away", "x").await;
    let id = post["_id"].as_str().unwrap();
    post_ok(
        &app,
        &format!("/api/post/like/{id}"),
        &json!({}),
        Some(&reader.token),
    )
    .await;
    let res = app
        .post_json(
            &format!("/api/comment/add-comment/{id}"),
            &json!({ "content": "hi" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);

    let path = format!("/api/admin/posts/{id}");
    assert_error(
        app.delete(&path, Some(&author.token)).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_error(app.delete(&path, None).await, StatusCode::UNAUTHORIZED).await;
    let res = app.delete(&path, Some(&admin.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    assert_eq!(body["message"], "Post deleted successfully");
    assert_eq!(body["postId"], id);
    for (collection, filter) in [
        ("posts", doc! { "_id": oid(id) }),
        ("likes", doc! { "postId": oid(id) }),
        ("comments", doc! { "post": oid(id) }),
    ] {
        assert_eq!(
            count_docs(&app, collection, filter).await,
            0,
            "{collection}"
        );
    }
    let me = get_ok(&app, "/api/user/get-user", Some(&author.token)).await;
    assert_eq!(me["data"]["totalPosts"], 0);
    let res = app.delete(&path, Some(&admin.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Post not found"
    );
    let res = app.delete("/api/admin/posts/xyz", Some(&admin.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Invalid post id"
    );
    let log = get_ok(&app, "/api/admin/audit-log", Some(&admin.token)).await;
    assert_eq!(log["logs"][0]["action"], "post.delete");
    assert_eq!(log["logs"][0]["targetLabel"], "Going away");
}
