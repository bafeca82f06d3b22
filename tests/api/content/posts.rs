//! Writing, reading, editing and deleting posts.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::*;

#[actix_web::test]
async fn a_created_post_has_the_full_shape() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let post = create_post(
        &app,
        &user.token,
        json!({
            "title": "  Hello,   World!  ",
            "blocks": [paragraph("p1", "Some <b>bold</b> words")],
            "tags": [" Rust ", "rust", "Web"],
            "postType": "Blog",
            "visibility": "Public",
            "language": "en",
        }),
    )
    .await;
    assert_eq!(post["title"], "Hello, World!");
    assert_eq!(post["slug"], "hello-world");
    assert_eq!(post["tags"], json!(["rust", "web"]));
    assert_eq!(post["postType"], "Blog");
    assert_eq!(post["visibility"], "Public");
    assert_eq!(post["status"], "published");
    assert_eq!(post["isPublished"], true);
    assert_eq!(post["blocked"], false);
    assert_eq!(post["language"], "en");
    assert_eq!(post["readingTime"], 1);
    assert_eq!(post["likesCount"], 0);
    assert_eq!(post["author"]["_id"], user.id);
    assert_eq!(post["author"]["name"], "Ada Lovelace");
    assert!(post["author"].get("email").is_none());
    assert_eq!(post["category"], Value::Null);
    assert!(post["createdAt"].as_str().unwrap().ends_with('Z'));
    assert!(post.get("searchText").is_none());
    assert_eq!(post["blocks"][0]["data"]["text"], "Some <b>bold</b> words");
    let me = get_ok(&app, "/api/user/get-user", Some(&user.token)).await;
    assert_eq!(me["data"]["totalPosts"], 1);
}

#[actix_web::test]
async fn bad_post_bodies_are_refused_with_clear_messages() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let blob = "Upload failed: Please convert Blob URLs to base64 or upload images properly.";
    let cases = [
        ("no blocks", json!({ "title": "T" }), "Blocks are required"),
        (
            "empty blocks",
            json!({ "title": "T", "blocks": [] }),
            "Blocks are required",
        ),
        (
            "blocks not a list",
            json!({ "title": "T", "blocks": "x" }),
            "Blocks are required",
        ),
        (
            "blob thumbnail",
            with(
                post_body("T", "x"),
                json!({ "thumbnail": "blob:http://localhost/abc" }),
            ),
            blob,
        ),
        (
            "blob image",
            json!({ "title": "T", "blocks": [{ "id": "i", "type": "image", "data": { "file": { "url": "blob:http://x/1" } } }] }),
            blob,
        ),
        (
            "blob inside html",
            json!({ "title": "T", "blocks": [paragraph("p", "<img src=\"blob:http://x/1\">")] }),
            blob,
        ),
        (
            "no title",
            json!({ "blocks": [paragraph("p", "x")] }),
            "Title is required",
        ),
        (
            "blank title",
            json!({ "title": "   ", "blocks": [paragraph("p", "x")] }),
            "Title is required",
        ),
        (
            "long title",
            json!({ "title": "t".repeat(201), "blocks": [paragraph("p", "x")] }),
            "at most 200",
        ),
        (
            "unknown block type",
            json!({ "title": "T", "blocks": [paragraph("p", "x"), { "id": "r1", "type": "raw", "data": {} }] }),
            "Block 2 (id 'r1') has an unknown type 'raw'",
        ),
        (
            "block without id",
            json!({ "title": "T", "blocks": [{ "type": "paragraph", "data": { "text": "x" } }] }),
            "Block 1 (paragraph) has no id",
        ),
        (
            "malformed poll",
            json!({ "title": "T", "blocks": [{ "id": "v1", "type": "poll", "data": { "question": "Q?", "options": [{ "text": "only" }] } }] }),
            "Block 1 (poll 'v1')",
        ),
        (
            "bad visibility",
            with(post_body("T", "x"), json!({ "visibility": "Friends" })),
            "visibility",
        ),
        (
            "bad post type",
            with(post_body("T", "x"), json!({ "postType": "Novel" })),
            "postType",
        ),
        (
            "bad status",
            with(post_body("T", "x"), json!({ "status": "archived" })),
            "status",
        ),
        (
            "scheduled without time",
            with(post_body("T", "x"), json!({ "status": "scheduled" })),
            "publishAt",
        ),
        (
            "scheduled in the past",
            with(
                post_body("T", "x"),
                json!({ "status": "scheduled", "publishAt": "2001-01-01T00:00:00Z" }),
            ),
            "future",
        ),
        (
            "eleven tags",
            with(
                post_body("T", "x"),
                json!({ "tags": ["a","b","c","d","e","f","g","h","i","j","k"] }),
            ),
            "at most 10 tags",
        ),
        (
            "javascript thumbnail",
            with(
                post_body("T", "x"),
                json!({ "thumbnail": "javascript:alert(1)" }),
            ),
            "thumbnail",
        ),
        (
            "title as object",
            json!({ "title": { "$ne": null }, "blocks": [paragraph("p", "x")] }),
            "'title'",
        ),
    ];
    for (case, body, expected) in cases {
        let res = app
            .post_json("/api/post/post-create", &body, Some(&user.token))
            .await;
        let status = res.status();
        let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(msg.contains(expected), "case {case} ({status}): {msg}");
    }
    let count = get_ok(&app, "/api/post/count/my", Some(&user.token)).await;
    assert_eq!(count["count"], 0, "nothing was created");
    let res = app
        .post_json("/api/post/post-create", &post_body("T", "x"), None)
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}

/// `blocks`, `thumbnail` and `category` answer with their own messages, in the order the
/// handler has always checked them (upload rules, title, blocks, thumbnail, tags, category);
/// `null` in them counts as not sent, and keys the body does not name are ignored.
#[actix_web::test]
async fn the_free_form_fields_of_a_post_answer_in_their_order() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let blob = "Upload failed: Please convert Blob URLs to base64 or upload images properly.";
    let bad_thumbnail = "thumbnail must be an http(s) address, a /media/ path or a base64 data URL";
    let cases = [
        (
            "blocks null",
            json!({ "title": "T", "blocks": null }),
            "Blocks are required",
        ),
        (
            "no blocks wins over a blob thumbnail",
            json!({ "title": "T", "thumbnail": "blob:http://x/1" }),
            "Blocks are required",
        ),
        (
            "a blob thumbnail wins over a missing title",
            json!({ "blocks": [paragraph("p", "x")], "thumbnail": { "u": "blob:http://x/1" } }),
            blob,
        ),
        (
            "a missing title wins over a bad block",
            json!({ "blocks": [{ "id": "r1", "type": "raw", "data": {} }], "thumbnail": 5 }),
            "Title is required",
        ),
        (
            "a bad block wins over a bad thumbnail",
            json!({ "title": "T", "blocks": [{ "id": "r1", "type": "raw", "data": {} }], "thumbnail": 5 }),
            "Block 1 (id 'r1') has an unknown type 'raw'",
        ),
        (
            "thumbnail a number",
            with(post_body("T", "x"), json!({ "thumbnail": 5 })),
            bad_thumbnail,
        ),
        (
            "a bad thumbnail wins over bad tags",
            with(
                post_body("T", "x"),
                json!({ "thumbnail": "ftp://x", "tags": ["a","b","c","d","e","f","g","h","i","j","k"], "category": 5 }),
            ),
            bad_thumbnail,
        ),
        (
            "category a number",
            with(post_body("T", "x"), json!({ "category": 5 })),
            "category must be a category id",
        ),
        (
            "category an object without an id",
            with(
                post_body("T", "x"),
                json!({ "category": { "name": "News" } }),
            ),
            "category must be a category id",
        ),
        (
            "a bad category wins over a bad status",
            with(
                post_body("T", "x"),
                json!({ "category": [], "status": "archived" }),
            ),
            "category must be a category id",
        ),
        (
            "an unknown category slug",
            with(
                post_body("T", "x"),
                json!({ "category": "no-such-category" }),
            ),
            "Category not found",
        ),
        (
            "an unknown category id in an object",
            with(
                post_body("T", "x"),
                json!({ "category": { "_id": "650000000000000000000000" } }),
            ),
            "Category not found",
        ),
    ];
    for (case, body, expected) in cases {
        let res = app
            .post_json("/api/post/post-create", &body, Some(&user.token))
            .await;
        let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(msg.starts_with(expected), "case {case}: {msg}");
    }

    // `null` and an empty text are no thumbnail and no category; other keys are ignored.
    let post = create_post(
        &app,
        &user.token,
        with(
            post_body("Kept", "x"),
            json!({ "thumbnail": null, "category": "", "editorVersion": "2.30", "time": 1 }),
        ),
    )
    .await;
    assert_eq!(post["thumbnail"], Value::Null);
    assert_eq!(post["category"], Value::Null);
    let path = format!("/api/post/update/{}", post["slug"].as_str().unwrap());
    let picture = "https://example.com/a.png";
    let res = app
        .patch_json(
            &path,
            &json!({ "thumbnail": picture, "extra": true }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    // On a change, `null` leaves a field as it is, an empty text removes it.
    let res = app
        .patch_json(
            &path,
            &json!({ "thumbnail": null, "blocks": null }),
            Some(&user.token),
        )
        .await;
    let body = json_of(res).await;
    assert_eq!(body["post"]["thumbnail"], picture, "{body}");
    assert_eq!(body["post"]["blocks"][0]["data"]["text"], "x");
    let res = app
        .patch_json(&path, &json!({ "thumbnail": "" }), Some(&user.token))
        .await;
    assert_eq!(json_of(res).await["post"]["thumbnail"], Value::Null);
    let res = app
        .patch_json(
            &path,
            &json!({ "thumbnail": 5, "title": "" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Title is required"
    );
    let res = app
        .patch_json(&path, &json!({ "category": 5 }), Some(&user.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "category must be a category id"
    );
}

#[actix_web::test]
async fn inline_html_is_sanitised_on_the_server() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let post = create_post(
        &app,
        &user.token,
        json!({
            "title": "<script>alert(1)</script>Safe",
            "blocks": [
                paragraph("p1", "<b onclick=\"steal()\">bold</b><script>alert(1)</script><a href=\"javascript:alert(1)\">x</a><a href=\"https://example.com\">ok</a>"),
                { "id": "h1", "type": "header", "data": { "text": "<img src=x onerror=alert(1)>Head", "level": 2 } },
                { "id": "l1", "type": "list", "data": { "style": "unordered", "items": ["<i>a</i><iframe src=\"https://evil\"></iframe>"] } },
            ],
        }),
    )
    .await;
    let text = post["blocks"][0]["data"]["text"].as_str().unwrap();
    assert!(
        !text.contains("script") && !text.contains("onclick") && !text.contains("javascript"),
        "{text}"
    );
    assert!(text.contains("<b>bold</b>"), "{text}");
    assert!(text.contains(r#"href="https://example.com""#), "{text}");
    assert_eq!(post["blocks"][1]["data"]["text"], "Head");
    assert_eq!(post["blocks"][2]["data"]["items"][0], "<i>a</i>");
    // The title is plain text, kept as written; clients escape it.
    assert_eq!(post["title"], "<script>alert(1)</script>Safe");
}

#[actix_web::test]
async fn colliding_titles_get_numbered_slugs() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let mut slugs = Vec::new();
    for _ in 0..3 {
        slugs.push(
            publish(&app, &user, "Same Title!", "x").await["slug"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(slugs, ["same-title", "same-title-2", "same-title-3"]);
    let odd = publish(&app, &user, "¿¡!!", "x").await;
    assert_eq!(odd["slug"], "post");
    let accents = publish(&app, &user, "Crème Brûlée", "x").await;
    assert_eq!(accents["slug"], "creme-brulee");
}

/// Free slugs are found by looking candidates up a batch at a time (not by listing the slugs in
/// use): past the first batch the numbering goes on, and a number freed by a deleted post is the
/// first free one again.
#[actix_web::test]
async fn numbered_slugs_go_past_a_batch_and_reuse_a_freed_number() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let mut last = Value::Null;
    let mut second = Value::Null;
    for n in 1..=35 {
        last = publish(&app, &user, "Often", "x").await;
        if n == 2 {
            second = last.clone();
        }
    }
    assert_eq!(last["slug"], "often-35");
    assert_eq!(second["slug"], "often-2");
    let res = app
        .delete(
            &format!("/api/post/delete/{}", second["_id"].as_str().unwrap()),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    let again = publish(&app, &user, "Often", "x").await;
    assert_eq!(again["slug"], "often-2");
    let next = publish(&app, &user, "Often", "x").await;
    assert_eq!(next["slug"], "often-36");
}

#[actix_web::test]
async fn unknown_slugs_are_not_found() {
    let app = spawn_app().await;
    let user = app.signup().await;
    for path in [
        "/api/post/public/nope",
        "/api/post/nope",
        "/api/public/post/nope",
    ] {
        let msg = assert_error(
            app.get(path, Some(&user.token)).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        assert_eq!(msg, "Post not found", "case {path}");
    }
    let msg = assert_error(
        app.get("/api/post/public/undefined", None).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(msg, "Invalid post slug");
}

/// Who sees which post by its address.
#[actix_web::test]
async fn the_visibility_matrix_by_slug() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let other = app.signup().await;
    let admin = app.admin().await;
    let make = |title: &str, extra: Value| with(post_body(title, "text"), extra);
    let public = create_post(&app, &author.token, make("Public one", json!({}))).await;
    let private = create_post(
        &app,
        &author.token,
        make("Private one", json!({ "visibility": "Private" })),
    )
    .await;
    let unlisted = create_post(
        &app,
        &author.token,
        make("Unlisted one", json!({ "visibility": "Unlisted" })),
    )
    .await;
    let draft = create_post(
        &app,
        &author.token,
        make("Draft one", json!({ "status": "draft" })),
    )
    .await;
    let blocked = create_post(&app, &author.token, make("Blocked one", json!({}))).await;
    set_blocked(&app, blocked["_id"].as_str().unwrap(), true).await;

    let viewers: [(&str, Option<&str>); 4] = [
        ("guest", None),
        ("other", Some(&other.token)),
        ("author", Some(&author.token)),
        ("admin", Some(&admin.token)),
    ];
    //            guest  other  author admin
    let matrix = [
        (&public, [true, true, true, true]),
        (&private, [false, false, true, true]),
        (&unlisted, [true, true, true, true]),
        (&draft, [false, false, true, false]),
        (&blocked, [false, false, true, true]),
    ];
    for (post, expected) in matrix {
        let slug = post["slug"].as_str().unwrap();
        for ((viewer, token), visible) in viewers.iter().zip(expected) {
            for route in ["/api/post/public/", "/api/post/", "/api/public/post/"] {
                let res = app.get(&format!("{route}{slug}"), *token).await;
                let case = format!("{slug} for {viewer} via {route}");
                if visible {
                    assert_eq!(res.status(), StatusCode::OK, "case {case}");
                    let body = json_of(res).await;
                    assert_eq!(
                        body["post"]["blocked"],
                        slug.starts_with("blocked"),
                        "case {case}"
                    );
                } else {
                    let msg = assert_error(res, StatusCode::NOT_FOUND).await;
                    assert_eq!(msg, "Post not found", "case {case}");
                }
            }
        }
    }

    // Lists: only the public, unblocked, published post, for everyone.
    for (viewer, token) in viewers {
        for path in [
            "/api/post/public/posts",
            "/api/post/latest-post/latest",
            "/api/post/trending-post/trending",
            "/api/public/posts",
        ] {
            let body = get_ok(&app, path, token).await;
            assert_eq!(
                ids_of(&body),
                [public["_id"].as_str().unwrap()],
                "case {path} for {viewer}"
            );
            assert_eq!(body["total"], 1, "case {path} for {viewer}");
        }
        let count = get_ok(&app, "/api/post/count/all", token).await;
        assert_eq!(count["count"], 1, "case count for {viewer}");
    }
    // The author's own list shows them everything; others see the public post only.
    let path = format!("/api/post/user/{}/posts", author.id);
    let own = get_ok(&app, &path, Some(&author.token)).await;
    assert_eq!(own["total"], 5);
    for (viewer, token) in [
        ("guest", None),
        ("other", Some(other.token.as_str())),
        ("admin", Some(admin.token.as_str())),
    ] {
        let body = get_ok(&app, &path, token).await;
        assert_eq!(body["total"], 1, "case user posts for {viewer}");
    }
    let mine = get_ok(&app, "/api/post/count/my", Some(&author.token)).await;
    assert_eq!(mine["count"], 5);
}

#[actix_web::test]
async fn data_url_images_are_stored_and_served_from_media() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let post = create_post(
        &app,
        &user.token,
        json!({
            "title": "With images",
            "thumbnail": png_data_url(),
            "blocks": [
                paragraph("p", "x"),
                { "id": "i1", "type": "image", "data": { "file": { "url": png_data_url() }, "caption": "A pixel" } },
                { "id": "i2", "type": "image", "data": { "file": { "url": "https://example.com/a.png" } } },
            ],
        }),
    )
    .await;
    let thumb = post["thumbnail"].as_str().unwrap();
    assert!(
        thumb.starts_with("/media/") && thumb.ends_with(".png"),
        "{thumb}"
    );
    assert_eq!(
        post["blocks"][1]["data"]["file"]["url"], thumb,
        "same bytes, same file"
    );
    assert_eq!(
        post["blocks"][2]["data"]["file"]["url"],
        "https://example.com/a.png"
    );

    let res = app.get(thumb, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "image/png");
    assert!(res.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("max-age=31536000"));
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    let bytes = res.bytes().await.unwrap();
    assert!(bytes.starts_with(b"\x89PNG"));

    for (case, path) in [
        (
            "unknown file",
            "/media/0123456789abcdef0123456789abcdef.png",
        ),
        ("not a store name", "/media/secret.txt"),
        ("traversal", "/media/..%2F..%2Fetc%2Fpasswd"),
    ] {
        let res = app.get(path, None).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "case {case}");
    }

    // Deleting the post removes the file.
    let res = app
        .delete(
            &format!("/api/post/delete/{}", post["_id"].as_str().unwrap()),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(app.get(thumb, None).await.status(), StatusCode::NOT_FOUND);
}

#[actix_web::test]
async fn oversized_unsupported_and_mislabelled_images_are_refused() {
    let app = spawn_app().await;
    let user = app.signup().await;
    use base64::Engine;
    let mut big = b"\x89PNG\r\n\x1a\n".to_vec();
    big.resize(5 * 1024 * 1024 + 512 * 1024, 0);
    let big = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&big)
    );
    let cases = [
        ("oversized", big, StatusCode::PAYLOAD_TOO_LARGE, "too large"),
        (
            "svg",
            "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=".to_string(),
            StatusCode::BAD_REQUEST,
            "Unsupported image type",
        ),
        (
            "mislabelled",
            format!("data:image/jpeg;base64,{PNG_1X1}"),
            StatusCode::BAD_REQUEST,
            "not a valid JPEG",
        ),
        (
            "not base64",
            "data:image/png,abc".to_string(),
            StatusCode::BAD_REQUEST,
            "base64",
        ),
    ];
    for (case, url, status, expected) in cases {
        let body = json!({ "title": "T", "blocks": [{ "id": "i", "type": "image", "data": { "file": { "url": url } } }] });
        let res = app
            .post_json("/api/post/post-create", &body, Some(&user.token))
            .await;
        let msg = assert_error(res, status).await;
        assert!(msg.contains(expected), "case {case}: {msg}");
    }
    let count = get_ok(&app, "/api/post/count/my", Some(&user.token)).await;
    assert_eq!(count["count"], 0);
}

#[actix_web::test]
async fn only_the_author_or_an_admin_updates_a_post_and_the_slug_stays() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let other = app.signup().await;
    let admin = app.admin().await;
    let post = publish(&app, &author, "Original title", "first").await;
    let path = format!("/api/post/update/{}", post["slug"].as_str().unwrap());

    let res = app
        .patch_json(&path, &json!({ "title": "Hijacked" }), Some(&other.token))
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app
        .patch_json(&path, &json!({ "title": "Hijacked" }), None)
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    let res = app
        .patch_json(
            "/api/post/update/missing",
            &json!({ "title": "x" }),
            Some(&author.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;

    let res = app
        .patch_json(
            &path,
            &json!({
                "title": "New title",
                "blocks": [paragraph("p1", "second <script>x</script>")],
                "tags": ["Updated"],
                "blocked": true,
                "likesCount": 1000,
                "author": other.id,
            }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    assert_eq!(body["message"], "Post updated successfully");
    let updated = &body["post"];
    assert_eq!(updated["title"], "New title");
    assert_eq!(updated["slug"], post["slug"]);
    assert_eq!(updated["blocks"][0]["data"]["text"], "second ");
    assert_eq!(updated["tags"], json!(["updated"]));
    assert_eq!(
        updated["blocked"], false,
        "server-owned fields are not taken from the body"
    );
    assert_eq!(updated["likesCount"], 0);
    assert_eq!(updated["author"]["_id"], author.id);

    let res = app
        .patch_json(&path, &json!({ "blocks": [] }), Some(&author.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Blocks are required"
    );
    let res = app
        .patch_json(
            &path,
            &json!({ "thumbnail": "blob:http://x/1" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Upload failed: Please convert Blob URLs to base64 or upload images properly."
    );

    let res = app
        .patch_json(
            &path,
            &json!({ "visibility": "Private" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["post"]["visibility"], "Private");
}

#[actix_web::test]
async fn publishing_a_draft_counts_it_and_brings_it_to_the_top() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let draft = create_post(
        &app,
        &author.token,
        with(post_body("Later", "x"), json!({ "isPublished": false })),
    )
    .await;
    assert_eq!(draft["status"], "draft");
    publish(&app, &author, "Meanwhile", "x").await;
    let me = get_ok(&app, "/api/user/get-user", Some(&author.token)).await;
    assert_eq!(me["data"]["totalPosts"], 1);

    let path = format!("/api/post/update/{}", draft["slug"].as_str().unwrap());
    let res = app
        .patch_json(
            &path,
            &json!({ "status": "published" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let latest = get_ok(&app, "/api/post/latest-post/latest", None).await;
    assert_eq!(latest["posts"][0]["_id"], draft["_id"]);
    let me = get_ok(&app, "/api/user/get-user", Some(&author.token)).await;
    assert_eq!(me["data"]["totalPosts"], 2);

    let res = app
        .patch_json(&path, &json!({ "isPublished": false }), Some(&author.token))
        .await;
    assert_eq!(json_of(res).await["post"]["status"], "draft");
    let me = get_ok(&app, "/api/user/get-user", Some(&author.token)).await;
    assert_eq!(me["data"]["totalPosts"], 1);
}

#[actix_web::test]
async fn poll_blocks_keep_their_votes_through_an_edit() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let poll = |question: &str, options: Value| json!([{ "id": "poll1", "type": "poll", "data": { "question": question, "options": options, "multiple": false, "closesAt": "2099-01-01T00:00:00Z" } }]);
    let post = create_post(
        &app,
        &author.token,
        json!({ "title": "Vote", "blocks": poll("Best?", json!([{ "text": "A", "votes": 50 }, { "text": "B", "votes": 7 }])) }),
    )
    .await;
    assert_eq!(
        post["blocks"][0]["data"]["options"],
        json!([{ "text": "A", "votes": 0 }, { "text": "B", "votes": 0 }])
    );
    assert_eq!(
        post["blocks"][0]["data"]["closesAt"],
        "2099-01-01T00:00:00.000Z"
    );
    set_fields(
        &app,
        post["_id"].as_str().unwrap(),
        mongodb::bson::doc! { "blocks.0.data.options.0.votes": 3_i64 },
    )
    .await;

    let path = format!("/api/post/update/{}", post["slug"].as_str().unwrap());
    let res = app
        .patch_json(
            &path,
            &json!({ "blocks": poll("Best one?", json!([{ "text": "A" }, { "text": "C" }])) }),
            Some(&author.token),
        )
        .await;
    let body = json_of(res).await;
    assert_eq!(
        body["post"]["blocks"][0]["data"]["options"],
        json!([{ "text": "A", "votes": 3 }, { "text": "C", "votes": 0 }])
    );
}

#[actix_web::test]
async fn only_the_author_or_an_admin_deletes_a_post_and_its_records_go_with_it() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let other = app.signup().await;
    let admin = app.admin().await;
    let first = publish(&app, &author, "First", "x").await;
    let second = publish(&app, &author, "Second", "x").await;
    let first_id = first["_id"].as_str().unwrap();
    let oid = mongodb::bson::oid::ObjectId::parse_str(first_id).unwrap();
    // Each record names its post as it is stored: `postId`, and `post` for comments.
    for (name, field) in [
        ("likes", "postId"),
        ("bookmarks", "postId"),
        ("comments", "post"),
    ] {
        app.db
            .database()
            .collection::<mongodb::bson::Document>(name)
            .insert_one(
                mongodb::bson::doc! { field: oid, "userId": mongodb::bson::oid::ObjectId::new() },
            )
            .await
            .unwrap();
    }

    let path = format!("/api/post/delete/{first_id}");
    assert_error(
        app.delete(&path, Some(&other.token)).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_error(app.delete(&path, None).await, StatusCode::UNAUTHORIZED).await;
    assert_error(
        app.delete("/api/post/delete/nope", Some(&author.token))
            .await,
        StatusCode::BAD_REQUEST,
    )
    .await;

    let res = app.delete(&path, Some(&author.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["message"], "Post deleted successfully");
    assert_error(
        app.delete(&path, Some(&author.token)).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    for (name, field) in [
        ("likes", "postId"),
        ("bookmarks", "postId"),
        ("comments", "post"),
    ] {
        let left = app
            .db
            .database()
            .collection::<mongodb::bson::Document>(name)
            .count_documents(mongodb::bson::doc! { field: oid })
            .await
            .unwrap();
        assert_eq!(left, 0, "case {name}");
    }
    let me = get_ok(&app, "/api/user/get-user", Some(&author.token)).await;
    assert_eq!(me["data"]["totalPosts"], 1);

    let res = app
        .delete(
            &format!("/api/post/delete/{}", second["_id"].as_str().unwrap()),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let me = get_ok(&app, "/api/user/get-user", Some(&author.token)).await;
    assert_eq!(me["data"]["totalPosts"], 0);
}

#[actix_web::test]
async fn the_author_of_a_blocked_post_appeals_once() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let other = app.signup().await;
    let post = publish(&app, &author, "Contested", "x").await;
    let id = post["_id"].as_str().unwrap();
    let path = format!("/api/post/appeal/{id}");
    let body = json!({ "message": "Please review again" });

    let msg = assert_error(
        app.post_json(&path, &body, Some(&author.token)).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(msg, "This post is not blocked");
    set_blocked(&app, id, true).await;
    assert_error(
        app.post_json(&path, &body, Some(&other.token)).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_error(
        app.post_json(&path, &body, None).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_error(
        app.post_json(&path, &json!({ "message": "  " }), Some(&author.token))
            .await,
        StatusCode::BAD_REQUEST,
    )
    .await;

    let res = app.post_json(&path, &body, Some(&author.token)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let reply = json_of(res).await;
    assert!(reply["message"].is_string());
    assert_eq!(reply["appeal"]["postId"], id);
    assert_eq!(reply["appeal"]["status"], "pending");
    assert_error(
        app.post_json(&path, &body, Some(&author.token)).await,
        StatusCode::CONFLICT,
    )
    .await;
}

#[actix_web::test]
async fn a_scheduled_post_publishes_itself() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let at = chrono::Utc::now() + chrono::Duration::seconds(2);
    let post = create_post(
        &app,
        &author.token,
        with(
            post_body("Tomorrow's news", "x"),
            json!({ "status": "scheduled", "publishAt": at.to_rfc3339() }),
        ),
    )
    .await;
    assert_eq!(post["status"], "scheduled");
    assert_eq!(post["isPublished"], false);
    let slug = post["slug"].as_str().unwrap();
    assert_eq!(
        app.get(&format!("/api/post/public/{slug}"), None)
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get_ok(&app, "/api/post/public/posts", None).await["total"],
        0
    );

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let res = app.get(&format!("/api/post/public/{slug}"), None).await;
        if res.status() == StatusCode::OK {
            let body = json_of(res).await;
            assert_eq!(body["post"]["status"], "published");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the post was not published in time"
        );
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    // The post is read from the database by its address the moment the job stored it; the lists
    // follow once the job has told the read index and the guest cache (under a second).
    let listed = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        let total = get_ok(&app, "/api/post/public/posts", None).await["total"].clone();
        if total == 1 {
            break;
        }
        assert!(
            std::time::Instant::now() < listed,
            "the published post was not listed within 2 s (total {total})"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let me = get_ok(&app, "/api/user/get-user", Some(&author.token)).await;
    assert_eq!(me["data"]["totalPosts"], 1);
}

#[actix_web::test]
async fn an_administrator_edits_and_deletes_someone_elses_draft_and_scheduled_post() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let other = app.signup().await;
    let admin = app.admin().await;
    let at = chrono::Utc::now() + chrono::Duration::days(2);
    let draft = create_post(
        &app,
        &author.token,
        with(post_body("Unfinished", "x"), json!({ "status": "draft" })),
    )
    .await;
    let scheduled = create_post(
        &app,
        &author.token,
        with(
            post_body("Next week", "x"),
            json!({ "status": "scheduled", "publishAt": at.to_rfc3339() }),
        ),
    )
    .await;
    for post in [&draft, &scheduled] {
        let path = format!("/api/post/update/{}", post["slug"].as_str().unwrap());
        // Someone who cannot see it learns nothing: 404, as for a missing post.
        let res = app
            .patch_json(&path, &json!({ "title": "Mine now" }), Some(&other.token))
            .await;
        assert_eq!(
            assert_error(res, StatusCode::NOT_FOUND).await,
            "Post not found"
        );
        let res = app
            .patch_json(
                &path,
                &json!({ "title": "Edited by staff" }),
                Some(&admin.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let body = json_of(res).await;
        assert_eq!(body["post"]["title"], "Edited by staff");
        assert_eq!(body["post"]["status"], post["status"]);

        let id = post["_id"].as_str().unwrap();
        let res = app
            .delete(&format!("/api/post/delete/{id}"), Some(&other.token))
            .await;
        assert_error(res, StatusCode::NOT_FOUND).await;
        let res = app
            .delete(&format!("/api/post/delete/{id}"), Some(&admin.token))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let count = get_ok(&app, "/api/post/count/my", Some(&author.token)).await;
    assert_eq!(count["count"], 0);
    // Both were administrator actions on someone else's post: they are in the audit log.
    let log = get_ok(&app, "/api/admin/audit-log?limit=10", Some(&admin.token)).await;
    let actions: Vec<&str> = log["logs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        ["post.delete", "post.update", "post.delete", "post.update"]
    );
}

#[actix_web::test]
async fn every_block_type_comes_back_as_it_was_sent_tables_included() {
    // The store (FerretDB) refuses nested arrays: a table's rows must still come back as rows,
    // on create and on edit.
    let app = spawn_app().await;
    let author = app.signup().await;
    let blocks = json!([
        {"id": "p1", "type": "paragraph", "data": {"text": "Hello <b>world</b>"}},
        {"id": "h1", "type": "header", "data": {"text": "Title", "level": 3}},
        {"id": "l1", "type": "list", "data": {"style": "ordered", "items": [{"content": "a", "meta": {}, "items": []}]}},
        {"id": "q1", "type": "quote", "data": {"text": "q", "caption": "c", "alignment": "left"}},
        {"id": "c1", "type": "code", "data": {"code": "let x = 1;"}},
        {"id": "d1", "type": "delimiter", "data": {}},
        {"id": "e1", "type": "embed", "data": {"service": "youtube", "source": "https://youtu.be/x", "embed": "https://www.youtube.com/embed/x", "width": 580, "height": 320, "caption": ""}},
        {"id": "t1", "type": "table", "data": {"withHeadings": true, "content": [["Name", "Score"], ["Ada", "10"]]}},
        {"id": "k1", "type": "checklist", "data": {"items": [{"text": "x", "checked": true}]}},
        {"id": "v1", "type": "poll", "data": {"question": "Best?", "options": [{"text": "A"}, {"text": "B"}], "multiple": false}},
    ]);
    let created = crate::support::content::create_post(
        &app,
        &author.token,
        json!({ "title": "Every block", "blocks": blocks }),
    )
    .await;
    let slug = created["slug"].as_str().unwrap().to_string();
    let read =
        crate::support::content::get_ok(&app, &format!("/api/post/{slug}"), Some(&author.token))
            .await;
    let stored = read["post"]["blocks"].as_array().unwrap().clone();
    assert_eq!(stored.len(), 10);
    assert_eq!(
        stored[7]["data"]["content"],
        json!([["Name", "Score"], ["Ada", "10"]])
    );
    assert_eq!(stored[7]["data"]["withHeadings"], true);
    assert_eq!(
        stored[6]["data"]["embed"],
        "https://www.youtube.com/embed/x"
    );
    assert_eq!(stored[1]["data"]["level"], 3);

    let mut edited = stored.clone();
    edited[7]["data"]["content"] = json!([["Name", "Score"], ["Ada", "11"], ["Grace", "12"]]);
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "blocks": edited }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        json_of(res).await["post"]["blocks"][7]["data"]["content"][2],
        json!(["Grace", "12"])
    );
    let read =
        crate::support::content::get_ok(&app, &format!("/api/post/{slug}"), Some(&author.token))
            .await;
    assert_eq!(
        read["post"]["blocks"][7]["data"]["content"],
        json!([["Name", "Score"], ["Ada", "11"], ["Grace", "12"]])
    );
    // Lists read the table back too.
    let latest = crate::support::content::get_ok(&app, "/api/post/latest-post/latest", None).await;
    assert_eq!(latest["posts"][0]["slug"], slug.as_str());
}

#[actix_web::test]
async fn a_reader_sees_their_poll_choice_when_they_read_the_post_again() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = crate::support::content::create_post(
        &app,
        &author.token,
        json!({ "title": "Poll", "blocks": [
            {"id": "one", "type": "poll", "data": {"question": "Pick", "options": [{"text": "A"}, {"text": "B"}]}},
            {"id": "many", "type": "poll", "data": {"question": "Pick some", "options": [{"text": "A"}, {"text": "B"}, {"text": "C"}], "multiple": true}},
        ] }),
    )
    .await;
    let id = post["_id"].as_str().unwrap();
    let slug = post["slug"].as_str().unwrap();
    for (block, option) in [("one", 1), ("many", 0), ("many", 2)] {
        let res = app
            .post_json(
                "/api/post/vote",
                &json!({ "postId": id, "blockId": block, "optionIndex": option }),
                Some(&reader.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK, "{block} {option}");
    }
    let read =
        crate::support::content::get_ok(&app, &format!("/api/post/{slug}"), Some(&reader.token))
            .await;
    let blocks = &read["post"]["blocks"];
    assert_eq!(blocks[0]["data"]["userVote"], 1);
    assert_eq!(blocks[0]["data"]["userVotes"], json!([1]));
    assert_eq!(blocks[1]["data"]["userVote"], Value::Null);
    assert_eq!(blocks[1]["data"]["userVotes"], json!([0, 2]));
    // Someone else sees their own (no) choice; a guest sees none at all.
    let other =
        crate::support::content::get_ok(&app, &format!("/api/post/{slug}"), Some(&author.token))
            .await;
    assert_eq!(other["post"]["blocks"][0]["data"]["userVotes"], json!([]));
    let guest =
        crate::support::content::get_ok(&app, &format!("/api/public/post/{slug}"), None).await;
    assert!(guest["post"]["blocks"][0]["data"].get("userVote").is_none());
}
