//! Categories: listing, creation and its slug rules, ownership of changes, the default set,
//! slug availability and each user's selection.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::*;

async fn create_category(app: &TestApp, token: &str, body: Value) -> Value {
    let res = app.post_json("/api/category/", &body, Some(token)).await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["category"].clone()
}

#[actix_web::test]
async fn a_signed_in_user_creates_a_category_and_becomes_its_creator() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let category = create_category(
        &app,
        &user.token,
        json!({ "name": "  Web   Design ", "slug": "web-design", "description": " Layout " }),
    )
    .await;
    assert_eq!(category["name"], "Web Design");
    assert_eq!(category["slug"], "web-design");
    assert_eq!(category["description"], "Layout");
    assert_eq!(category["createdBy"], user.id);
    assert!(category["_id"].is_string());

    let all = get_ok(&app, "/api/category/all-category", None).await;
    assert_eq!(all["categories"].as_array().unwrap().len(), 1);
    // No slug given: one is made from the name.
    let derived = create_category(&app, &user.token, json!({ "name": "Café Culture" })).await;
    assert_eq!(derived["slug"], "cafe-culture");
}

#[actix_web::test]
async fn guests_cannot_create_categories() {
    let app = spawn_app().await;
    let res = app
        .post_json(
            "/api/category/",
            &json!({ "name": "X", "slug": "xx" }),
            None,
        )
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}

#[actix_web::test]
async fn category_slugs_and_names_follow_the_rules() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let cases = [
        (
            "uppercase",
            json!({ "name": "A", "slug": "Tech" }),
            "lowercase",
        ),
        (
            "space",
            json!({ "name": "A", "slug": "web design" }),
            "lowercase",
        ),
        (
            "underscore",
            json!({ "name": "A", "slug": "web_design" }),
            "lowercase",
        ),
        (
            "double hyphen",
            json!({ "name": "A", "slug": "web--design" }),
            "lowercase",
        ),
        (
            "leading hyphen",
            json!({ "name": "A", "slug": "-web" }),
            "lowercase",
        ),
        ("too short", json!({ "name": "A", "slug": "a" }), "between"),
        (
            "too long",
            json!({ "name": "A", "slug": "a".repeat(61) }),
            "between",
        ),
        (
            "empty name",
            json!({ "name": "   ", "slug": "ok-slug" }),
            "name is required",
        ),
        (
            "long name",
            json!({ "name": "n".repeat(51), "slug": "ok-slug" }),
            "at most 50",
        ),
        (
            "operator as name",
            json!({ "name": { "$ne": null }, "slug": "ok-slug" }),
            "'name'",
        ),
        (
            "long description",
            json!({ "name": "A", "slug": "ok-slug", "description": "d".repeat(501) }),
            "at most 500",
        ),
    ];
    for (case, body, expected) in cases {
        let res = app
            .post_json("/api/category/", &body, Some(&user.token))
            .await;
        let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(
            msg.to_lowercase().contains(&expected.to_lowercase()),
            "case {case}: {msg}"
        );
    }
    let all = get_ok(&app, "/api/category/all-category", None).await;
    assert_eq!(all["categories"], json!([]), "nothing was created");
}

#[actix_web::test]
async fn a_taken_slug_is_a_conflict() {
    let app = spawn_app().await;
    let user = app.signup().await;
    create_category(&app, &user.token, json!({ "name": "Tech", "slug": "tech" })).await;
    let res = app
        .post_json(
            "/api/category/",
            &json!({ "name": "Technology", "slug": "tech" }),
            Some(&user.token),
        )
        .await;
    let msg = assert_error(res, StatusCode::CONFLICT).await;
    assert!(msg.contains("slug"), "{msg}");
}

#[actix_web::test]
async fn only_the_creator_or_an_admin_changes_or_deletes_a_category() {
    let app = spawn_app().await;
    let creator = app.signup().await;
    let other = app.signup().await;
    let admin = app.admin().await;
    let cat = create_category(
        &app,
        &creator.token,
        json!({ "name": "Tech", "slug": "tech" }),
    )
    .await;
    let path = format!("/api/category/{}", cat["_id"].as_str().unwrap());

    let res = app
        .patch_json(&path, &json!({ "name": "Mine" }), Some(&other.token))
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app.delete(&path, Some(&other.token)).await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app.patch_json(&path, &json!({ "name": "X" }), None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;

    let res = app
        .patch_json(
            &path,
            &json!({ "name": "Technology", "description": "All tech" }),
            Some(&creator.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    assert_eq!(body["category"]["name"], "Technology");
    assert_eq!(body["category"]["slug"], "tech");

    let res = app
        .patch_json(&path, &json!({ "slug": "Bad Slug" }), Some(&admin.token))
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .patch_json(&path, &json!({ "slug": "tech-news" }), Some(&admin.token))
        .await;
    assert_eq!(json_of(res).await["category"]["slug"], "tech-news");

    let res = app.delete(&path, Some(&admin.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(json_of(res).await["message"].is_string());
    let res = app.delete(&path, Some(&admin.token)).await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    let res = app
        .delete("/api/category/not-an-id", Some(&admin.token))
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}

#[actix_web::test]
async fn seeding_is_for_admins_and_happens_once() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let admin = app.admin().await;
    let res = app
        .post_json("/api/category/seed", &json!({}), Some(&user.token))
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app.post_json("/api/category/seed", &json!({}), None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;

    let res = app
        .post_json("/api/category/seed", &json!({}), Some(&admin.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(json_of(res).await["message"].is_string());
    let first = get_ok(&app, "/api/category/all-category", None).await["categories"].clone();
    let count = first.as_array().unwrap().len();
    assert!(count >= 10, "{count} defaults");
    assert!(first
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["createdBy"].is_null()));

    let res = app
        .post_json("/api/category/seed", &json!({}), Some(&admin.token))
        .await;
    assert_eq!(json_of(res).await["added"], 0);
    let second = get_ok(&app, "/api/category/all-category", None).await["categories"].clone();
    assert_eq!(second.as_array().unwrap().len(), count);
}

#[actix_web::test]
async fn check_slug_answers_availability() {
    let app = spawn_app().await;
    let user = app.signup().await;
    create_category(&app, &user.token, json!({ "name": "Tech", "slug": "tech" })).await;
    let cases = [
        ("/api/category/check-slug?slug=tech&type=category", false),
        ("/api/category/check-slug?slug=science&type=category", true),
        ("/api/category/check-slug?slug=science", true),
        (
            "/api/category/check-slug?slug=Bad%20Slug&type=category",
            false,
        ),
    ];
    for (path, available) in cases {
        let body = get_ok(&app, path, None).await;
        assert_eq!(body["isAvailable"], available, "case {path}");
    }
    assert_error(
        app.get("/api/category/check-slug?type=category", None)
            .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    publish(&app, &user, "Taken title", "text").await;
    let body = get_ok(
        &app,
        "/api/category/check-slug?slug=taken-title&type=post",
        None,
    )
    .await;
    assert_eq!(body["isAvailable"], false);
}

#[actix_web::test]
async fn a_user_replaces_their_own_selection_only() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let other = app.signup().await;
    let tech = create_category(&app, &user.token, json!({ "name": "Tech", "slug": "tech" })).await;
    let art = create_category(&app, &other.token, json!({ "name": "Art", "slug": "art" })).await;

    let path = format!("/api/category/users/{}/categories", user.id);
    let body = json!({
        "categoryIds": [art["_id"], tech["_id"], art["_id"]],
        "newCategories": [{ "name": "Travel Notes" }],
    });
    let res = app.post_json(&path, &body, Some(&user.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let chosen = json_of(res).await["categories"].clone();
    let slugs: Vec<&str> = chosen
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["slug"].as_str().unwrap())
        .collect();
    assert_eq!(slugs, ["art", "tech", "travel-notes"]);
    assert_eq!(chosen[2]["createdBy"], user.id);

    let mine = get_ok(&app, "/api/category/user-selected", Some(&user.token)).await;
    assert_eq!(mine["categories"], chosen);
    let theirs = get_ok(&app, "/api/category/user-selected", Some(&other.token)).await;
    assert_eq!(theirs["categories"], json!([]));
    assert_error(
        app.get("/api/category/user-selected", None).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;

    // Someone else's selection: 403, and nothing changes.
    let res = app
        .post_json(&path, &json!({ "categoryIds": [] }), Some(&other.token))
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app
        .post_json(
            &format!("/api/category/users/{}/categories", user.id),
            &json!({ "categoryIds": [] }),
            None,
        )
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    // Unknown or malformed ids: 400.
    for (case, ids) in [
        ("unknown", json!(["64b7f0000000000000000000"])),
        ("malformed", json!(["x"])),
    ] {
        let res = app
            .post_json(&path, &json!({ "categoryIds": ids }), Some(&user.token))
            .await;
        assert_error(res, StatusCode::BAD_REQUEST).await;
        let mine = get_ok(&app, "/api/category/user-selected", Some(&user.token)).await;
        assert_eq!(
            mine["categories"].as_array().unwrap().len(),
            3,
            "case {case}"
        );
    }

    // Deleting a category takes it out of selections.
    let res = app
        .delete(
            &format!("/api/category/{}", tech["_id"].as_str().unwrap()),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let mine = get_ok(&app, "/api/category/user-selected", Some(&user.token)).await;
    assert_eq!(mine["categories"].as_array().unwrap().len(), 2);
}

#[actix_web::test]
async fn posts_show_their_category_and_a_deleted_category_leaves_them_without_one() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let tech = create_category(&app, &user.token, json!({ "name": "Tech", "slug": "tech" })).await;
    let post = create_post(
        &app,
        &user.token,
        with(
            post_body("Filed", "text"),
            json!({ "category": tech["_id"] }),
        ),
    )
    .await;
    assert_eq!(
        post["category"],
        json!({ "_id": tech["_id"], "name": "Tech", "slug": "tech" })
    );
    let by_slug = get_ok(&app, "/api/post/public/posts?category=tech", None).await;
    assert_eq!(by_slug["total"], 1);
    let res = app
        .post_json(
            "/api/post/post-create",
            &with(post_body("Lost", "x"), json!({ "category": "nope" })),
            Some(&user.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;

    app.delete(
        &format!("/api/category/{}", tech["_id"].as_str().unwrap()),
        Some(&user.token),
    )
    .await;
    let read = get_ok(
        &app,
        &format!("/api/post/public/{}", post["slug"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(read["post"]["category"], Value::Null);
}

/// Found by schemathesis: changing a category's slug to one a seeded category has, with the
/// seeded category's description, answered 500.
#[actix_web::test]
async fn changing_a_slug_to_a_taken_one_is_a_conflict_not_a_server_error() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let res = app
        .post_json("/api/category/seed", &json!({}), Some(&admin.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .post_json(
            "/api/category",
            &json!({ "name": "Mine", "slug": "mine" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let id = json_of(res).await["category"]["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .patch_json(
            &format!("/api/category/{id}"),
            &json!({ "slug": "business", "name": null,
                     "description": "Home, fashion, relationships and everyday life." }),
            Some(&admin.token),
        )
        .await;
    assert_error(res, StatusCode::CONFLICT).await;
}
