//! Post lists: the `after` cursor, limits, tags, trending, following, all-post, an author's
//! posts, counts and the public family.

use std::collections::HashSet;

use mongodb::bson::DateTime;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::content::*;
use crate::support::*;

fn assert_no_repeats(ids: &[String], case: &str) {
    let unique: HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "case {case}: repeats in {ids:?}");
}

#[actix_web::test]
async fn the_after_cursor_pages_without_repeats_or_gaps_over_equal_timestamps() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let base = DateTime::from_millis(1_700_000_000_000);
    // 5 older distinct posts, a block of 30 sharing one instant, 5 newer distinct posts.
    let mut expected = insert_posts(&app, &author.id, 5, base, 1000).await;
    expected.extend(
        insert_same_time(
            &app,
            &author.id,
            30,
            DateTime::from_millis(base.timestamp_millis() + 10_000),
        )
        .await,
    );
    expected.extend(
        insert_posts(
            &app,
            &author.id,
            5,
            DateTime::from_millis(base.timestamp_millis() + 20_000),
            1000,
        )
        .await,
    );
    let expected: HashSet<String> = expected.into_iter().collect();

    let paths = [
        "/api/post/public/posts",
        "/api/post/latest-post/latest",
        "/api/public/posts",
        "/api/post/public/posts?tag=bulk",
    ];
    for path in paths {
        for with_id in [false, true] {
            let case = format!("{path} with afterId={with_id}");
            let (ids, sizes) = page_through(&app, path, 7, with_id, None).await;
            assert!(sizes.len() > 2, "case {case}: only {} pages", sizes.len());
            assert_no_repeats(&ids, &case);
            let got: HashSet<String> = ids.iter().cloned().collect();
            assert_eq!(got, expected, "case {case}: gaps");
            if with_id {
                assert!(sizes.iter().all(|s| *s <= 7), "case {case}: {sizes:?}");
            }
        }
    }
    // Signed-in feeds page the same way.
    let (ids, _) = page_through(&app, "/api/post/all-post", 12, false, Some(&author.token)).await;
    assert_eq!(ids.len(), 40);
    assert_no_repeats(&ids, "all-post");
    let (ids, _) = page_through(
        &app,
        &format!("/api/post/user/{}/posts", author.id),
        9,
        true,
        None,
    )
    .await;
    assert_eq!(ids.len(), 40);
    assert_no_repeats(&ids, "user posts");
    let (ids, _) = page_through(
        &app,
        &format!("/api/post/user/{}/posts?sort=oldest", author.id),
        9,
        true,
        None,
    )
    .await;
    assert_eq!(ids.len(), 40);
    assert_no_repeats(&ids, "user posts oldest");
}

#[actix_web::test]
async fn results_are_newest_first_and_strictly_older_than_after() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let ids = insert_posts(
        &app,
        &author.id,
        10,
        DateTime::from_millis(1_700_000_000_000),
        60_000,
    )
    .await;
    let body = get_ok(&app, "/api/post/latest-post/latest?limit=3", None).await;
    assert_eq!(
        ids_of(&body),
        [ids[9].clone(), ids[8].clone(), ids[7].clone()]
    );
    assert_eq!(body["total"], 10);
    let after = body["posts"][2]["createdAt"].as_str().unwrap();
    let body = get_ok(
        &app,
        &format!(
            "/api/post/latest-post/latest?limit=3&after={}",
            urlencode(after)
        ),
        None,
    )
    .await;
    assert_eq!(
        ids_of(&body),
        [ids[6].clone(), ids[5].clone(), ids[4].clone()]
    );
    // Pages by number too.
    let body = get_ok(&app, "/api/public/posts?page=2&limit=4", None).await;
    assert_eq!(body["page"], 2);
    assert_eq!(
        ids_of(&body),
        [
            ids[5].clone(),
            ids[4].clone(),
            ids[3].clone(),
            ids[2].clone()
        ]
    );
}

#[actix_web::test]
async fn limits_are_capped_and_bad_paging_values_are_refused() {
    let app = spawn_app().await;
    let author = app.signup().await;
    insert_posts(
        &app,
        &author.id,
        60,
        DateTime::from_millis(1_700_000_000_000),
        1000,
    )
    .await;
    let body = get_ok(&app, "/api/post/public/posts?limit=500", None).await;
    assert_eq!(body["posts"].as_array().unwrap().len(), 50);
    assert_eq!(body["total"], 60);
    let body = get_ok(&app, "/api/post/public/posts", None).await;
    assert_eq!(body["posts"].as_array().unwrap().len(), 12, "default limit");
    let body = get_ok(&app, "/api/post/following", Some(&author.token)).await;
    assert_eq!(
        body["posts"].as_array().unwrap().len(),
        50,
        "following default limit"
    );

    let cases = [
        "/api/post/public/posts?limit=0",
        "/api/post/public/posts?limit=-3",
        "/api/post/public/posts?limit=abc",
        "/api/post/public/posts?page=0",
        "/api/post/latest-post/latest?after=yesterday",
        "/api/post/latest-post/latest?after=2024-01-01T00:00:00Z&afterId=zz",
        "/api/post/all-post?authorIds=abc,def",
        "/api/post/user/not-an-id/posts",
        "/api/post/user/64b7f0000000000000000000/posts?sort=random",
    ];
    for path in cases {
        let res = app.get(path, Some(&author.token)).await;
        let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(!msg.is_empty(), "case {path}");
    }
}

#[actix_web::test]
async fn the_tag_filter_serves_the_tag_page() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let rust = create_post(
        &app,
        &user.token,
        with(
            post_body("Rusty", "x"),
            json!({ "tags": ["Rust", "systems"] }),
        ),
    )
    .await;
    create_post(
        &app,
        &user.token,
        with(
            post_body("Pythonic", "x"),
            json!({ "tags": "python, scripting" }),
        ),
    )
    .await;
    for path in [
        "/api/post/public/posts?tag=rust",
        "/api/post/public/posts?tag=%20RUST%20",
        "/api/public/posts?tag=rust",
    ] {
        let body = get_ok(&app, path, None).await;
        assert_eq!(
            ids_of(&body),
            [rust["_id"].as_str().unwrap()],
            "case {path}"
        );
    }
    let body = get_ok(&app, "/api/post/public/posts?tag=scripting", None).await;
    assert_eq!(body["total"], 1);
}

#[actix_web::test]
async fn trending_follows_the_stored_score_and_pages_after_a_post() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let now = DateTime::now();
    let ids = insert_posts(
        &app,
        &author.id,
        9,
        DateTime::from_millis(now.timestamp_millis() - 3_600_000),
        1000,
    )
    .await;
    // Engagement: post 2 is the most liked, then post 7, then post 4.
    for (i, likes) in [(2, 50_i64), (7, 30), (4, 10)] {
        set_fields(
            &app,
            &ids[i],
            mongodb::bson::doc! { "likesCount": likes, "views": likes * 10 },
        )
        .await;
    }
    pressroom::services::jobs::trending::refresh(&app.state)
        .await
        .unwrap();
    let body = get_ok(&app, "/api/post/trending-post/trending?limit=3", None).await;
    assert_eq!(
        ids_of(&body),
        [ids[2].clone(), ids[7].clone(), ids[4].clone()]
    );
    assert_eq!(body["total"], 9);
    let (all, sizes) = page_through(&app, "/api/post/trending-post/trending", 4, false, None).await;
    assert_eq!(all.len(), 9, "{sizes:?}");
    assert_no_repeats(&all, "trending");
    assert_eq!(&all[..3], &[ids[2].clone(), ids[7].clone(), ids[4].clone()]);
}

#[actix_web::test]
async fn the_following_feed_and_all_posts_need_a_signed_in_user() {
    let app = spawn_app().await;
    for path in [
        "/api/post/following",
        "/api/post/all-post",
        "/api/post/count/my",
        "/api/post/count/following",
    ] {
        let msg = assert_error(app.get(path, None).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(
            msg, "You must be signed in to access this feature.",
            "case {path}"
        );
        let msg = assert_error(
            app.get(path, Some("not-a-token")).await,
            StatusCode::UNAUTHORIZED,
        )
        .await;
        assert_eq!(
            msg, "You must be signed in to access this feature.",
            "case {path} with a bad token"
        );
    }
}

#[actix_web::test]
async fn the_following_feed_shows_followed_authors_and_yourself() {
    let app = spawn_app().await;
    let me = app.signup().await;
    let followed = app.signup().await;
    let stranger = app.signup().await;
    let mine = publish(&app, &me, "Mine", "x").await;
    let theirs = publish(&app, &followed, "Theirs", "x").await;
    let hidden = create_post(
        &app,
        &followed.token,
        with(
            post_body("Their private", "x"),
            json!({ "visibility": "Private" }),
        ),
    )
    .await;
    publish(&app, &stranger, "Stranger's", "x").await;
    follow(&app, &me.id, &followed.id).await;

    let body = get_ok(&app, "/api/post/following", Some(&me.token)).await;
    let ids = ids_of(&body);
    assert_eq!(
        ids,
        [
            theirs["_id"].as_str().unwrap(),
            mine["_id"].as_str().unwrap()
        ]
    );
    assert!(!ids.contains(&hidden["_id"].as_str().unwrap().to_string()));
    let count = get_ok(&app, "/api/post/count/following", Some(&me.token)).await;
    assert_eq!(count["count"], 2);
    assert_eq!(get_ok(&app, "/api/post/count/all", None).await["count"], 3);
    assert_eq!(
        get_ok(&app, "/api/post/count/my", Some(&me.token)).await["count"],
        1
    );

    // all-post by author list.
    let body = get_ok(
        &app,
        &format!(
            "/api/post/all-post?authorIds={},{}",
            followed.id, stranger.id
        ),
        Some(&me.token),
    )
    .await;
    assert_eq!(body["total"], 2);
    let body = get_ok(
        &app,
        &format!("/api/post/all-post?authorId={}", followed.id),
        Some(&me.token),
    )
    .await;
    assert_eq!(ids_of(&body), [theirs["_id"].as_str().unwrap()]);
    let body = get_ok(
        &app,
        &format!("/api/post/all-post?authorId={}", followed.id),
        Some(&followed.token),
    )
    .await;
    assert_eq!(body["total"], 2, "the author sees their own private post");
}

#[actix_web::test]
async fn a_block_between_users_hides_posts_from_feeds() {
    let app = spawn_app().await;
    let me = app.signup().await;
    let blocked = app.signup().await;
    publish(&app, &blocked, "From someone blocked", "x").await;
    let visible = publish(&app, &me, "Mine", "x").await;
    pressroom::persistence::blocks::block(
        &app.db,
        mongodb::bson::oid::ObjectId::parse_str(&me.id).unwrap(),
        mongodb::bson::oid::ObjectId::parse_str(&blocked.id).unwrap(),
    )
    .await
    .unwrap();
    let body = get_ok(&app, "/api/post/public/posts", Some(&me.token)).await;
    assert_eq!(ids_of(&body), [visible["_id"].as_str().unwrap()]);
    let body = get_ok(&app, "/api/post/public/posts", Some(&blocked.token)).await;
    assert_eq!(body["total"], 1, "both directions");
    assert_eq!(
        get_ok(&app, "/api/post/public/posts", None).await["total"],
        2
    );
}

#[actix_web::test]
async fn an_authors_posts_sort_and_filter() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let first = publish(&app, &author, "Alpha notes", "x").await;
    let second = publish(&app, &author, "Beta notes", "x").await;
    let third = publish(&app, &author, "Gamma", "x").await;
    set_fields(
        &app,
        second["_id"].as_str().unwrap(),
        mongodb::bson::doc! { "likesCount": 5_i64 },
    )
    .await;
    let path = format!("/api/post/user/{}/posts", author.id);
    let id = |p: &serde_json::Value| p["_id"].as_str().unwrap().to_string();
    let cases = [
        ("", vec![id(&third), id(&second), id(&first)]),
        ("?sort=newest", vec![id(&third), id(&second), id(&first)]),
        ("?sort=oldest", vec![id(&first), id(&second), id(&third)]),
        ("?sort=popular", vec![id(&second), id(&third), id(&first)]),
        ("?search=notes", vec![id(&second), id(&first)]),
        ("?search=a.p", vec![]),
    ];
    for (query, expected) in cases {
        let body = get_ok(&app, &format!("{path}{query}"), None).await;
        assert_eq!(ids_of(&body), expected, "case {query}");
    }
}
