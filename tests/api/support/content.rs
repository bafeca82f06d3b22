//! Content: posts, categories and direct database set-up.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use pressroom::domain::blocks::Block;
use pressroom::persistence::posts::{self, Post};
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::*;

/// A 1×1 PNG.
pub const PNG_1X1: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

pub fn png_data_url() -> String {
    format!("data:image/png;base64,{PNG_1X1}")
}

pub fn paragraph(id: &str, text: &str) -> Value {
    json!({ "id": id, "type": "paragraph", "data": { "text": text } })
}

/// A post body with one paragraph.
pub fn post_body(title: &str, text: &str) -> Value {
    json!({ "title": title, "blocks": [paragraph("p1", text)] })
}

/// Merges `extra`'s keys into `base`.
pub fn with(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            b.insert(k.clone(), v.clone());
        }
    }
    base
}

pub async fn get_ok(app: &TestApp, path: &str, token: Option<&str>) -> Value {
    let res = app.get(path, token).await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
    body
}

/// Creates a post and returns it (`post` of the response).
pub async fn create_post(app: &TestApp, token: &str, body: Value) -> Value {
    let res = app
        .post_json("/api/post/post-create", &body, Some(token))
        .await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "create: {body}");
    body["post"].clone()
}

/// Creates a published public post with a title and text.
pub async fn publish(app: &TestApp, user: &TestUser, title: &str, text: &str) -> Value {
    create_post(app, &user.token, post_body(title, text)).await
}

/// Blocks or unblocks a post directly (moderation has its own API).
pub async fn set_blocked(app: &TestApp, post_id: &str, blocked: bool) {
    let id = ObjectId::parse_str(post_id).unwrap();
    posts::set_blocked(&app.db, id, blocked).await.unwrap();
}

/// Inserts `n` published public posts by `author`, all created at the same instant.
pub async fn insert_same_time(app: &TestApp, author: &str, n: usize, at: DateTime) -> Vec<String> {
    insert_posts(app, author, n, at, 0).await
}

/// Inserts `n` published public posts by `author`, the first at `start` and each next one
/// `step_ms` later.
pub async fn insert_posts(
    app: &TestApp,
    author: &str,
    n: usize,
    start: DateTime,
    step_ms: i64,
) -> Vec<String> {
    let author = ObjectId::parse_str(author).unwrap();
    let mut ids = Vec::new();
    for i in 0..n {
        let id = ObjectId::new();
        let at = DateTime::from_millis(start.timestamp_millis() + step_ms * i as i64);
        let post = Post {
            id,
            slug: format!("bulk-{}", id.to_hex()),
            title: format!("Bulk {i}"),
            blocks: vec![Block {
                id: "p".into(),
                kind: "paragraph".into(),
                data: json!({ "text": format!("body {i}") }),
            }],
            thumbnail: None,
            thumbnail_image: None,
            author,
            category: None,
            tags: vec!["bulk".into()],
            post_type: Default::default(),
            visibility: Default::default(),
            audience: Default::default(),
            is_featured: false,
            is_pinned: false,
            is_published: true,
            language: "en".into(),
            status: Default::default(),
            publish_at: None,
            published_at: Some(at),
            blocked: false,
            likes_count: 0,
            bookmarks_count: 0,
            views: 0,
            share_count: 0,
            comments_count: 0,
            reading_time: 1,
            search_text: format!("bulk {i} bulk body {i}"),
            trending_score: 0.0,
            created_at: at,
            updated_at: at,
            edited_at: None,
            series_id: None,
            imported_from: None,
            import_key: None,
        };
        posts::insert(&app.db, &post).await.unwrap();
        ids.push(id.to_hex());
    }
    ids
}

/// Sets fields of a post directly.
pub async fn set_fields(app: &TestApp, post_id: &str, set: mongodb::bson::Document) {
    let id = ObjectId::parse_str(post_id).unwrap();
    posts::update_returning_before(&app.db, id, set)
        .await
        .unwrap()
        .expect("the post");
}

/// Follows `followee` as `follower` directly (the follow API is elsewhere).
pub async fn follow(app: &TestApp, follower: &str, followee: &str) {
    pressroom::persistence::follows::follow(
        &app.db,
        ObjectId::parse_str(follower).unwrap(),
        ObjectId::parse_str(followee).unwrap(),
    )
    .await
    .unwrap();
}

/// Pages through a list with `after` (and `afterId` when `with_id`) until it runs dry; returns
/// every id in order and the size of each page.
pub async fn page_through(
    app: &TestApp,
    path: &str,
    limit: usize,
    with_id: bool,
    token: Option<&str>,
) -> (Vec<String>, Vec<usize>) {
    let sep = if path.contains('?') { '&' } else { '?' };
    let mut all = Vec::new();
    let mut sizes = Vec::new();
    let mut cursor: Option<(String, String)> = None;
    for _ in 0..100 {
        let url = match &cursor {
            None => format!("{path}{sep}limit={limit}"),
            Some((after, id)) if with_id => {
                format!(
                    "{path}{sep}limit={limit}&after={}&afterId={id}",
                    urlencode(after)
                )
            }
            Some((after, _)) => format!("{path}{sep}limit={limit}&after={}", urlencode(after)),
        };
        let body = get_ok(app, &url, token).await;
        let posts = body["posts"].as_array().unwrap().clone();
        if posts.is_empty() {
            return (all, sizes);
        }
        sizes.push(posts.len());
        let last = posts.last().unwrap();
        cursor = Some((
            last["createdAt"].as_str().unwrap().to_string(),
            last["_id"].as_str().unwrap().to_string(),
        ));
        all.extend(posts.iter().map(|p| p["_id"].as_str().unwrap().to_string()));
    }
    panic!("paging did not end");
}

pub fn urlencode(s: &str) -> String {
    s.replace('+', "%2B").replace(':', "%3A")
}

/// The `_id`s of a list response.
pub fn ids_of(body: &Value) -> Vec<String> {
    body["posts"]
        .as_array()
        .unwrap_or_else(|| panic!("no posts in {body}"))
        .iter()
        .map(|p| p["_id"].as_str().unwrap().to_string())
        .collect()
}

/// The JSON-LD blocks of a page, parsed.
pub fn json_ld(html: &str) -> Vec<Value> {
    let open = "<script type=\"application/ld+json\">";
    html.split(open)
        .skip(1)
        .map(|rest| {
            let block = rest.split("</script>").next().unwrap();
            serde_json::from_str(block).unwrap_or_else(|e| panic!("JSON-LD {block}: {e}"))
        })
        .collect()
}

/// The delivery figures of a post's announcement, as its author reads them.
pub async fn delivery(app: &TestApp, author: &TestUser, post_id: &str) -> Value {
    let res = app
        .get(
            &format!("/api/post/delivery/{post_id}"),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    json_of(res).await
}

/// Waits until the new-post worker went through every reader of the post (its series'
/// followers included); returns the figures.
pub async fn delivered(app: &TestApp, author: &TestUser, post_id: &str) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let d = delivery(app, author, post_id).await;
        if d["done"] == true {
            return d;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the post never went out: {d}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
