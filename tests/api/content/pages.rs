//! Pages for the outside world: server-rendered heads and articles with true status codes,
//! `noindex` where a page is not public content, Atom and RSS feeds with validators, sitemaps,
//! `robots.txt` and share images, as guests (link previews, crawlers, feed readers) get them.

use reqwest::header::{ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::{create_post, json_ld, paragraph, post_body, set_blocked, with};
use crate::support::*;

/// The page's HTML for a guest (no token), with its status.
async fn page(app: &TestApp, path: &str, token: Option<&str>) -> (StatusCode, String) {
    let res = app.get(path, token).await;
    let status = res.status();
    let ct = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let text = res.text().await.unwrap();
    if status != StatusCode::NOT_MODIFIED {
        assert!(ct.starts_with("text/html"), "{path}: {ct}");
    }
    (status, text)
}

fn meta_content(html: &str, attr: &str, key: &str) -> Option<String> {
    let needle = format!("<meta {attr}=\"{key}\" content=\"");
    html.split(&needle)
        .nth(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
}

#[actix_web::test]
async fn a_public_post_page_carries_its_head_article_and_structured_data() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let title = "Rivers </title><script>alert(\"x\")</script> & stones";
    let post = create_post(
        &app,
        &author.token,
        json!({
            "title": title,
            "language": "fr",
            "tags": ["geology", "water"],
            "blocks": [
                paragraph("p1", "The <b>river</b> carries stones downstream."),
                { "id": "h1", "type": "header", "data": { "text": "Sediment", "level": 2 } },
                { "id": "c1", "type": "code", "data": { "code": "a < b && c" } },
                { "id": "v1", "type": "poll", "data": { "question": "Rocks?", "options": [{ "text": "Yes" }, { "text": "No" }] } },
            ],
        }),
    )
    .await;
    let slug = post["slug"].as_str().unwrap();
    let (status, html) = page(&app, &format!("/post/{slug}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<html lang=\"fr\">"), "{html}");
    assert!(html.contains(
        "<title>Rivers &lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; stones · Pressroom</title>"
    ));
    assert!(
        !html.contains("<script>alert"),
        "nothing user-written unescaped"
    );
    // The post's excerpt (code left out), tags and all.
    assert!(meta_content(&html, "name", "description")
        .unwrap()
        .starts_with("The river carries stones downstream. Sediment"));
    let canonical = format!("http://127.0.0.1:8080/post/{slug}");
    assert!(html.contains(&format!("<link rel=\"canonical\" href=\"{canonical}\" />")));
    assert_eq!(
        meta_content(&html, "property", "og:type").as_deref(),
        Some("article")
    );
    assert_eq!(
        meta_content(&html, "property", "og:url"),
        Some(canonical.clone())
    );
    assert_eq!(
        meta_content(&html, "property", "og:image:width").as_deref(),
        Some("1200")
    );
    assert_eq!(
        meta_content(&html, "property", "og:image:height").as_deref(),
        Some("630")
    );
    assert_eq!(
        meta_content(&html, "name", "twitter:card").as_deref(),
        Some("summary_large_image")
    );
    assert!(html.contains("<meta property=\"article:tag\" content=\"geology\" />"));
    assert!(html.contains("type=\"application/atom+xml\""));
    assert!(meta_content(&html, "name", "robots").is_none());
    // The article itself.
    assert!(html.contains("<p>The <b>river</b> carries stones downstream.</p>"));
    assert!(html.contains("<h2>Sediment</h2>"));
    assert!(html.contains("<pre><code>a &lt; b &amp;&amp; c</code></pre>"));
    assert!(html.contains("Poll: Rocks?"));
    // Structured data, and the app's initial data.
    let ld = json_ld(&html);
    assert_eq!(ld.len(), 1);
    assert_eq!(ld[0]["@type"], "BlogPosting");
    assert_eq!(ld[0]["headline"], title);
    assert_eq!(ld[0]["inLanguage"], "fr");
    assert_eq!(ld[0]["keywords"], "geology, water");
    assert_eq!(ld[0]["mainEntityOfPage"]["@id"], canonical);
    assert_eq!(ld[0]["author"]["@type"], "Person");
    assert_eq!(ld[0]["isAccessibleForFree"], true);
    assert!(html.contains("<script type=\"application/json\" id=\"initial-data\">"));
}

#[actix_web::test]
async fn pages_answer_true_status_codes_and_reveal_nothing_hidden() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let stranger = app.signup().await;
    let admin = app.admin().await;
    let make =
        |title: &str, extra: Value| with(post_body(title, &format!("{title} body text")), extra);
    let draft = create_post(
        &app,
        &author.token,
        make("Secret draft zq", json!({ "status": "draft" })),
    )
    .await;
    let private = create_post(
        &app,
        &author.token,
        make("Private note zq", json!({ "visibility": "Private" })),
    )
    .await;
    let unlisted = create_post(
        &app,
        &author.token,
        make("Unlisted memo zq", json!({ "visibility": "Unlisted" })),
    )
    .await;
    let blocked = create_post(&app, &author.token, make("Blocked rant zq", json!({}))).await;
    set_blocked(&app, blocked["_id"].as_str().unwrap(), true).await;

    for (post, word) in [
        (&draft, "Secret draft"),
        (&private, "Private note"),
        (&blocked, "Blocked rant"),
    ] {
        let path = format!("/post/{}", post["slug"].as_str().unwrap());
        for token in [None, Some(stranger.token.as_str())] {
            let (status, html) = page(&app, &path, token).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert!(!html.contains(word), "{path} reveals {word}");
            assert!(html.contains("<meta name=\"robots\" content=\"noindex\" />"));
        }
        // Its author may open it in the app; the HTML still says nothing of it.
        let (status, html) = page(&app, &path, Some(&author.token)).await;
        assert_eq!(status, StatusCode::OK, "{path} for its author");
        assert!(!html.contains(word));
    }
    // Administrators open blocked and private posts; a draft is its author's alone.
    let (status, _) = page(
        &app,
        &format!("/post/{}", blocked["slug"].as_str().unwrap()),
        Some(&admin.token),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = page(
        &app,
        &format!("/post/{}", draft["slug"].as_str().unwrap()),
        Some(&admin.token),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, html) = page(
        &app,
        &format!("/post/{}", unlisted["slug"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Unlisted memo zq body text"));
    assert!(html.contains("<meta name=\"robots\" content=\"noindex\" />"));

    for path in [
        "/post/no-such-post",
        "/author-profile/64b7f0000000000000000001",
        "/author-profile/nope",
        "/tag/no-such-tag",
        "/category/no-such-category",
        "/no-such-page",
        "/post/a/b",
    ] {
        let (status, html) = page(&app, path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(
            html.contains("<div id=\"root\">"),
            "the app renders its not-found screen"
        );
    }
    for path in [
        "/search",
        "/user-setting",
        "/admin",
        "/message-box",
        "/bookmark",
        "/login",
        "/edit-post/x",
    ] {
        let (status, html) = page(&app, path, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            html.contains("<meta name=\"robots\" content=\"noindex\" />"),
            "{path}"
        );
        assert!(
            html.contains("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Pressroom (Atom)\" href=\"http://127.0.0.1:8080/feed.xml\" />"),
            "{path} names the site's feed"
        );
    }
    let (status, html) = page(&app, "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(meta_content(&html, "name", "robots").is_none());
    assert!(!html.contains("Unlisted"), "lists show listable posts only");
}

#[actix_web::test]
async fn odd_paths_get_a_404_never_a_500_or_an_echo() {
    let app = spawn_app().await;
    let long = "a".repeat(2000);
    for path in [
        "/post/%00".to_string(),
        "/post/..%2F..%2Fetc%2Fpasswd".to_string(),
        format!("/post/{long}"),
        "/post/%F0%9F%A6%80".to_string(),
        "/post/%FF%FE".to_string(),
        "/tag/%00".to_string(),
        format!("/tag/{long}"),
        "/tag/%3Cscript%3Ealert(1)%3C%2Fscript%3E".to_string(),
        "/category/%3Cscript%3E".to_string(),
        "/author-profile/%3Cscript%3E".to_string(),
        "/tag/%F0%9F%A6%80/feed.xml".to_string(),
        format!("/tag/{long}/rss.xml"),
        "/category/..%2F/feed.xml".to_string(),
        "/author-profile/%00/feed.xml".to_string(),
        "/og/post/%3Cscript%3E.png".to_string(),
        "/og/post/64b7f0000000000000000001.png".to_string(),
        "/sitemap-posts-0.xml".to_string(),
        "/sitemap-posts-2.xml".to_string(),
        "/sitemap-secrets-1.xml".to_string(),
    ] {
        let res = app.get(&path, None).await;
        let status = res.status();
        let text = res.text().await.unwrap();
        assert!(
            status == StatusCode::NOT_FOUND || status == StatusCode::BAD_REQUEST,
            "{path}: {status}"
        );
        assert!(!text.contains("<script>alert"), "{path} echoed markup");
    }
}

/// A feed's text and validators.
async fn feed(app: &TestApp, path: &str) -> (String, String, String) {
    let res = app.get(path, None).await;
    assert_eq!(res.status(), StatusCode::OK, "{path}");
    let ct = res.headers()["content-type"].to_str().unwrap().to_string();
    assert!(
        ct.starts_with("application/atom+xml") || ct.starts_with("application/rss+xml"),
        "{path}: {ct}"
    );
    let etag = res.headers()[ETAG].to_str().unwrap().to_string();
    let modified = res.headers()[LAST_MODIFIED].to_str().unwrap().to_string();
    (res.text().await.unwrap(), etag, modified)
}

#[actix_web::test]
async fn feeds_follow_every_write_and_answer_conditional_requests() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let admin = app.admin().await;
    let res = app
        .post_json(
            "/api/category/",
            &json!({ "name": "Geology", "slug": "geology", "description": "Rocks and rivers" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let cat = json_of(res).await["category"].clone();
    let cat_id = cat["_id"].as_str().unwrap().to_string();
    let post = create_post(
        &app,
        &author.token,
        with(
            post_body("Basalt columns", "Cooling lava makes hexagons."),
            json!({ "tags": ["volcano"], "category": cat_id }),
        ),
    )
    .await;
    let slug = post["slug"].as_str().unwrap().to_string();
    let id = post["_id"].as_str().unwrap().to_string();

    let (atom, etag, modified) = feed(&app, "/feed.xml").await;
    assert!(atom.contains("<title>Basalt columns</title>"), "{atom}");
    assert!(atom.contains("Cooling lava makes hexagons."));
    assert!(atom.contains("rel=\"self\""));
    let (rss, _, _) = feed(&app, "/rss.xml").await;
    assert!(rss.contains("<title>Basalt columns</title>"));
    let (author_feed, _, _) = feed(&app, &format!("/author-profile/{}/feed.xml", author.id)).await;
    assert!(author_feed.contains("Basalt columns"));
    let (tag_feed, _, _) = feed(&app, "/tag/volcano/rss.xml").await;
    assert!(tag_feed.contains("Basalt columns"));
    let (cat_feed, _, _) = feed(
        &app,
        &format!("/category/{}/feed.xml", cat["slug"].as_str().unwrap()),
    )
    .await;
    assert!(cat_feed.contains("Basalt columns"));
    assert!(cat_feed.contains("Rocks and rivers"));
    let (status, html) = page(&app, "/category/geology", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("content=\"Rocks and rivers\""));
    assert!(html.contains("BreadcrumbList"));
    assert!(html.contains("/category/geology/feed.xml"));

    // Conditional requests.
    let res = app
        .client
        .get(app.url("/feed.xml"))
        .header(IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    let res = app
        .client
        .get(app.url("/feed.xml"))
        .header(IF_MODIFIED_SINCE, &modified)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    let res = app
        .client
        .get(app.url("/feed.xml"))
        .header(IF_NONE_MATCH, "\"stale\"")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);

    // An edit shows; a new validator.
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "title": "Basalt organ pipes" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (atom, etag2, _) = feed(&app, "/feed.xml").await;
    assert!(atom.contains("Basalt organ pipes") && !atom.contains("Basalt columns"));
    assert_ne!(etag, etag2);

    // Unpublished, blocked, deleted: gone from every feed and the sitemap.
    let in_sitemap = |app: &TestApp| {
        let app_url = app.url("/sitemap-posts-1.xml");
        let client = app.client.clone();
        let slug = slug.clone();
        async move {
            let text = client
                .get(app_url)
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            text.contains(&format!("/post/{slug}</loc>"))
        }
    };
    assert!(in_sitemap(&app).await);
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "visibility": "Private" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(!feed(&app, "/feed.xml").await.0.contains("Basalt"));
    assert!(!in_sitemap(&app).await);
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "visibility": "Public" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(feed(&app, "/feed.xml").await.0.contains("Basalt"));
    set_blocked(&app, &id, true).await;
    assert!(!feed(&app, "/feed.xml").await.0.contains("Basalt"));
    assert!(!in_sitemap(&app).await);
    set_blocked(&app, &id, false).await;
    assert!(feed(&app, "/feed.xml").await.0.contains("Basalt"));

    // A rebuilt index (`scripts/cli index rebuild`) gives the same feeds and sitemaps.
    let before_rebuild = feed(&app, "/feed.xml").await.0;
    app.rebuild_index().await;
    assert_eq!(feed(&app, "/feed.xml").await.0, before_rebuild);
    assert!(in_sitemap(&app).await);
    let tags = app
        .get("/sitemap-tags-1.xml", None)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        tags.contains("/tag/volcano</loc>"),
        "tags come back with the rebuild: {tags}"
    );
    let res = app
        .delete(&format!("/api/post/delete/{id}"), Some(&author.token))
        .await;
    assert!(res.status().is_success(), "{}", res.status());
    assert!(!feed(&app, "/feed.xml").await.0.contains("Basalt"));
    assert!(!in_sitemap(&app).await);
    // A tag nobody uses any more has no feed.
    assert_eq!(
        app.get("/tag/volcano/feed.xml", None).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/author-profile/64b7f0000000000000000001/feed.xml", None)
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
}

#[actix_web::test]
async fn the_sitemap_and_robots_name_what_crawlers_may_read() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let public = create_post(
        &app,
        &author.token,
        with(
            post_body("Granite", "Hard rock."),
            json!({ "tags": ["stone"] }),
        ),
    )
    .await;
    let unlisted = create_post(
        &app,
        &author.token,
        with(
            post_body("Hidden", "x"),
            json!({ "visibility": "Unlisted" }),
        ),
    )
    .await;

    let res = app.get("/robots.txt", None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let robots = res.text().await.unwrap();
    for line in [
        "Disallow: /api/",
        "Disallow: /admin",
        "Disallow: /user-setting",
        "Disallow: /message-box",
        "Sitemap: http://127.0.0.1:8080/sitemap.xml",
    ] {
        assert!(robots.contains(line), "{line} in {robots}");
    }
    let res = app.get("/sitemap.xml", None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let index = res.text().await.unwrap();
    assert!(index.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"));
    for kind in ["posts", "authors", "tags", "categories"] {
        assert!(
            index.contains(&format!(
                "<loc>http://127.0.0.1:8080/sitemap-{kind}-1.xml</loc>"
            )),
            "{index}"
        );
    }
    let posts = app
        .get("/sitemap-posts-1.xml", None)
        .await
        .text()
        .await
        .unwrap();
    assert!(posts.contains(&format!(
        "<loc>http://127.0.0.1:8080/post/{}</loc>",
        public["slug"].as_str().unwrap()
    )));
    assert!(!posts.contains(unlisted["slug"].as_str().unwrap()));
    assert!(posts.contains("<lastmod>"));
    let authors = app
        .get("/sitemap-authors-1.xml", None)
        .await
        .text()
        .await
        .unwrap();
    assert!(authors.contains(&format!("/author-profile/{}</loc>", author.id)));
    let tags = app
        .get("/sitemap-tags-1.xml", None)
        .await
        .text()
        .await
        .unwrap();
    assert!(tags.contains("/tag/stone</loc>"));
    assert_eq!(
        app.get("/sitemap-posts-2.xml", None).await.status(),
        StatusCode::NOT_FOUND
    );
}

#[actix_web::test]
async fn a_share_image_is_a_1200_by_630_png_for_public_posts_only() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let post = create_post(&app, &author.token, post_body("Share me", "Body.")).await;
    let draft = create_post(
        &app,
        &author.token,
        with(post_body("Not yet", "Body."), json!({ "status": "draft" })),
    )
    .await;
    let (_, html) = page(
        &app,
        &format!("/post/{}", post["slug"].as_str().unwrap()),
        None,
    )
    .await;
    let image = meta_content(&html, "property", "og:image").unwrap();
    let path = image
        .strip_prefix("http://127.0.0.1:8080")
        .unwrap()
        .replace("&amp;", "&");
    let res = app.get(&path, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "image/png");
    assert!(res.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("immutable"));
    let png = res.bytes().await.unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (1200, 630));
    // A new title, a new version.
    let res = app
        .patch_json(
            &format!("/api/post/update/{}", post["slug"].as_str().unwrap()),
            &json!({ "title": "Shared anew" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, html) = page(
        &app,
        &format!("/post/{}", post["slug"].as_str().unwrap()),
        None,
    )
    .await;
    assert_ne!(meta_content(&html, "property", "og:image").unwrap(), image);
    let res = app
        .get(
            &format!("/og/post/{}.png", draft["_id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

#[actix_web::test]
async fn a_subscribers_only_post_page_shows_its_teaser_marked_as_paywalled() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    app.create_plan(&author, 1000).await;
    let secret = "quokkazanzibar";
    let post = create_post(
        &app,
        &author.token,
        json!({
            "title": "Members digest",
            "audience": "subscribers",
            "blocks": [
                paragraph("p1", &"A long opening paragraph that every reader may see. ".repeat(6)),
                paragraph("p2", &format!("For subscribers: {secret}.")),
            ],
        }),
    )
    .await;
    let (status, html) = page(
        &app,
        &format!("/post/{}", post["slug"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        !html.contains(secret),
        "the locked part never reaches the page"
    );
    assert!(html.contains("A long opening paragraph"));
    assert!(html.contains("<div class=\"post-locked\">"));
    let ld = json_ld(&html);
    assert_eq!(ld[0]["isAccessibleForFree"], false);
    assert_eq!(ld[0]["hasPart"]["cssSelector"], ".post-locked");
    let atom = app.get("/feed.xml", None).await.text().await.unwrap();
    assert!(atom.contains("Members digest") && !atom.contains(secret));
}

#[actix_web::test]
async fn a_subscriber_has_a_private_full_text_feed_for_as_long_as_access_lasts() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let stranger = app.signup().await;
    let plan = app.create_plan(&author, 1000).await;
    let secret = "pangolinquartz";
    create_post(
        &app,
        &author.token,
        json!({
            "title": "Members letter",
            "audience": "subscribers",
            "blocks": [
                paragraph("p1", &"An opening every reader sees in the teaser. ".repeat(6)),
                paragraph("p2", &format!("Only for subscribers: {secret}.")),
            ],
        }),
    )
    .await;
    let path = format!("/api/subscription/private-feed/{}", author.id);
    // No subscription, no feed; a bad author id is a 400 naming it.
    let res = app.get(&path, Some(&stranger.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "A private feed is for readers with an active subscription to this author"
    );
    let res = app
        .get("/api/subscription/private-feed/nope", Some(&reader.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Invalid author ID"
    );
    assert_eq!(
        app.get(&path, None).await.status(),
        StatusCode::UNAUTHORIZED
    );

    let sub = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let url = json_of(app.get(&path, Some(&reader.token)).await).await["url"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        url.starts_with("http://127.0.0.1:8080/feeds/private/"),
        "{url}"
    );
    let feed_path = url
        .strip_prefix("http://127.0.0.1:8080")
        .unwrap()
        .to_string();
    // The same address on every request, until it is replaced.
    let again = json_of(app.get(&path, Some(&reader.token)).await).await["url"].clone();
    assert_eq!(again, url.as_str());
    let res = app.get(&feed_path, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["cache-control"]
        .to_str()
        .unwrap()
        .starts_with("private"));
    let atom = res.text().await.unwrap();
    assert!(
        atom.contains(secret),
        "the subscriber's feed has the whole post"
    );
    assert!(!app
        .get("/feed.xml", None)
        .await
        .text()
        .await
        .unwrap()
        .contains(secret));
    // A wrong secret is refused.
    let stem = feed_path.strip_suffix(".xml").unwrap();
    let last = if stem.ends_with('0') { '1' } else { '0' };
    let forged = format!("{}{last}.xml", &stem[..stem.len() - 1]);
    assert_eq!(app.get(&forged, None).await.status(), StatusCode::NOT_FOUND);

    // Replaced: the old address stops working.
    let res = app
        .post_empty(&format!("{path}/reset"), Some(&reader.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let new_url = json_of(res).await["url"].as_str().unwrap().to_string();
    assert_ne!(new_url, url);
    assert_eq!(
        app.get(&feed_path, None).await.status(),
        StatusCode::NOT_FOUND
    );
    let new_path = new_url
        .strip_prefix("http://127.0.0.1:8080")
        .unwrap()
        .to_string();
    assert_eq!(app.get(&new_path, None).await.status(), StatusCode::OK);

    // Refunded, the subscription ends: so does the feed.
    let res = app
        .patch_json(
            &format!("/api/subscription/subscriptions/{sub}/refund"),
            &json!({ "reason": "Mistake" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        app.get(&new_path, None).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get(&path, Some(&reader.token)).await.status(),
        StatusCode::FORBIDDEN
    );
    // Removed by the reader.
    let res = app.delete(&path, Some(&reader.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app.delete(&path, Some(&reader.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "You have no private feed of this author"
    );
}

/// The cookie consent bar a list page's first paint carries, and the one inline script that takes
/// it away when the browser already holds a choice: the Content-Security-Policy allows inline
/// scripts by hash only, so every inline script a page serves must be one whose hash it names.
#[actix_web::test]
async fn the_first_paints_inline_script_is_the_one_the_policy_allows() {
    use base64::Engine as _;
    use sha2::Digest as _;
    let app = spawn_app().await;
    let author = app.signup().await;
    let post = create_post(&app, &author.token, post_body("Consent", "First paint")).await;
    let slug = post["slug"].as_str().unwrap();
    for (path, list) in [
        ("/".to_string(), true),
        (format!("/author-profile/{}", author.id), true),
        (format!("/post/{slug}"), false),
    ] {
        let res = app.get(&path, None).await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let csp = res
            .headers()
            .get("content-security-policy")
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let html = res.text().await.unwrap();
        let bar = html.contains("<section class=\"consent-bar\" aria-label=\"Cookie consent\"");
        assert_eq!(bar, list, "{path}: the bar is in a list page's first paint");
        let inline: Vec<&str> = html
            .split("<script>")
            .skip(1)
            .map(|rest| rest.split("</script>").next().unwrap())
            .collect();
        assert_eq!(inline.len(), usize::from(list), "{path}: inline scripts");
        for script in inline {
            assert!(script.contains("userCookieConsent"), "{script}");
            let hash = base64::engine::general_purpose::STANDARD
                .encode(sha2::Sha256::digest(script.as_bytes()));
            assert!(
                csp.contains(&format!("'sha256-{hash}'")),
                "{path}: the policy must allow the inline script ({hash}): {csp}"
            );
        }
    }
}
