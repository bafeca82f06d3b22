//! The read index (Redis) answers exactly as the database queries do: every list, every cursor
//! page and every total, for every kind of viewer, after every kind of write; a rebuilt index
//! equals the one the writes kept; and with Redis gone the same answers come from the database.
//!
//! The database's answer is asked of the same server with its index reads paused
//! (`Feeds::pause_reads`), so both answers see the same records.

use std::time::{Duration, Instant};

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use pressroom::domain::blocks::Block;
use pressroom::domain::post::{Audience, PostStatus, Visibility};
use pressroom::persistence::posts::{self, Post};
use pressroom::persistence::{bookmarks, likes};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::*;

/// Page size of the paged comparisons: small, so lists take several pages.
const LIMIT: usize = 5;
/// Pages read at most per list.
const MAX_PAGES: usize = 12;

/// The people and things of the seeded site.
struct World {
    a: TestUser,
    b: TestUser,
    c: TestUser,
    reader: TestUser,
    admin: TestUser,
    cat1: String,
    cat2_slug: String,
    posts: Vec<(String, String)>,
}

/// How a list is paged.
#[derive(Clone, Copy, Debug)]
enum Paging {
    /// The first page only.
    Once,
    /// `after` = the last createdAt.
    After,
    /// `after` and `afterId`.
    AfterId,
    /// `page` = 1, 2, ...
    Numbered,
}

fn oid(hex: &str) -> ObjectId {
    ObjectId::parse_str(hex).unwrap()
}

/// Inserts a post as the seed wants it (through the persistence layer, so the index hears of it).
async fn seed_post(app: &TestApp, i: usize, author: &str, at: i64, cats: &[String]) -> Post {
    let id = ObjectId::new();
    let at = DateTime::from_millis(at);
    let mut tags = Vec::new();
    if i % 2 == 0 {
        tags.push("t1".to_string());
    }
    if i % 3 == 0 {
        tags.push("t2".to_string());
    }
    let status = match i {
        _ if i % 11 == 5 => PostStatus::Draft,
        _ if i % 13 == 6 => PostStatus::Scheduled,
        _ => PostStatus::Published,
    };
    let post = Post {
        id,
        slug: format!("seed-{i}"),
        title: format!("Seed {i}"),
        blocks: vec![Block {
            id: "p".into(),
            kind: "paragraph".into(),
            data: json!({ "text": format!("words of post {i}") }),
        }],
        thumbnail: None,
        thumbnail_image: None,
        author: oid(author),
        category: match i % 4 {
            0 => Some(oid(&cats[0])),
            1 => Some(oid(&cats[1])),
            _ => None,
        },
        tags: tags.clone(),
        post_type: Default::default(),
        visibility: match i % 9 {
            4 => Visibility::Private,
            7 => Visibility::Unlisted,
            _ => Visibility::Public,
        },
        // Some posts are for subscribers: locked for readers, open to the author and
        // administrators.
        audience: if i % 8 == 2 {
            Audience::Subscribers
        } else {
            Audience::Everyone
        },
        is_featured: false,
        is_pinned: false,
        is_published: status == PostStatus::Published,
        language: "en".into(),
        status,
        publish_at: (status == PostStatus::Scheduled)
            .then(|| DateTime::from_millis(DateTime::now().timestamp_millis() + 86_400_000)),
        published_at: Some(at),
        blocked: i % 10 == 3,
        likes_count: ((i * 7) % 5) as i64,
        bookmarks_count: 0,
        views: ((i * 3) % 4) as i64,
        share_count: 0,
        comments_count: 0,
        reading_time: 1,
        search_text: format!("seed {i} {} words of post {i}", tags.join(" ")),
        trending_score: ((i * 13) % 6) as f64 * 0.5,
        created_at: at,
        updated_at: at,
        edited_at: None,
        series_id: None,
        imported_from: None,
        import_key: None,
    };
    posts::insert(&app.db, &post).await.unwrap();
    post
}

async fn seed(app: &TestApp) -> World {
    let a = app.signup().await;
    let b = app.signup().await;
    let c = app.signup().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let mut cats = Vec::new();
    for name in ["Index One", "Index Two"] {
        let res = app
            .post_json("/api/category/", &json!({ "name": name }), Some(&a.token))
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        cats.push(json_of(res).await["category"].clone());
    }
    let cat_ids: Vec<String> = cats
        .iter()
        .map(|c| c["_id"].as_str().unwrap().to_string())
        .collect();
    let base = 1_700_000_000_000_i64;
    let mut posts = Vec::new();
    for i in 0..36 {
        let author = [&a, &b, &c][i % 3];
        // Groups of four posts share one createdAt.
        let post = seed_post(app, i, &author.id, base + (i as i64 / 4) * 1000, &cat_ids).await;
        posts.push((post.id.to_hex(), post.slug));
    }
    for followee in [&a, &b] {
        let res = app
            .post_json(
                &format!("/api/follow/{}", followee.id),
                &json!({}),
                Some(&reader.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    // Bookmarks, some on posts the reader cannot see (or no longer will).
    for i in [0, 3, 5, 8, 13, 21, 30] {
        likes::toggle_mark(
            &app.db,
            bookmarks::BOOKMARK,
            oid(&reader.id),
            oid(&posts[i].0),
        )
        .await
        .unwrap();
    }
    World {
        cat1: cat_ids[0].clone(),
        cat2_slug: cats[1]["slug"].as_str().unwrap().to_string(),
        a,
        b,
        c,
        reader,
        admin,
        posts,
    }
}

/// What is compared for one viewer: every list, each paged every way when `full`; else one list
/// of each kind paged through and the first page of the lists a write can change differently.
fn requests(w: &World, viewer: Option<&TestUser>, full: bool) -> Vec<(String, Paging)> {
    use Paging::*;
    // (path, paging when full, paging otherwise; None: only when full)
    let mut r: Vec<(String, Paging, Option<Paging>)> = vec![
        ("/api/post/public/posts".into(), After, Some(After)),
        ("/api/post/public/posts".into(), AfterId, None),
        ("/api/public/posts".into(), Numbered, None),
        ("/api/post/public/posts?tag=t1".into(), After, Some(Once)),
        ("/api/post/public/posts?tag=t2".into(), Once, None),
        (
            format!("/api/post/public/posts?category={}", w.cat1),
            AfterId,
            Some(Once),
        ),
        (
            format!("/api/post/public/posts?category={}", w.cat2_slug),
            Once,
            None,
        ),
        (
            format!("/api/post/public/posts?tag=t1&category={}", w.cat1),
            Once,
            None,
        ),
        ("/api/post/latest-post/latest".into(), Once, None),
        ("/api/post/trending-post/trending".into(), After, None),
        (
            "/api/post/trending-post/trending".into(),
            AfterId,
            Some(AfterId),
        ),
        (
            format!("/api/post/user/{}/posts", w.a.id),
            AfterId,
            Some(Once),
        ),
        (
            format!("/api/post/user/{}/posts?sort=oldest", w.a.id),
            After,
            None,
        ),
        (
            format!("/api/post/user/{}/posts?sort=popular", w.a.id),
            After,
            Some(After),
        ),
        (
            format!("/api/post/user/{}/posts?sort=popular", w.c.id),
            AfterId,
            Some(Once),
        ),
        (
            format!("/api/post/user/{}/posts?search=post%201", w.a.id),
            Once,
            None,
        ),
        ("/api/post/count/all".into(), Once, Some(Once)),
        (
            format!(
                "/api/post/suggested-post/suggested?limit=6&category={}&exclude={},{}",
                w.cat1, w.posts[0].0, w.posts[4].1
            ),
            Once,
            Some(Once),
        ),
    ];
    // Single posts of every visibility: public, blocked, private, draft, scheduled, unlisted,
    // and for subscribers (10, 18).
    for i in [0, 3, 4, 5, 6, 7, 9, 10, 13, 18] {
        let light = [0, 3, 6, 9, 10, 13].contains(&i).then_some(Once);
        r.push((format!("/api/post/{}", w.posts[i].1), Once, light));
    }
    if let Some(me) = viewer {
        r.extend([
            ("/api/post/all-post".into(), After, None),
            (
                format!("/api/post/all-post?authorIds={},{}", w.a.id, w.b.id),
                AfterId,
                Some(Once),
            ),
            (
                format!("/api/post/all-post?authorId={}", me.id),
                After,
                Some(Once),
            ),
            (
                format!(
                    "/api/post/all-post?authorIds={},{}&category={}",
                    w.a.id, me.id, w.cat1
                ),
                Once,
                None,
            ),
            (
                format!("/api/post/all-post?category={}", w.cat2_slug),
                Once,
                None,
            ),
            ("/api/post/following".into(), AfterId, Some(AfterId)),
            ("/api/post/following?limit=4&page=2".into(), Once, None),
            ("/api/post/count/my".into(), Once, Some(Once)),
            ("/api/post/count/following".into(), Once, Some(Once)),
            ("/api/post/get-post/bookmarks".into(), Once, Some(Once)),
        ]);
    }
    r.into_iter()
        .filter_map(|(path, all, light)| {
            if full {
                Some((path, all))
            } else {
                light.map(|p| (path, p))
            }
        })
        .collect()
}

/// Every answer of a list as it is paged: (url, status, body).
async fn read(
    app: &TestApp,
    token: Option<&str>,
    path: &str,
    paging: Paging,
) -> Vec<(String, u16, Value)> {
    let sep = if path.contains('?') { '&' } else { '?' };
    let mut out = Vec::new();
    let mut next = match paging {
        Paging::Once => path.to_string(),
        Paging::Numbered => format!("{path}{sep}limit={LIMIT}&page=1"),
        _ => format!("{path}{sep}limit={LIMIT}"),
    };
    for n in 1..=MAX_PAGES {
        let res = app.get(&next, token).await;
        let status = res.status().as_u16();
        let body = json_of(res).await;
        out.push((next.clone(), status, body.clone()));
        let posts = body["posts"].as_array().cloned().unwrap_or_default();
        let Some(last) = posts.last() else { break };
        let after = urlencode(last["createdAt"].as_str().unwrap());
        next = match paging {
            Paging::Once => break,
            Paging::Numbered => format!("{path}{sep}limit={LIMIT}&page={}", n + 1),
            Paging::After => format!("{path}{sep}limit={LIMIT}&after={after}"),
            Paging::AfterId => format!(
                "{path}{sep}limit={LIMIT}&after={after}&afterId={}",
                last["_id"].as_str().unwrap()
            ),
        };
    }
    out
}

/// Every answer every viewer gets (the viewers' requests run side by side).
async fn answers(app: &TestApp, w: &World, full: bool) -> Vec<(String, String, u16, Value)> {
    let viewers: [(&str, Option<&TestUser>); 4] = [
        ("guest", None),
        ("reader", Some(&w.reader)),
        ("author", Some(&w.a)),
        ("admin", Some(&w.admin)),
    ];
    let per_viewer = viewers.iter().map(|(name, viewer)| async move {
        let token = viewer.map(|v| v.token.as_str());
        let mut out = Vec::new();
        for (path, paging) in requests(w, *viewer, full) {
            // The administrator differs from other readers only in what a single post shows.
            if *name == "admin" && !path.starts_with("/api/post/seed-") {
                continue;
            }
            for (url, status, body) in read(app, token, &path, paging).await {
                out.push((name.to_string(), url, status, body));
            }
        }
        out
    });
    futures_util::future::join_all(per_viewer)
        .await
        .into_iter()
        .flatten()
        .collect()
}

/// Asserts the index and the database answer alike, and that the index is what answered.
async fn assert_same_answers(app: &TestApp, w: &World, case: &str) {
    compare(app, w, case, false).await;
}

/// The same, paging every list every way.
async fn assert_same_answers_fully(app: &TestApp, w: &World, case: &str) {
    compare(app, w, case, true).await;
}

async fn compare(app: &TestApp, w: &World, case: &str, full: bool) {
    assert!(
        app.state.feeds.wait_ready(Duration::from_secs(20)).await,
        "case {case}: the read index is not in use"
    );
    let indexed = answers(app, w, full).await;
    app.state.feeds.pause_reads(true);
    let direct = answers(app, w, full).await;
    app.state.feeds.pause_reads(false);
    for (i, d) in indexed.iter().zip(&direct) {
        assert_eq!(i, d, "case {case}: the index and the database differ");
    }
    assert_eq!(
        indexed.len(),
        direct.len(),
        "case {case}: different number of pages"
    );
}

async fn patch_post(app: &TestApp, token: &str, slug: &str, body: Value) {
    let res = app
        .patch_json(&format!("/api/post/update/{slug}"), &body, Some(token))
        .await;
    assert_eq!(res.status(), StatusCode::OK, "update of {slug}");
}

async fn toggle_post_block(app: &TestApp, w: &World, id: &str) {
    let res = app
        .patch_json(
            &format!("/api/admin/posts/block/{id}"),
            &json!({}),
            Some(&w.admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[actix_web::test]
async fn every_list_from_the_index_equals_the_database_after_every_kind_of_write() {
    let app = spawn_app().await;
    let w = seed(&app).await;
    assert_same_answers_fully(&app, &w, "seeded").await;

    // Create.
    let created = create_post(
        &app,
        &w.a.token,
        with(
            post_body("Fresh", "a new post"),
            json!({ "tags": ["t1"], "category": w.cat1 }),
        ),
    )
    .await;
    assert_same_answers(&app, &w, "create").await;

    // Schedule, then publish (the time comes: the scheduled time is moved into the past, since a
    // comparison takes longer than a wait worth making).
    let publish_at = DateTime::from_millis(DateTime::now().timestamp_millis() + 3_600_000);
    let scheduled = create_post(
        &app,
        &w.b.token,
        with(
            post_body("Later", "scheduled text"),
            json!({ "status": "scheduled", "publishAt": publish_at.try_to_rfc3339_string().unwrap(), "tags": ["t2"] }),
        ),
    )
    .await;
    assert_same_answers(&app, &w, "schedule").await;
    let due = DateTime::from_millis(DateTime::now().timestamp_millis() - 1000);
    set_fields(
        &app,
        scheduled["_id"].as_str().unwrap(),
        mongodb::bson::doc! { "publishAt": due },
    )
    .await;
    pressroom::services::jobs::scheduled::publish_due(&app.state)
        .await
        .unwrap();
    // The scheduler job may have been first; wait until its change is applied.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let latest = get_ok(&app, "/api/post/latest-post/latest?limit=1", None).await;
        if ids_of(&latest) == [scheduled["_id"].as_str().unwrap()] {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the scheduled post was not published"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_same_answers(&app, &w, "publish scheduled").await;

    // Edit tags and category.
    patch_post(
        &app,
        &w.a.token,
        &w.posts[0].1,
        json!({ "tags": ["t2", "fresh"], "category": null }),
    )
    .await;
    assert_same_answers(&app, &w, "edit tags").await;

    // Change visibility both ways.
    patch_post(
        &app,
        &w.a.token,
        &w.posts[6].1,
        json!({ "visibility": "Private" }),
    )
    .await;
    patch_post(
        &app,
        &w.b.token,
        &w.posts[13].1,
        json!({ "visibility": "Public" }),
    )
    .await;
    assert_same_answers(&app, &w, "change visibility").await;

    // Block, then unblock.
    toggle_post_block(&app, &w, &w.posts[9].0).await;
    assert_same_answers(&app, &w, "block").await;
    toggle_post_block(&app, &w, &w.posts[9].0).await;
    toggle_post_block(&app, &w, &w.posts[3].0).await;
    assert_same_answers(&app, &w, "unblock").await;

    // Delete (a bookmarked post).
    let res = app
        .delete(
            &format!("/api/post/delete/{}", w.posts[21].0),
            Some(&w.a.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .delete(
            &format!("/api/post/delete/{}", created["_id"].as_str().unwrap()),
            Some(&w.a.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_same_answers(&app, &w, "delete").await;

    // An author blocked by the reader, then unblocked.
    let res = app
        .post_json(
            &format!("/api/block/block-user/{}", w.c.id),
            &json!({}),
            Some(&w.reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_same_answers(&app, &w, "author blocked by the reader").await;
    let res = app
        .post_json(
            "/api/block/unblock",
            &json!({ "blockedUserId": w.c.id }),
            Some(&w.reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_same_answers(&app, &w, "author unblocked").await;

    // An administrator deletes a post, and an account with everything of theirs (posts,
    // follows, bookmarks).
    let res = app
        .delete(
            &format!("/api/admin/posts/{}", w.posts[1].0),
            Some(&w.admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    likes::toggle_mark(
        &app.db,
        bookmarks::BOOKMARK,
        oid(&w.c.id),
        oid(&w.posts[0].0),
    )
    .await
    .unwrap();
    let res = app
        .delete(
            &format!("/api/admin/users/{}", w.c.id),
            Some(&w.admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_same_answers(&app, &w, "administrator deletes").await;

    // Engagement moves the popular and trending orders; follows change the following feed.
    for i in [0, 10, 12] {
        let res = app
            .post_json(
                &format!("/api/post/like/{}", w.posts[i].0),
                &json!({}),
                Some(&w.reader.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let res = app
        .post_json(
            &format!("/api/post/bookmark/{}", w.posts[12].0),
            &json!({}),
            Some(&w.reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .post_json(
            &format!("/api/follow/unfollow/{}", w.b.id),
            &json!({}),
            Some(&w.reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    pressroom::services::jobs::trending::refresh(&app.state)
        .await
        .unwrap();
    assert_same_answers(&app, &w, "likes, bookmarks, follows, trending").await;

    // A rebuilt index (`pressroom index rebuild`, as an operator runs it) equals the one kept by
    // the writes, and the running server switches to it.
    let kept = app.state.feeds.snapshot().await.unwrap();
    assert!(
        kept.keys().any(|k| k.starts_with("l:pub:new")),
        "{:?}",
        kept.keys()
    );
    let line = app.rebuild_index().await;
    // 36 seeded, 2 created, 3 deleted, and the 12 of C removed with the account.
    assert!(line.contains(" 23 posts,"), "{line}");
    let rebuilt = app.state.feeds.snapshot().await.unwrap();
    assert_eq!(kept.len(), rebuilt.len(), "the same keys");
    for (key, value) in &kept {
        assert_eq!(Some(value), rebuilt.get(key), "key {key}");
    }
    assert_same_answers_fully(&app, &w, "rebuilt").await;
}

#[actix_web::test]
async fn with_redis_gone_the_database_gives_the_same_answers_and_the_index_comes_back_rebuilt() {
    let app = spawn_app_with(AppOptions {
        redis_proxy: true,
        ..Default::default()
    })
    .await;
    let w = seed(&app).await;
    assert!(app.state.feeds.wait_ready(Duration::from_secs(20)).await);
    let indexed = answers(&app, &w, false).await;

    let proxy = app.redis_proxy.as_ref().unwrap();
    proxy.set_up(false);
    let fallback = answers(&app, &w, false).await;
    assert!(app.state.feeds.current().is_none(), "Redis is down");
    assert_eq!(indexed, fallback, "the same answers through the fallback");

    // A write while Redis is away reaches the database; reads show it at once.
    let missed = create_post(
        &app,
        &w.a.token,
        post_body("While away", "written without Redis"),
    )
    .await;
    let latest = get_ok(&app, "/api/post/latest-post/latest?limit=1", None).await;
    assert_eq!(ids_of(&latest), [missed["_id"].as_str().unwrap()]);

    // Redis returns: the index knows it missed a write and is rebuilt before it is used again.
    proxy.set_up(true);
    let deadline = Instant::now() + Duration::from_secs(30);
    while app.state.feeds.current().is_none() {
        assert!(Instant::now() < deadline, "the index did not come back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let latest = get_ok(&app, "/api/post/latest-post/latest?limit=1", None).await;
    assert_eq!(ids_of(&latest), [missed["_id"].as_str().unwrap()]);
    assert_same_answers(&app, &w, "after Redis returned").await;
}
