//! Search: minimum length, literal matching, fields searched, visibility, and user search.

use reqwest::StatusCode;
use serde_json::json;

use crate::content::*;
use crate::helpers::*;

#[actix_web::test]
async fn a_query_shorter_than_three_characters_is_refused() {
    let app = spawn_app().await;
    for path in [
        "/api/post/search-post/search",
        "/api/post/search-post/search?query=ab",
        "/api/post/search-post/search?query=%20a%20%20",
        "/api/public/search-posts?query=ab",
        "/api/post/search-users?query=ab",
    ] {
        let msg = assert_error(app.get(path, None).await, StatusCode::BAD_REQUEST).await;
        assert!(msg.contains("at least 3 characters"), "case {path}: {msg}");
    }
}

#[actix_web::test]
async fn queries_match_literally_and_case_insensitively_over_title_tags_and_text() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let cpp = publish(&app, &user, "C++ Tips", "pointers").await;
    let cxx = publish(&app, &user, "Cxx Tips", "templates").await;
    let tagged = create_post(
        &app,
        &user.token,
        with(
            post_body("Untitled", "nothing"),
            json!({ "tags": ["Gardening"] }),
        ),
    )
    .await;
    let texty = publish(&app, &user, "Plain", "The QUICK brown (fox) jumps").await;
    let id = |p: &serde_json::Value| p["_id"].as_str().unwrap().to_string();
    let cases = [
        ("c%2B%2B", vec![id(&cpp)]),
        ("C%2B%2B%20tips", vec![id(&cpp)]),
        ("tips", vec![id(&cxx), id(&cpp)]),
        ("c.x", vec![]),
        ("c..", vec![]),
        ("garden", vec![id(&tagged)]),
        ("quick%20brown", vec![id(&texty)]),
        ("(fox)", vec![id(&texty)]),
        ("%5Bfox", vec![]),
        ("fox)%7C.*", vec![]),
        ("%5E%24%5C", vec![]),
    ];
    for (query, expected) in cases {
        for path in ["/api/post/search-post/search", "/api/public/search-posts"] {
            let body = get_ok(&app, &format!("{path}?query={query}"), None).await;
            assert_eq!(ids_of(&body), expected, "case {query} via {path}");
            assert_eq!(body["total"], expected.len(), "case {query} via {path}");
        }
    }
    let body = get_ok(
        &app,
        "/api/public/search-posts?query=tips&page=2&limit=1",
        None,
    )
    .await;
    assert_eq!(body["page"], 2);
    assert_eq!(ids_of(&body), [id(&cpp)]);
    let body = get_ok(
        &app,
        &format!(
            "/api/post/search-post/search?query=tips&authorId={}",
            user.id
        ),
        None,
    )
    .await;
    assert_eq!(body["total"], 2);
}

#[actix_web::test]
async fn search_never_shows_others_hidden_posts() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let other = app.signup().await;
    let admin = admin(&app).await;
    let make =
        |title: &str, extra: serde_json::Value| with(post_body(title, "secret words"), extra);
    let public = create_post(&app, &author.token, make("Zebra public", json!({}))).await;
    create_post(
        &app,
        &author.token,
        make("Zebra private", json!({ "visibility": "Private" })),
    )
    .await;
    create_post(
        &app,
        &author.token,
        make("Zebra unlisted", json!({ "visibility": "Unlisted" })),
    )
    .await;
    create_post(
        &app,
        &author.token,
        make("Zebra draft", json!({ "status": "draft" })),
    )
    .await;
    let blocked = create_post(&app, &author.token, make("Zebra blocked", json!({}))).await;
    set_blocked(&app, blocked["_id"].as_str().unwrap(), true).await;

    for (viewer, token) in [
        ("guest", None),
        ("other", Some(other.token.as_str())),
        ("admin", Some(admin.token.as_str())),
    ] {
        let body = get_ok(&app, "/api/post/search-post/search?query=zebra", token).await;
        assert_eq!(
            ids_of(&body),
            [public["_id"].as_str().unwrap()],
            "case {viewer}"
        );
        let body = get_ok(&app, "/api/public/search-posts?query=zebra", token).await;
        assert_eq!(body["total"], 1, "case public search for {viewer}");
    }
    let own = get_ok(
        &app,
        "/api/post/search-post/search?query=zebra",
        Some(&author.token),
    )
    .await;
    assert_eq!(own["total"], 5, "an author finds all their own posts");
    let public_only = get_ok(
        &app,
        "/api/public/search-posts?query=zebra",
        Some(&author.token),
    )
    .await;
    assert_eq!(public_only["total"], 1);
}

#[actix_web::test]
async fn users_are_found_by_name_or_exact_email() {
    let app = spawn_app().await;
    let email = unique_email();
    let user = app.signup_as(&email).await;
    publish(&app, &user, "One", "x").await;
    let body = get_ok(&app, "/api/post/search-users?query=lovel", None).await;
    let users = body["users"].as_array().unwrap();
    let hit = users
        .iter()
        .find(|u| u["_id"] == user.id.as_str())
        .expect("found by name");
    assert_eq!(hit["name"], "Ada Lovelace");
    assert_eq!(hit["totalPosts"], 1);
    assert_eq!(
        hit["email"],
        serde_json::Value::Null,
        "no email for a name match"
    );
    assert!(hit.get("passwordHash").is_none() && hit.get("role").is_none());

    let body = get_ok(
        &app,
        &format!("/api/post/search-users?query={}", email.to_uppercase()),
        None,
    )
    .await;
    assert_eq!(body["users"][0]["_id"], user.id);
    assert_eq!(body["users"][0]["email"], email);
    let body = get_ok(&app, "/api/post/search-users?query=example.com", None).await;
    assert_eq!(body["users"], json!([]), "a partial email finds nobody");
    let body = get_ok(&app, "/api/post/search-users?query=.*.*", None).await;
    assert_eq!(body["users"], json!([]));
}
