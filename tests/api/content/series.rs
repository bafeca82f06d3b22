//! Series: a writer puts posts in order; readers read the visible parts numbered in that order
//! (unpublishing or deleting a part renumbers the rest), follow a series and hear of a new part
//! once; the series page, feeds, sitemap and a part's page carry the series; bad requests change
//! nothing; two reorders at once end in one of them.

use mongodb::bson::oid::ObjectId;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::*;

async fn create_series(app: &TestApp, user: &TestUser, body: Value) -> Value {
    let res = app.post_json("/api/series", &body, Some(&user.token)).await;
    let status = res.status();
    let answer = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    answer["series"].clone()
}

async fn add(app: &TestApp, user: &TestUser, series: &Value, post: &Value) -> reqwest::Response {
    app.post_json(
        &format!("/api/series/{}/posts", series["_id"].as_str().unwrap()),
        &json!({ "postId": post["_id"] }),
        Some(&user.token),
    )
    .await
}

async fn read_series(app: &TestApp, slug: &str, token: Option<&str>) -> Value {
    get_ok(app, &format!("/api/series/{slug}"), token).await
}

fn titles(parts: &Value) -> Vec<String> {
    parts
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["title"].as_str().unwrap().to_string())
        .collect()
}

async fn post_answer(app: &TestApp, post: &Value, token: Option<&str>) -> Value {
    get_ok(
        app,
        &format!("/api/post/{}", post["slug"].as_str().unwrap()),
        token,
    )
    .await["post"]
        .clone()
}

#[actix_web::test]
async fn a_writer_orders_a_series_and_readers_read_the_visible_parts_in_order() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let series = create_series(
        &app,
        &author,
        json!({ "title": "The Long Walk", "description": "Across the country on foot." }),
    )
    .await;
    assert_eq!(series["slug"], "the-long-walk");
    assert_eq!(series["parts"], json!([]));
    let one = publish(&app, &author, "Day one", "We set off.").await;
    let two = publish(&app, &author, "Day two", "Rain all day.").await;
    let three = publish(&app, &author, "Day three", "Sun at last.").await;
    for post in [&one, &two, &three] {
        let res = add(&app, &author, &series, post).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let id = series["_id"].as_str().unwrap();
    let res = app
        .put_json(
            &format!("/api/series/{id}/posts"),
            &json!({ "postIds": [three["_id"], one["_id"], two["_id"]] }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let answer = json_of(res).await;
    assert_eq!(
        titles(&answer["series"]["parts"]),
        ["Day three", "Day one", "Day two"]
    );

    let public = read_series(&app, "the-long-walk", None).await;
    assert_eq!(public["series"]["title"], "The Long Walk");
    assert_eq!(public["series"]["author"]["_id"], author.id);
    assert_eq!(
        titles(&public["parts"]),
        ["Day three", "Day one", "Day two"]
    );
    assert_eq!(public["parts"][1]["position"], 2);
    assert_eq!(public["progress"], json!({ "read": 0, "total": 3 }));

    // A part's answer carries its place, for guests and signed-in readers alike.
    for token in [None, Some(reader.token.as_str())] {
        let place = &post_answer(&app, &one, token).await["series"];
        assert_eq!(place["slug"], "the-long-walk");
        assert_eq!(place["position"], 2);
        assert_eq!(place["total"], 3);
        assert_eq!(place["previous"]["title"], "Day three");
        assert_eq!(place["next"]["title"], "Day two");
    }

    // The reader's progress comes from their reading time.
    app.post_json(
        &format!("/api/post/time-spent/{}", one["_id"].as_str().unwrap()),
        &json!({ "duration": 40 }),
        Some(&reader.token),
    )
    .await;
    let mine = read_series(&app, "the-long-walk", Some(&reader.token)).await;
    assert_eq!(mine["progress"], json!({ "read": 1, "total": 3 }));
    assert_eq!(mine["parts"][1]["read"], true);

    // Unpublishing a part renumbers the rest; publishing it again brings it back in place.
    let unpublish = |post: &Value, status: &str| {
        let path = format!("/api/post/update/{}", post["slug"].as_str().unwrap());
        let body = json!({ "status": status });
        let token = author.token.clone();
        let app = &app;
        async move { app.patch_json(&path, &body, Some(&token)).await }
    };
    assert_eq!(unpublish(&one, "draft").await.status(), StatusCode::OK);
    let public = read_series(&app, "the-long-walk", None).await;
    assert_eq!(titles(&public["parts"]), ["Day three", "Day two"]);
    let place = &post_answer(&app, &two, None).await["series"];
    assert_eq!(
        (place["position"].clone(), place["total"].clone()),
        (json!(2), json!(2))
    );
    assert_eq!(place["previous"]["title"], "Day three");
    // The writer still sees every part, with what readers see.
    let mine = get_ok(&app, "/api/series/mine", Some(&author.token)).await;
    let parts = &mine["series"][0]["parts"];
    assert_eq!(titles(parts), ["Day three", "Day one", "Day two"]);
    assert_eq!(parts[1]["visible"], false);
    assert_eq!(unpublish(&one, "published").await.status(), StatusCode::OK);
    assert_eq!(
        titles(&read_series(&app, "the-long-walk", None).await["parts"]),
        ["Day three", "Day one", "Day two"]
    );

    // Deleting a part takes it out: no dead link.
    let res = app
        .delete(
            &format!("/api/post/delete/{}", three["_id"].as_str().unwrap()),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let public = read_series(&app, "the-long-walk", None).await;
    assert_eq!(titles(&public["parts"]), ["Day one", "Day two"]);
    let place = &post_answer(&app, &one, None).await["series"];
    assert_eq!(place["position"], 1);
    assert_eq!(place["previous"], Value::Null);

    // A post out of the series carries none; deleting the series leaves its posts.
    let res = app
        .delete(
            &format!("/api/series/{id}/posts/{}", two["_id"].as_str().unwrap()),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(post_answer(&app, &two, None).await.get("series").is_none());
    let res = app
        .delete(&format!("/api/series/{id}"), Some(&author.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_error(
        app.get("/api/series/the-long-walk", None).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    let still = post_answer(&app, &one, None).await;
    assert_eq!(still["title"], "Day one");
    assert!(still.get("series").is_none());
}

#[actix_web::test]
async fn bad_series_requests_are_refused_with_clear_messages_and_change_nothing() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let other = app.signup().await;
    let series = create_series(&app, &author, json!({ "title": "Saga" })).await;
    let id = series["_id"].as_str().unwrap().to_string();
    let mine = publish(&app, &author, "Mine one", "text").await;
    let mine_two = publish(&app, &author, "Mine two", "text").await;
    let theirs = publish(&app, &other, "Theirs", "text").await;
    assert_eq!(
        add(&app, &author, &series, &mine).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        add(&app, &author, &series, &mine_two).await.status(),
        StatusCode::OK
    );

    // Someone else's post, a post already in it, a post in another series.
    let message = assert_error(
        add(&app, &author, &series, &theirs).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(message, "You can only add your own posts to a series");
    let message = assert_error(
        add(&app, &author, &series, &mine).await,
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(message, "This post is already part of this series");
    let second = create_series(&app, &author, json!({ "title": "Other saga" })).await;
    let message = assert_error(
        add(&app, &author, &second, &mine).await,
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(message, "This post is already part of another series");
    // Another writer may not touch the series.
    let message = assert_error(
        add(&app, &other, &series, &theirs).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(message, "Only the writer of this series can change it");
    let res = app
        .patch_json(
            &format!("/api/series/{id}"),
            &json!({ "title": "Mine now" }),
            Some(&other.token),
        )
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    // A slug clash, an empty title, a slug of the wrong shape.
    let res = app
        .patch_json(
            &format!("/api/series/{id}"),
            &json!({ "slug": "other-saga" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "This address is already taken by another series"
    );
    let res = app
        .post_json(
            "/api/series",
            &json!({ "slug": "saga", "title": "Again" }),
            Some(&author.token),
        )
        .await;
    assert_error(res, StatusCode::CONFLICT).await;
    let res = app
        .post_json(
            "/api/series",
            &json!({ "title": "  " }),
            Some(&author.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Title is required"
    );
    let res = app
        .post_json(
            "/api/series",
            &json!({ "title": "X", "slug": "Not A Slug" }),
            Some(&author.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    // Orders that are not the parts.
    let order = |ids: Vec<&Value>| json!({ "postIds": ids });
    for body in [
        order(vec![&mine["_id"]]),
        order(vec![&mine["_id"], &mine["_id"]]),
        order(vec![&mine["_id"], &mine_two["_id"], &theirs["_id"]]),
        order(vec![&mine["_id"], &theirs["_id"]]),
        json!({ "postIds": ["nonsense", "x"] }),
        json!({}),
    ] {
        let res = app
            .put_json(
                &format!("/api/series/{id}/posts"),
                &body,
                Some(&author.token),
            )
            .await;
        assert_error(res, StatusCode::BAD_REQUEST).await;
    }
    // Unknown series, unknown part.
    let unknown = ObjectId::new().to_hex();
    assert_error(
        app.get(&format!("/api/series/{unknown}"), None).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    let res = app
        .delete(
            &format!("/api/series/{id}/posts/{}", theirs["_id"].as_str().unwrap()),
            Some(&author.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "This post is not part of this series"
    );
    // Signed out.
    let res = app
        .post_json("/api/series", &json!({ "title": "Anon" }), None)
        .await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);

    // Nothing changed.
    let public = read_series(&app, "saga", None).await;
    assert_eq!(public["series"]["title"], "Saga");
    assert_eq!(titles(&public["parts"]), ["Mine one", "Mine two"]);
    assert!(post_answer(&app, &theirs, None)
        .await
        .get("series")
        .is_none());
}

#[actix_web::test]
async fn two_reorders_at_once_end_in_one_of_them_and_one_post_goes_to_one_series() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let series = create_series(&app, &author, json!({ "title": "Race" })).await;
    let mut posts = Vec::new();
    for i in 0..5 {
        let post = publish(&app, &author, &format!("Part {i}"), "text").await;
        assert_eq!(
            add(&app, &author, &series, &post).await.status(),
            StatusCode::OK
        );
        posts.push(post);
    }
    let id = series["_id"].as_str().unwrap().to_string();
    let ids: Vec<Value> = posts.iter().map(|p| p["_id"].clone()).collect();
    let forward = ids.clone();
    let backward: Vec<Value> = ids.iter().rev().cloned().collect();
    let path = format!("/api/series/{id}/posts");
    let (forward_body, backward_body) = (
        json!({ "postIds": forward }),
        json!({ "postIds": backward }),
    );
    for _ in 0..5 {
        let (a, b) = tokio::join!(
            app.put_json(&path, &forward_body, Some(&author.token)),
            app.put_json(&path, &backward_body, Some(&author.token)),
        );
        assert_eq!(a.status(), StatusCode::OK);
        assert_eq!(b.status(), StatusCode::OK);
        let now = read_series(&app, "race", None).await;
        let order: Vec<Value> = now["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["_id"].clone())
            .collect();
        assert!(order == forward || order == backward, "{order:?}");
    }
    // Two series claiming one post at once: exactly one gets it.
    let other = create_series(&app, &author, json!({ "title": "Race two" })).await;
    let third = create_series(&app, &author, json!({ "title": "Race three" })).await;
    let loner = publish(&app, &author, "Loner", "text").await;
    let (a, b) = tokio::join!(
        add(&app, &author, &other, &loner),
        add(&app, &author, &third, &loner)
    );
    let statuses = [a.status(), b.status()];
    assert!(
        statuses.contains(&StatusCode::OK) && statuses.contains(&StatusCode::CONFLICT),
        "{statuses:?}"
    );
    let in_other = read_series(&app, "race-two", None).await["parts"]
        .as_array()
        .unwrap()
        .len();
    let in_third = read_series(&app, "race-three", None).await["parts"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(in_other + in_third, 1);
}

async fn new_post_notices(app: &TestApp, user: &TestUser, post: &Value) -> Vec<Value> {
    let body = json_of(
        app.get("/api/notification/notifications", Some(&user.token))
            .await,
    )
    .await;
    body["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == "new_post")
        .filter(|n| n["post"]["_id"] == post["_id"])
        .cloned()
        .collect()
}

#[actix_web::test]
async fn a_new_part_reaches_each_follower_of_the_series_once() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let series_only = app.signup().await;
    let both = app.signup().await;
    for u in [&series_only, &both] {
        pressroom::persistence::users::mark_verified(&app.db, ObjectId::parse_str(&u.id).unwrap())
            .await
            .unwrap();
    }
    app.follow_directly(&both, &author).await;
    let series = create_series(&app, &author, json!({ "title": "Serial" })).await;
    let id = series["_id"].as_str().unwrap();
    for reader in [&series_only, &both] {
        let res = app
            .post_empty(&format!("/api/series/{id}/follow"), Some(&reader.token))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let res = app
        .post_empty(&format!("/api/series/{id}/follow"), Some(&author.token))
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    assert_eq!(
        read_series(&app, "serial", Some(&both.token)).await["series"]["following"],
        true
    );
    assert_eq!(
        read_series(&app, "serial", None).await["series"]["followers"],
        2
    );

    // A draft part, published later; then a part published first and added after.
    let draft = create_post(
        &app,
        &author.token,
        with(
            post_body("Chapter one", "Once upon a time"),
            json!({ "status": "draft" }),
        ),
    )
    .await;
    assert_eq!(
        add(&app, &author, &series, &draft).await.status(),
        StatusCode::OK
    );
    let path = format!("/api/post/update/{}", draft["slug"].as_str().unwrap());
    let res = app
        .patch_json(
            &path,
            &json!({ "status": "published" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let second = publish(&app, &author, "Chapter two", "And then").await;
    assert_eq!(
        add(&app, &author, &series, &second).await.status(),
        StatusCode::OK
    );
    // Taken out and put back: not announced again.
    app.delete(
        &format!("/api/series/{id}/posts/{}", second["_id"].as_str().unwrap()),
        Some(&author.token),
    )
    .await;
    assert_eq!(
        add(&app, &author, &series, &second).await.status(),
        StatusCode::OK
    );

    // Readers are told by the new-post worker; wait until it is done.
    for post in [&draft, &second] {
        delivered(&app, &author, post["_id"].as_str().unwrap()).await;
    }
    for post in [&draft, &second] {
        let notices = new_post_notices(&app, &series_only, post).await;
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(
            notices[0]["content"]
                .as_str()
                .unwrap()
                .starts_with("New part in \"Serial\""),
            "{}",
            notices[0]
        );
        assert_eq!(
            new_post_notices(&app, &both, post).await.len(),
            1,
            "a reader following both hears once"
        );
    }
    // Unfollowing stops it.
    let res = app
        .delete(
            &format!("/api/series/{id}/follow"),
            Some(&series_only.token),
        )
        .await;
    assert_eq!(json_of(res).await["following"], false);
    let third = publish(&app, &author, "Chapter three", "The end").await;
    add(&app, &author, &series, &third).await;
    assert_eq!(new_post_notices(&app, &series_only, &third).await.len(), 0);
}

#[actix_web::test]
async fn the_series_page_feeds_sitemap_and_a_parts_page_carry_the_series() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let series = create_series(
        &app,
        &author,
        json!({ "title": "Field Notes", "description": "Notes from the field." }),
    )
    .await;
    let first = publish(&app, &author, "Notes one", "The first visible words.").await;
    let locked = create_post(
        &app,
        &author.token,
        json!({ "title": "Notes two", "audience": "subscribers", "blocks": [paragraph("p1", &"Teaser line. ".repeat(30)), paragraph("p2", "Hidden paid words.")] }),
    )
    .await;
    for post in [&first, &locked] {
        assert_eq!(
            add(&app, &author, &series, post).await.status(),
            StatusCode::OK
        );
    }
    let res = app.get("/series/field-notes", None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let html = res.text().await.unwrap();
    assert!(html.contains("Field Notes"));
    assert!(html.contains("Notes one") && html.contains("Notes two"));
    assert!(
        !html.contains("Hidden paid words"),
        "a subscriber-only part is a teaser"
    );
    assert!(html.contains("/series/field-notes/feed.xml"));
    let ld = json_ld(&html).remove(0);
    assert_eq!(ld["@type"], "CreativeWorkSeries");
    assert_eq!(ld["hasPart"][1]["position"], 2);
    assert_eq!(ld["hasPart"][1]["isAccessibleForFree"], false);
    // The app's first screen comes from the page: the series as a guest sees it, the answer of
    // `GET /api/series/{slug}`.
    let marker = "<script type=\"application/json\" id=\"initial-data\">";
    let start = html.find(marker).expect("the app's initial data") + marker.len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: Value = serde_json::from_str(&html[start..end]).unwrap();
    assert_eq!(data["path"], "/series/field-notes");
    assert_eq!(data["series"], read_series(&app, "field-notes", None).await);
    assert!(
        !data.to_string().contains("Hidden paid words"),
        "a subscriber-only part is a teaser in the data too"
    );

    let res = app
        .get(&format!("/post/{}", first["slug"].as_str().unwrap()), None)
        .await;
    let html = res.text().await.unwrap();
    assert!(
        html.contains("Part 1 of 2 in <a href=\"/series/field-notes\">Field Notes</a>"),
        "{html}"
    );
    assert!(html.contains("\"isPartOf\""));

    for file in ["feed.xml", "rss.xml"] {
        let res = app.get(&format!("/series/field-notes/{file}"), None).await;
        assert_eq!(res.status(), StatusCode::OK, "{file}");
        let body = res.text().await.unwrap();
        assert!(
            body.contains("Notes one") && body.contains("Notes two"),
            "{body}"
        );
        assert!(
            !body.contains("Hidden paid words"),
            "{file} shows the teaser only"
        );
    }
    let sitemap = app
        .get("/sitemap-series-1.xml", None)
        .await
        .text()
        .await
        .unwrap();
    assert!(sitemap.contains("/series/field-notes</loc>"), "{sitemap}");
    let index = app.get("/sitemap.xml", None).await.text().await.unwrap();
    assert!(index.contains("/sitemap-series-1.xml"));
    assert_eq!(
        app.get("/series/no-such-series", None).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/series/no-such-series/feed.xml", None)
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
}

#[actix_web::test]
async fn series_followers_are_emailed_by_their_alerts_and_never_twice_for_one_post() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let instant = app.signup().await;
    let digest = app.signup().await;
    let off = app.signup().await;
    let both = app.signup().await;
    let stranger = app.signup().await;
    for u in [&instant, &digest, &off, &both, &stranger] {
        pressroom::persistence::users::mark_verified(&app.db, ObjectId::parse_str(&u.id).unwrap())
            .await
            .unwrap();
    }
    app.follow_directly(&both, &author).await;
    let series = create_series(&app, &author, json!({ "title": "Serial" })).await;
    let id = series["_id"].as_str().unwrap();
    for reader in [&instant, &digest, &off, &both] {
        let res = app
            .post_empty(&format!("/api/series/{id}/follow"), Some(&reader.token))
            .await;
        assert_eq!(json_of(res).await["alerts"], "instant", "the default");
    }
    let alerts = format!("/api/series/{id}/follow/alerts");
    for (reader, mode) in [(&digest, "digest"), (&off, "off")] {
        let res = app
            .put_json(&alerts, &json!({ "mode": mode }), Some(&reader.token))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(json_of(res).await["alerts"], mode);
    }
    // Bad choices change nothing.
    let res = app
        .put_json(&alerts, &json!({ "mode": "loud" }), Some(&digest.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "mode must be instant, digest or off"
    );
    let res = app
        .put_json(&alerts, &json!({ "mode": "off" }), Some(&stranger.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "You do not follow this series"
    );
    let res = app
        .put_json(
            "/api/series/no-such-series/follow/alerts",
            &json!({ "mode": "off" }),
            Some(&digest.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Series not found"
    );
    assert_eq!(
        read_series(&app, "serial", Some(&digest.token)).await["series"]["alerts"],
        "digest"
    );
    assert!(read_series(&app, "serial", Some(&stranger.token)).await["series"]["alerts"].is_null());

    let mails = |u: &TestUser| app.mail_count(&u.email);
    let before: Vec<usize> = [&instant, &digest, &off, &both].map(mails).to_vec();
    // A part published in the series, and a post out long before that joins it.
    let draft = create_post(
        &app,
        &author.token,
        with(
            post_body("Chapter one", "Once"),
            json!({ "status": "draft" }),
        ),
    )
    .await;
    add(&app, &author, &series, &draft).await;
    let path = format!("/api/post/update/{}", draft["slug"].as_str().unwrap());
    let res = app
        .patch_json(
            &path,
            &json!({ "status": "published" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let older = publish(&app, &author, "Chapter two", "Later").await;
    delivered(&app, &author, older["_id"].as_str().unwrap()).await;
    assert_eq!(
        add(&app, &author, &series, &older).await.status(),
        StatusCode::OK
    );
    for post in [&draft, &older] {
        delivered(&app, &author, post["_id"].as_str().unwrap()).await;
    }

    for post in [&draft, &older] {
        for (reader, expected) in [(&instant, 1), (&digest, 1), (&off, 0), (&both, 1)] {
            assert_eq!(
                new_post_notices(&app, reader, post).await.len(),
                expected,
                "{}",
                reader.email
            );
        }
        let told = &new_post_notices(&app, &instant, post).await[0];
        assert!(
            told["content"]
                .as_str()
                .unwrap()
                .starts_with("New part in \"Serial\""),
            "{told}"
        );
    }
    // At once: the instant follower and the writer's follower, one email per post each.
    assert_eq!(mails(&instant), before[0] + 2);
    assert_eq!(mails(&digest), before[1]);
    assert_eq!(mails(&off), before[2]);
    assert_eq!(mails(&both), before[3] + 2);
    let mail = app.wait_for_mail(&instant.email, before[0] + 1).await;
    let text = mail
        .replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=");
    assert!(text.contains("Chapter"), "{text}");
    assert!(text.contains("follow the series \"Serial\""), "{text}");

    // The digest follower gets both parts in the day's email.
    let mailer = pressroom::mail::Mailer::new(&app.settings.mail, app.db.clone()).unwrap();
    let job = pressroom::services::jobs::daily_mail::DailyMailer {
        db: &app.db,
        mailer: &mailer,
        settings: &app.settings,
    };
    let tomorrow = chrono::Utc::now().date_naive().succ_opt().unwrap();
    job.run(tomorrow, false).await.unwrap();
    let daily = app.wait_for_mail(&digest.email, before[1]).await;
    assert!(
        daily.contains("Chapter one") && daily.contains("Chapter two"),
        "{daily}"
    );
    assert_eq!(mails(&off), before[2], "alerts off: no digest either");

    // The one-click link in the instant email stops the series' emails (the follow stays).
    let link = header(&mail, "List-Unsubscribe").unwrap();
    let link = link.trim_start_matches('<').trim_end_matches('>');
    let path = &link[link.find("/api/").unwrap()..];
    let res = app.post_empty(path, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let now = read_series(&app, "serial", Some(&instant.token)).await;
    assert_eq!(now["series"]["following"], true);
    assert_eq!(now["series"]["alerts"], "off");
}
