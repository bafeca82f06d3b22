//! The guest cache (`pressroom::guest_cache`): guests' lists and posts are served from memory,
//! and every kind of write that changes what a guest sees drops the answers it changed at once —
//! on the node that wrote and, through Redis, on another node over the same database. Signed-in
//! readers are never served a guest's answer. Every answer carries an `ETag`; a matching
//! `If-None-Match` gets `304`.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::{create_post, paragraph, post_body};
use crate::support::*;

const HOME: &str = "/api/public/posts";

fn longest_life(s: &mut pressroom::config::Settings) {
    // The longest life allowed, so that a missed invalidation would show in every check below.
    s.guest_cache.max_age_ms = 900;
}

async fn cached_app() -> TestApp {
    spawn_app_with(AppOptions {
        tweak: Some(Box::new(longest_life)),
        ..AppOptions::default()
    })
    .await
}

/// A guest's GET: status and body.
async fn guest(app: &TestApp, path: &str) -> (StatusCode, Value) {
    let res = app.get(path, None).await;
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

fn titles(list: &Value) -> Vec<String> {
    list["posts"]
        .as_array()
        .map(|posts| {
            posts
                .iter()
                .map(|p| p["title"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn hits(app: &TestApp) -> u64 {
    app.state.guest_cache.counts().0
}

/// Reads `path` as a guest twice and checks the second answer came from the cache.
async fn warm(app: &TestApp, path: &str) -> Value {
    guest(app, path).await;
    let before = hits(app);
    let (status, body) = guest(app, path).await;
    assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
    assert_eq!(
        hits(app),
        before + 1,
        "GET {path} was not served from the cache"
    );
    body
}

fn post_path(slug: &str) -> String {
    format!("/api/public/post/{slug}")
}

#[actix_web::test]
async fn every_kind_of_write_drops_what_guests_were_served() {
    let app = cached_app().await;
    let author = app.signup().await;
    let admin = app.admin().await;
    let first = create_post(&app, &author.token, post_body("First story", "Alpha")).await;
    let slug = first["slug"].as_str().unwrap().to_string();
    let id = first["_id"].as_str().unwrap().to_string();

    // Create.
    assert_eq!(titles(&warm(&app, HOME).await), ["First story"]);
    create_post(&app, &author.token, post_body("Second story", "Beta")).await;
    let (_, list) = guest(&app, HOME).await;
    assert_eq!(titles(&list), ["Second story", "First story"]);

    // Edit: the post's own answer and the lists.
    warm(&app, HOME).await;
    assert_eq!(
        warm(&app, &post_path(&slug)).await["post"]["title"],
        "First story"
    );
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "title": "First story, revised" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, post) = guest(&app, &post_path(&slug)).await;
    assert_eq!(post["post"]["title"], "First story, revised");
    let (_, list) = guest(&app, HOME).await;
    assert!(titles(&list).contains(&"First story, revised".to_string()));

    // Visibility: private, then public again.
    warm(&app, HOME).await;
    warm(&app, &post_path(&slug)).await;
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "visibility": "Private" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        guest(&app, &post_path(&slug)).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(titles(&guest(&app, HOME).await.1), ["Second story"]);
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "visibility": "Public" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(guest(&app, &post_path(&slug)).await.0, StatusCode::OK);

    // Blocked by an administrator.
    warm(&app, HOME).await;
    warm(&app, &post_path(&slug)).await;
    let res = app
        .patch_json(
            &format!("/api/admin/posts/block/{id}"),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        guest(&app, &post_path(&slug)).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(titles(&guest(&app, HOME).await.1), ["Second story"]);

    // Deleted.
    let other = create_post(&app, &author.token, post_body("Third story", "Gamma")).await;
    let other_slug = other["slug"].as_str().unwrap().to_string();
    warm(&app, HOME).await;
    warm(&app, &post_path(&other_slug)).await;
    let res = app
        .delete(
            &format!("/api/post/delete/{}", other["_id"].as_str().unwrap()),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        guest(&app, &post_path(&other_slug)).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(titles(&guest(&app, HOME).await.1), ["Second story"]);
    assert_eq!(guest(&app, "/api/post/count/all").await.1["count"], 1);
}

#[actix_web::test]
async fn an_author_blocked_or_renamed_reaches_each_reader_as_their_rules_say() {
    let app = cached_app().await;
    let author = app.signup().await;
    let other = app.signup().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let post = create_post(&app, &author.token, post_body("By the author", "A")).await;
    create_post(&app, &other.token, post_body("By someone else", "B")).await;
    let slug = post["slug"].as_str().unwrap().to_string();

    // A reader who blocks the author stops seeing their posts; guests are not affected, and
    // the reader is never served the guests' answer.
    warm(&app, HOME).await;
    let res = app
        .post_json(
            &format!("/api/block/block-user/{}", author.id),
            &json!({}),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app.get(HOME, Some(&reader.token)).await;
    assert_eq!(titles(&json_of(res).await), ["By someone else"]);
    let before = hits(&app);
    assert_eq!(
        titles(&guest(&app, HOME).await.1),
        ["By someone else", "By the author"]
    );
    assert_eq!(
        hits(&app),
        before + 1,
        "a block between users dropped guests' answers"
    );

    // The author renamed: their post's answer and the lists show the new name at once.
    let name_of = |v: &Value| v["post"]["author"]["name"].as_str().map(str::to_string);
    let old_name = name_of(&warm(&app, &post_path(&slug)).await);
    assert!(old_name.is_some());
    warm(&app, HOME).await;
    let res = app
        .patch_json(
            "/api/user/update-user",
            &json!({ "name": "Renamed Author" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, seen) = guest(&app, &post_path(&slug)).await;
    assert_eq!(name_of(&seen).as_deref(), Some("Renamed Author"), "{seen}");
    let (_, list) = guest(&app, HOME).await;
    assert!(list.to_string().contains("Renamed Author"), "{list}");

    // Blocked by an administrator: what guests are served is recomputed at once and equals
    // what the database says (a fresh server would answer the same).
    warm(&app, HOME).await;
    warm(&app, &post_path(&slug)).await;
    let epoch = app.state.guest_cache.epoch();
    let res = app
        .patch_json(
            &format!("/api/admin/users/block/{}", author.id),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        app.state.guest_cache.epoch() > epoch,
        "the block dropped nothing"
    );
    let cached = guest(&app, &post_path(&slug)).await;
    app.state.feeds.pause_reads(true);
    let computed = guest(&app, &post_path(&slug)).await;
    app.state.feeds.pause_reads(false);
    assert_eq!(cached, computed);
}

#[actix_web::test]
async fn a_change_drops_only_the_posts_it_changed() {
    let app = cached_app().await;
    let author = app.signup().await;
    let a = create_post(&app, &author.token, post_body("Post A", "a")).await;
    let b = create_post(&app, &author.token, post_body("Post B", "b")).await;
    let (a_slug, b_slug) = (a["slug"].as_str().unwrap(), b["slug"].as_str().unwrap());
    warm(&app, &post_path(a_slug)).await;
    warm(&app, &post_path(b_slug)).await;
    let res = app
        .patch_json(
            &format!("/api/post/update/{a_slug}"),
            &json!({ "title": "Post A, edited" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let before = hits(&app);
    assert_eq!(
        guest(&app, &post_path(b_slug)).await.1["post"]["title"],
        "Post B"
    );
    assert_eq!(hits(&app), before + 1, "B's answer was dropped by A's edit");
    assert_eq!(
        guest(&app, &post_path(a_slug)).await.1["post"]["title"],
        "Post A, edited"
    );
    assert_eq!(hits(&app), before + 1, "A's old answer was served");
}

#[actix_web::test]
async fn subscribers_read_their_own_answer_and_an_unlocked_post_reaches_guests() {
    let app = cached_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 1000).await;
    let secret = "wombatquillsecret";
    let post = create_post(
        &app,
        &author.token,
        json!({
            "title": "Members only",
            "audience": "subscribers",
            "blocks": [
                paragraph("p1", &"An opening every reader may see. ".repeat(8)),
                paragraph("p2", &format!("For subscribers: {secret}.")),
            ],
        }),
    )
    .await;
    let slug = post["slug"].as_str().unwrap().to_string();
    let path = post_path(&slug);
    let locked = warm(&app, &path).await;
    assert_eq!(locked["post"]["locked"], true);

    // A subscriber is never served the guests' (locked) answer, nor leaves theirs for guests.
    app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let res = app.get(&path, Some(&reader.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.text().await.unwrap().contains(secret));
    let (_, seen) = guest(&app, &path).await;
    assert_eq!(seen["post"]["locked"], true);
    assert!(!seen.to_string().contains(secret));

    // The author opens the post to everyone: guests read it in full at once.
    warm(&app, &path).await;
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "audience": "everyone" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, open) = guest(&app, &path).await;
    assert_eq!(open["post"]["locked"], false);
    assert!(open.to_string().contains(secret));
}

#[actix_web::test]
async fn answers_carry_an_etag_and_a_matching_request_gets_304() {
    let app = cached_app().await;
    let author = app.signup().await;
    create_post(&app, &author.token, post_body("Validated", "v")).await;
    for path in [HOME, "/api/post/latest-post/latest", "/api/post/count/all"] {
        let res = app.get(path, None).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["cache-control"], "no-cache");
        let etag = res.headers()["etag"].to_str().unwrap().to_string();
        let again = app
            .client
            .get(app.url(path))
            .header("If-None-Match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
        assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
        assert!(again.bytes().await.unwrap().is_empty());
        let other = app
            .client
            .get(app.url(path))
            .header("If-None-Match", "\"something-else\"")
            .send()
            .await
            .unwrap();
        assert_eq!(other.status(), StatusCode::OK);
    }
    // After a write the old tag no longer matches.
    let res = app.get(HOME, None).await;
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    create_post(&app, &author.token, post_body("Newer", "n")).await;
    let res = app
        .client
        .get(app.url(HOME))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_ne!(res.headers()["etag"].to_str().unwrap(), etag);
    // A signed-in reader's answer is validated too, and private.
    let res = app.get(HOME, Some(&author.token)).await;
    assert_eq!(res.headers()["cache-control"], "private, no-cache");
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    let again = app
        .client
        .get(app.url(HOME))
        .bearer_auth(&author.token)
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
}

#[actix_web::test]
async fn switched_off_every_request_is_computed() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| s.guest_cache.enabled = false)),
        ..AppOptions::default()
    })
    .await;
    for _ in 0..3 {
        assert_eq!(guest(&app, HOME).await.0, StatusCode::OK);
    }
    assert_eq!(app.state.guest_cache.counts(), (0, 0));
    assert!(app.state.guest_cache.is_empty());
}

/// Waits until `node` has applied an invalidation after `epoch` (it came through Redis).
async fn invalidated_since(node: &TestApp, epoch: u64) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while node.state.guest_cache.epoch() == epoch {
        assert!(
            Instant::now() < deadline,
            "the other node heard of no write in 5 s"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[actix_web::test]
async fn a_write_on_one_node_drops_the_answers_of_another() {
    let a = cached_app().await;
    let db_name = a.settings.database.name.clone();
    let b = spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s| {
            longest_life(s);
            s.database.name = db_name;
        })),
        ..AppOptions::default()
    })
    .await;
    let author = a.signup().await;
    let admin = a.admin().await;
    let post = create_post(&a, &author.token, post_body("On node A", "a")).await;
    let slug = post["slug"].as_str().unwrap().to_string();
    let id = post["_id"].as_str().unwrap().to_string();
    let wait_for_b = || async {
        for _ in 0..200 {
            if b.state.feeds.current().is_some() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    };
    wait_for_b().await;

    // Create.
    assert_eq!(titles(&warm(&b, HOME).await), ["On node A"]);
    let epoch = b.state.guest_cache.epoch();
    create_post(&a, &author.token, post_body("Also on node A", "b")).await;
    invalidated_since(&b, epoch).await;
    assert_eq!(
        titles(&guest(&b, HOME).await.1),
        ["Also on node A", "On node A"]
    );

    // Edit.
    warm(&b, &post_path(&slug)).await;
    let epoch = b.state.guest_cache.epoch();
    let res = a
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "title": "Edited on node A" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    invalidated_since(&b, epoch).await;
    assert_eq!(
        guest(&b, &post_path(&slug)).await.1["post"]["title"],
        "Edited on node A"
    );

    // Blocked.
    warm(&b, &post_path(&slug)).await;
    let epoch = b.state.guest_cache.epoch();
    let res = a
        .patch_json(
            &format!("/api/admin/posts/block/{id}"),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    invalidated_since(&b, epoch).await;
    assert_eq!(guest(&b, &post_path(&slug)).await.0, StatusCode::NOT_FOUND);

    // Deleted.
    let second = &guest(&b, HOME).await.1["posts"][0];
    let second_slug = second["slug"].as_str().unwrap().to_string();
    warm(&b, &post_path(&second_slug)).await;
    let epoch = b.state.guest_cache.epoch();
    let res = a
        .delete(
            &format!("/api/post/delete/{}", second["_id"].as_str().unwrap()),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    invalidated_since(&b, epoch).await;
    assert_eq!(
        guest(&b, &post_path(&second_slug)).await.0,
        StatusCode::NOT_FOUND
    );
    assert!(titles(&guest(&b, HOME).await.1).is_empty());
}
