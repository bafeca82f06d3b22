//! Search: minimum length, literal matching, fields searched, visibility, and user search; the
//! search index's ranking, how it follows writes, its rebuild, and the database fallback.

use std::time::{Duration, Instant};

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use pressroom::domain::blocks::Block;
use pressroom::domain::post::{Audience, PostStatus, Visibility};
use pressroom::domain::search::search_text_for;
use pressroom::persistence::posts::{self, Post};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::*;

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
    let admin = app.admin().await;
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

/// Waits until search is answered by the search index (not the database fallback).
async fn index_ready(app: &TestApp) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !(app.state.search.posts_ready() && app.state.search.users_ready()) {
        assert!(Instant::now() < deadline, "the search index is not in use");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn id(p: &Value) -> String {
    p["_id"].as_str().unwrap().to_string()
}

async fn found(app: &TestApp, query: &str, token: Option<&str>) -> Vec<String> {
    let body = get_ok(
        app,
        &format!("/api/post/search-post/search?query={}", urlencode(query)),
        token,
    )
    .await;
    let ids = ids_of(&body);
    assert_eq!(body["total"], ids.len(), "total of {query}");
    ids
}

#[actix_web::test]
async fn the_index_finds_by_a_word_of_the_text_and_ranks_a_title_match_first() {
    let app = spawn_app().await;
    index_ready(&app).await;
    let user = app.signup().await;
    // Older title match, newer text-only match: relevance puts the title first (the database
    // fallback, newest first, would not).
    let titled = publish(&app, &user, "Walrus habits", "notes from the shore").await;
    let texty = publish(&app, &user, "Shore notes", "we saw one walrus today").await;
    publish(&app, &user, "Unrelated", "nothing of the kind").await;
    assert_eq!(found(&app, "walrus", None).await, [id(&titled), id(&texty)]);
    assert_eq!(found(&app, "today", None).await, [id(&texty)]);
    assert_eq!(found(&app, "WALRUS HAB", None).await, [id(&titled)]);
    // Equal relevance: the newest first.
    let a = publish(&app, &user, "Otter one", "x").await;
    let b = publish(&app, &user, "Otter two", "x").await;
    assert_eq!(found(&app, "otter", None).await, [id(&b), id(&a)]);
    // Guests' search pages the same order.
    let body = get_ok(
        &app,
        "/api/public/search-posts?query=walrus&limit=1&page=2",
        None,
    )
    .await;
    assert_eq!(ids_of(&body), [id(&texty)]);
    assert_eq!(body["total"], 2);
    assert!(app.state.search.posts_ready(), "the index answered");
}

#[actix_web::test]
async fn query_characters_are_taken_literally_by_the_index() {
    let app = spawn_app().await;
    index_ready(&app).await;
    let user = app.signup().await;
    let marked = publish(
        &app,
        &user,
        "Pattern a.*b",
        r#"she said "hello" (twice) in C:\temp"#,
    )
    .await;
    publish(&app, &user, "Plain words", "alpha beta gamma").await;
    publish(&app, &user, "More plain words", "delta").await;
    for (query, expected) in [
        ("a.*b", vec![id(&marked)]),
        (".*.*", vec![]),
        ("a.*", vec![id(&marked)]),
        ("(twice)", vec![id(&marked)]),
        ("(((", vec![]),
        ("\"hello\"", vec![id(&marked)]),
        ("\"\"\"", vec![]),
        (r"C:\temp", vec![id(&marked)]),
        (r"\\\", vec![]),
        ("words AND delta", vec![]),
        ("alpha OR x", vec![]),
        ("title:plain", vec![]),
        ("w*rds", vec![]),
        ("[a-z]+", vec![]),
    ] {
        assert_eq!(found(&app, query, None).await, expected, "case {query}");
    }
    assert!(app.state.search.posts_ready(), "the index answered");
}

#[actix_web::test]
async fn the_index_follows_every_kind_of_write_and_shows_no_one_what_they_may_not_see() {
    let app = spawn_app().await;
    index_ready(&app).await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let post = publish(&app, &author, "Heron watching", "long legs").await;
    let slug = post["slug"].as_str().unwrap().to_string();
    let hid = id(&post);
    let patch = |body: Value| {
        let app = &app;
        let token = author.token.clone();
        let slug = slug.clone();
        async move {
            let res = app
                .patch_json(&format!("/api/post/update/{slug}"), &body, Some(&token))
                .await;
            assert_eq!(res.status(), StatusCode::OK);
        }
    };
    let everyone = [
        ("guest", None),
        ("reader", Some(reader.token.as_str())),
        ("admin", Some(admin.token.as_str())),
    ];
    assert_eq!(found(&app, "heron", None).await, vec![hid.clone()]);

    // Edited: the old words leave, the new ones (title, tags, text) come.
    patch(json!({ "title": "Egret watching", "tags": ["Wading"], "blocks": [paragraph("p1", "white plumes")] })).await;
    assert!(found(&app, "heron", None).await.is_empty());
    for q in ["egret", "wading", "plumes"] {
        assert_eq!(found(&app, q, None).await, vec![hid.clone()], "case {q}");
    }

    // Private, unlisted, draft: only the author finds it.
    for (case, body) in [
        ("private", json!({ "visibility": "Private" })),
        ("unlisted", json!({ "visibility": "Unlisted" })),
        (
            "draft",
            json!({ "visibility": "Public", "status": "draft" }),
        ),
    ] {
        patch(body).await;
        for (who, token) in everyone {
            assert!(
                found(&app, "egret", token).await.is_empty(),
                "case {case} for {who}"
            );
        }
        assert_eq!(
            found(&app, "egret", Some(&author.token)).await,
            vec![hid.clone()],
            "case {case}"
        );
    }
    patch(json!({ "status": "published" })).await;
    assert_eq!(found(&app, "egret", None).await, vec![hid.clone()]);

    // Blocked, then unblocked.
    set_blocked(&app, &hid, true).await;
    for (who, token) in everyone {
        assert!(
            found(&app, "egret", token).await.is_empty(),
            "blocked, for {who}"
        );
    }
    set_blocked(&app, &hid, false).await;
    assert_eq!(found(&app, "egret", None).await, vec![hid.clone()]);

    // The reader blocks the author: gone for the reader, still there for others.
    let res = app
        .post_json(
            &format!("/api/block/block-user/{}", author.id),
            &json!({}),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(found(&app, "egret", Some(&reader.token)).await.is_empty());
    assert_eq!(found(&app, "egret", None).await, vec![hid.clone()]);

    // Scheduled, then published by the scheduler.
    let later = DateTime::from_millis(DateTime::now().timestamp_millis() + 3_600_000);
    let scheduled = create_post(
        &app,
        &author.token,
        with(
            post_body("Ibis later", "scheduled"),
            json!({ "status": "scheduled", "publishAt": later.try_to_rfc3339_string().unwrap() }),
        ),
    )
    .await;
    assert!(
        found(&app, "ibis", None).await.is_empty(),
        "not yet published"
    );
    let due = DateTime::from_millis(DateTime::now().timestamp_millis() - 1000);
    set_fields(
        &app,
        &id(&scheduled),
        mongodb::bson::doc! { "publishAt": due },
    )
    .await;
    pressroom::services::jobs::scheduled::publish_due(&app.state)
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while found(&app, "ibis", None).await.is_empty() {
        assert!(Instant::now() < deadline, "the published post is not found");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Deleted.
    let res = app
        .delete(&format!("/api/post/delete/{hid}"), Some(&author.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(found(&app, "egret", Some(&author.token)).await.is_empty());
    assert!(app.state.search.posts_ready(), "the index answered");
}

#[actix_web::test]
async fn a_locked_post_is_found_by_what_everyone_may_see_never_by_its_locked_text() {
    let app = spawn_app().await;
    index_ready(&app).await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let blocks = vec![Block {
        id: "p".into(),
        kind: "paragraph".into(),
        data: json!({ "text": "the flamingo secret is kept for subscribers" }),
    }];
    let now = DateTime::now();
    let title = "Members corner";
    let post = Post {
        id: ObjectId::new(),
        slug: "members-corner".into(),
        title: title.into(),
        search_text: search_text_for(title, &[], &blocks, Audience::Subscribers),
        blocks,
        thumbnail: None,
        thumbnail_image: None,
        author: ObjectId::parse_str(&author.id).unwrap(),
        category: None,
        tags: Vec::new(),
        post_type: Default::default(),
        visibility: Visibility::Public,
        audience: Audience::Subscribers,
        is_featured: false,
        is_pinned: false,
        is_published: true,
        language: "en".into(),
        status: PostStatus::Published,
        publish_at: None,
        published_at: Some(now),
        blocked: false,
        likes_count: 0,
        bookmarks_count: 0,
        views: 0,
        share_count: 0,
        comments_count: 0,
        reading_time: 1,
        trending_score: 0.0,
        created_at: now,
        updated_at: now,
        edited_at: None,
        series_id: None,
        imported_from: None,
        import_key: None,
    };
    posts::insert(&app.db, &post).await.unwrap();
    // The excerpt is public, so only a word past it is locked; the text is long enough here that
    // the excerpt holds it all, so the locked word is checked on a second post below.
    let body = get_ok(
        &app,
        "/api/post/search-post/search?query=members",
        Some(&reader.token),
    )
    .await;
    assert_eq!(ids_of(&body), [post.id.to_hex()]);
    assert_eq!(body["posts"][0]["locked"], true, "found, but locked");
    assert!(body["posts"][0]["blocks"]
        .as_array()
        .is_none_or(|b| b.is_empty()));

    let long: String = (0..80).map(|i| format!("filler{i} ")).collect();
    let blocks = vec![
        Block {
            id: "p".into(),
            kind: "paragraph".into(),
            data: json!({ "text": long }),
        },
        Block {
            id: "q".into(),
            kind: "paragraph".into(),
            data: json!({ "text": "the pelican secret" }),
        },
    ];
    let title = "Second members post";
    let hidden = Post {
        id: ObjectId::new(),
        slug: "second-members-post".into(),
        title: title.into(),
        search_text: search_text_for(title, &[], &blocks, Audience::Subscribers),
        blocks,
        ..post.clone()
    };
    posts::insert(&app.db, &hidden).await.unwrap();
    assert_eq!(
        found(&app, "second members", Some(&reader.token)).await,
        [hidden.id.to_hex()]
    );
    for token in [
        None,
        Some(reader.token.as_str()),
        Some(author.token.as_str()),
    ] {
        assert!(found(&app, "pelican", token).await.is_empty());
    }
    assert!(app.state.search.posts_ready(), "the index answered");
}

#[actix_web::test]
async fn user_search_from_the_index_follows_names_blocks_and_shows_emails_to_administrators() {
    let app = spawn_app().await;
    index_ready(&app).await;
    let admin = app.admin().await;
    let email = unique_email();
    let res = app
        .signup_raw("Grace Hopper", &email, PASSWORD, false)
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let grace = json_of(res).await;
    let grace_id = grace["_id"].as_str().unwrap().to_string();
    let grace_token = grace["token"].as_str().unwrap().to_string();
    let users_of = |body: &Value| -> Vec<String> {
        body["users"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["_id"].as_str().unwrap().to_string())
            .collect()
    };
    let body = get_ok(&app, "/api/post/search-users?query=hopp", None).await;
    assert_eq!(users_of(&body), vec![grace_id.clone()]);
    assert_eq!(body["users"][0]["email"], Value::Null);

    // Part of an email: administrators only, who see the address.
    let domain = email.split('@').nth(1).unwrap().to_string();
    let local = email.split('@').next().unwrap().to_string();
    let body = get_ok(&app, &format!("/api/post/search-users?query={local}"), None).await;
    assert!(
        users_of(&body).is_empty(),
        "a part of an email finds nobody for a guest"
    );
    let body = get_ok(
        &app,
        &format!("/api/post/search-users?query={local}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(users_of(&body), vec![grace_id.clone()], "{body} {domain}");
    assert_eq!(body["users"][0]["email"], email.to_lowercase());

    // Renamed: found by the new name only.
    let res = app
        .patch_json(
            "/api/user/update-user",
            &json!({ "name": "Amazing Grace" }),
            Some(&grace_token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(users_of(&get_ok(&app, "/api/post/search-users?query=hopper", None).await).is_empty());
    assert_eq!(
        users_of(&get_ok(&app, "/api/post/search-users?query=amazing", None).await),
        vec![grace_id.clone()]
    );

    // Blocked: left out; unblocked: back.
    let res = app
        .patch_json(
            &format!("/api/admin/users/block/{grace_id}"),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(users_of(&get_ok(&app, "/api/post/search-users?query=amazing", None).await).is_empty());
    let res = app
        .patch_json(
            &format!("/api/admin/users/block/{grace_id}"),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        users_of(&get_ok(&app, "/api/post/search-users?query=amazing", None).await),
        vec![grace_id.clone()]
    );
    for q in [".*.*", "(((", "\"\"\"", r"\\\"] {
        let body = get_ok(
            &app,
            &format!("/api/post/search-users?query={}", urlencode(q)),
            Some(&admin.token),
        )
        .await;
        assert!(users_of(&body).is_empty(), "case {q}");
    }
    assert!(app.state.search.users_ready(), "the index answered");
}

#[actix_web::test]
async fn a_rebuilt_search_index_answers_as_the_kept_one_and_without_redis_the_database_answers() {
    let app = spawn_app_with(AppOptions {
        redis_proxy: true,
        ..Default::default()
    })
    .await;
    index_ready(&app).await;
    let author = app.signup().await;
    let reader = app.signup().await;
    for i in 0..6 {
        publish(
            &app,
            &author,
            &format!("Puffin {i}"),
            "cliffs and puffin colonies",
        )
        .await;
    }
    create_post(
        &app,
        &author.token,
        with(
            post_body("Puffin private", "cliffs"),
            json!({ "visibility": "Private" }),
        ),
    )
    .await;
    let queries = ["puffin", "cliffs", "puffin 3", "colon"];
    let answers = |token: Option<String>| {
        let app = &app;
        async move {
            let mut out = Vec::new();
            for q in queries {
                out.push(found(app, q, token.as_deref()).await);
            }
            out
        }
    };
    let kept = (
        answers(None).await,
        answers(Some(author.token.clone())).await,
    );
    assert_eq!(kept.0[0].len(), 6);
    assert_eq!(kept.1[0].len(), 7);

    // `pressroom index rebuild`: every server builds its search index again from the new read
    // index, and answers as before.
    let before = app.state.feeds.current().unwrap().number;
    let mut settings = app.settings.clone();
    settings.redis.url = required_env("PRESSROOM_TEST_REDIS_URL").into();
    settings.database.uri = required_env("PRESSROOM_TEST_MONGODB_URI").into();
    pressroom::cli::run_index(&settings, pressroom::cli::IndexAction::Rebuild)
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while app.state.feeds.current().is_none_or(|g| g.number == before)
        || !app.state.search.posts_ready()
    {
        assert!(
            Instant::now() < deadline,
            "the search index was not rebuilt"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let rebuilt = (
        answers(None).await,
        answers(Some(author.token.clone())).await,
    );
    assert_eq!(kept, rebuilt, "the rebuilt index answers as the kept one");

    // Redis away: the database answers, with the same posts (newest first) and nothing hidden.
    let proxy = app.redis_proxy.as_ref().unwrap();
    proxy.set_up(false);
    let deadline = Instant::now() + Duration::from_secs(10);
    while app.state.search.posts_ready() {
        assert!(
            Instant::now() < deadline,
            "search did not notice Redis went away"
        );
        let _ = app
            .get("/api/post/search-post/search?query=puffin", None)
            .await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    for (i, q) in queries.iter().enumerate().take(2) {
        assert_eq!(
            sorted(found(&app, q, None).await),
            sorted(kept.0[i].clone()),
            "case {q}"
        );
        assert_eq!(
            sorted(found(&app, q, Some(&author.token)).await),
            sorted(kept.1[i].clone()),
            "case {q} for the author"
        );
        assert_eq!(
            sorted(found(&app, q, Some(&reader.token)).await),
            sorted(kept.0[i].clone()),
            "case {q} for a reader"
        );
    }
    let health = get_ok(&app, "/health", None).await;
    assert_eq!(health["redis"], "down");
    assert_eq!(health["search"], "unavailable");

    // A post written meanwhile is found once Redis is back and the indexes are rebuilt.
    let missed = publish(&app, &author, "Puffin while away", "cliffs").await;
    proxy.set_up(true);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !app.state.search.posts_ready() {
        assert!(
            Instant::now() < deadline,
            "the search index did not come back"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(found(&app, "puffin while", None)
        .await
        .contains(&id(&missed)));
    let health = get_ok(&app, "/health", None).await;
    assert_eq!(health["search"], "ready");
}

#[actix_web::test]
async fn only_the_newest_matches_are_ranked_and_pages_total_and_cursor_keep_to_them() {
    let app = spawn_app().await;
    index_ready(&app).await;
    let user = app.signup().await;
    // docs/decisions.md: a query ranks its newest `MAX_RANKED` matches; here 4, so a site of a
    // few posts has more matches than are ranked.
    assert_eq!(
        app.state.search.ranked_bound(),
        pressroom::search::MAX_RANKED
    );
    app.state.search.set_ranked_bound(4);
    let old_title = publish(&app, &user, "Heron watching", "notes").await;
    let mut texts = Vec::new();
    for i in 0..4 {
        texts.push(publish(&app, &user, &format!("Marsh {i}"), "a heron flew by").await);
    }
    let new_title = publish(&app, &user, "Heron at dusk", "quiet").await;
    // The newest four matches, ranked: the title match first, then equal relevance newest
    // first. The older title match and the oldest text match are not ranked.
    let ranked = vec![id(&new_title), id(&texts[3]), id(&texts[2]), id(&texts[1])];
    assert_eq!(found(&app, "heron", None).await, ranked);
    assert_eq!(found(&app, "heron", Some(&user.token)).await, ranked);
    // Numbered pages cover the ranked matches and `total` counts them.
    let page = |n: u32| {
        let app = &app;
        async move {
            get_ok(
                app,
                &format!("/api/public/search-posts?query=heron&limit=3&page={n}"),
                None,
            )
            .await
        }
    };
    let first = page(1).await;
    assert_eq!(ids_of(&first), ranked[..3]);
    assert_eq!(first["total"], 4);
    assert_eq!(first["page"], 1);
    let second = page(2).await;
    assert_eq!(ids_of(&second), ranked[3..]);
    assert_eq!(second["total"], 4);
    let third = page(3).await;
    assert!(ids_of(&third).is_empty());
    assert_eq!(third["total"], 4);
    // Cursor pages: the same order, without repeats or gaps, and nothing past the bound.
    for with_id in [true, false] {
        let (all, sizes) = page_through(
            &app,
            "/api/post/search-post/search?query=heron",
            1,
            with_id,
            None,
        )
        .await;
        assert_eq!(all, ranked, "afterId: {with_id}");
        assert_eq!(sizes, [1, 1, 1, 1], "afterId: {with_id}");
    }
    // A query matching no more than the bound is ranked whole.
    assert_eq!(found(&app, "watching", None).await, [id(&old_title)]);
    // With the bound above the matches, every match is ranked again: both title matches first.
    app.state
        .search
        .set_ranked_bound(pressroom::search::MAX_RANKED);
    let all = found(&app, "heron", None).await;
    assert_eq!(all.len(), 6);
    let mut titles = all[..2].to_vec();
    titles.sort();
    let mut expected = vec![id(&old_title), id(&new_title)];
    expected.sort();
    assert_eq!(titles, expected);
    assert!(all.contains(&id(&texts[0])));
}

/// The search index hears of a post's change only when what it holds moved: a like or a view
/// (a counter) adds nothing to its change stream, so those requests never wait for it; an edit
/// of the title does, and search finds the new words.
#[actix_web::test]
async fn counters_do_not_reach_the_search_index_but_an_edit_does() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = publish(&app, &author, "Harbor lanterns", "Lights along the quay.").await;
    let id = post["_id"].as_str().unwrap().to_string();
    let slug = post["slug"].as_str().unwrap().to_string();
    let redis = app.state.feeds.redis().clone();
    let stream = redis.key("ix:changes");
    let length = || {
        let redis = redis.clone();
        let stream = stream.clone();
        async move {
            redis
                .run_if_up(|mut c| async move {
                    deadpool_redis::redis::cmd("XLEN")
                        .arg(stream)
                        .query_async::<u64>(&mut c)
                        .await
                })
                .await
                .unwrap()
        }
    };
    let before = length().await;
    for path in [
        format!("/api/post/like/{id}"),
        format!("/api/post/bookmark/{id}"),
        format!("/api/post/view/{slug}"),
    ] {
        let res = app.post_empty(&path, Some(&reader.token)).await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
    }
    assert_eq!(length().await, before, "a counter told the search index");

    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &post_body("Harbor lanterns and tides", "Lights along the quay."),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        length().await > before,
        "an edit of the title did not reach the search index"
    );
    let found = get_ok(&app, "/api/post/search-post/search?query=tides", None).await;
    assert_eq!(ids_of(&found), vec![id]);
}
