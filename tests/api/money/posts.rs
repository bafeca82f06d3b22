//! What a subscription buys: subscribers-only posts. Guests and readers without an active
//! subscription get the title, thumbnail, excerpt and `locked: true`; lists and search never
//! carry the locked blocks (nor find a post by their words); the author, administrators and
//! subscribers read everything; access ends with the subscription.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::{create_post, paragraph};
use crate::support::*;

/// Beyond the excerpt's first 200 characters, so only the blocks could carry it.
const SECRET: &str = "quokkazanzibar";

fn members_post() -> Value {
    json!({
        "title": "Members digest",
        "audience": "subscribers",
        "blocks": [
            paragraph("p1", &"A long opening paragraph that every reader may see as the teaser. ".repeat(5)),
            paragraph("p2", &format!("The part for subscribers: {SECRET}.")),
            { "id": "v1", "type": "poll", "data": { "question": "Next topic?", "options": [{ "text": "A" }, { "text": "B" }] } },
        ],
    })
}

async fn read(app: &TestApp, slug: &str, token: Option<&str>) -> (Value, String) {
    let res = app.get(&format!("/api/post/{slug}"), token).await;
    assert_eq!(res.status(), StatusCode::OK);
    let text = res.text().await.unwrap();
    let body: Value = serde_json::from_str(&text).unwrap();
    (body["post"].clone(), text)
}

#[actix_web::test]
async fn a_subscribers_only_post_is_a_teaser_until_the_reader_subscribes() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let plan = app.create_plan(&author, 1000).await;
    let post = create_post(&app, &author.token, members_post()).await;
    assert_eq!(post["audience"], "subscribers");
    assert_eq!(post["locked"], false, "the author reads their own post");
    let slug = post["slug"].as_str().unwrap().to_string();
    let post_id = post["_id"].as_str().unwrap().to_string();

    for (who, token) in [("guest", None), ("reader", Some(reader.token.as_str()))] {
        let (seen, text) = read(&app, &slug, token).await;
        assert_eq!(seen["locked"], true, "{who}");
        assert_eq!(seen["blocks"], json!([]), "{who}");
        assert_eq!(seen["title"], "Members digest");
        assert!(
            seen["excerpt"]
                .as_str()
                .unwrap()
                .starts_with("A long opening"),
            "{who}"
        );
        assert!(!text.contains(SECRET), "{who} saw the locked text");
    }
    for (who, token) in [("author", &author.token), ("admin", &admin.token)] {
        let (seen, text) = read(&app, &slug, Some(token)).await;
        assert_eq!(seen["locked"], false, "{who}");
        assert!(text.contains(SECRET), "{who}");
    }

    // Lists and search show the teaser and never find the post by its locked words.
    for path in [
        "/api/public/posts",
        "/api/post/latest-post/latest",
        "/api/post/trending-post/trending",
    ] {
        let res = app.get(path, None).await;
        let text = res.text().await.unwrap();
        assert!(text.contains("Members digest"), "{path}: {text}");
        assert!(!text.contains(SECRET), "{path} leaked the locked text");
    }
    let res = app
        .get(&format!("/api/public/search-posts?query={SECRET}"), None)
        .await;
    assert_eq!(json_of(res).await["total"], 0);
    let res = app
        .get(
            &format!("/api/post/search-post/search?query={SECRET}"),
            Some(&reader.token),
        )
        .await;
    assert_eq!(json_of(res).await["total"], 0);
    let res = app
        .get("/api/public/search-posts?query=members%20digest", None)
        .await;
    let found = json_of(res).await;
    assert_eq!(found["total"], 1);
    assert_eq!(found["posts"][0]["locked"], true);

    // Voting in its poll is for those who may read it.
    let vote = json!({ "postId": post_id, "blockId": "v1", "optionIndex": 0 });
    let res = app
        .post_json("/api/post/vote", &vote, Some(&reader.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "This post is for subscribers only"
    );

    // Subscribed: the reader reads it, in lists too, and may vote.
    let sub = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let (seen, text) = read(&app, &slug, Some(&reader.token)).await;
    assert_eq!(seen["locked"], false);
    assert!(text.contains(SECRET));
    let res = app
        .get("/api/post/latest-post/latest", Some(&reader.token))
        .await;
    assert!(res.text().await.unwrap().contains(SECRET));
    let res = app
        .post_json("/api/post/vote", &vote, Some(&reader.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);

    // Cancelled: access until the period ends. Refunded: access ends at once.
    let res = app
        .patch_empty(
            &format!("/api/subscription/subscriptions/{sub}/cancel"),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (seen, _) = read(&app, &slug, Some(&reader.token)).await;
    assert_eq!(
        seen["locked"], false,
        "cancelled keeps access to the end of the period"
    );
    let res = app
        .patch_json(
            &format!("/api/subscription/subscriptions/{sub}/refund"),
            &json!({ "reason": "Mistake" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (seen, text) = read(&app, &slug, Some(&reader.token)).await;
    assert_eq!(seen["locked"], true);
    assert!(!text.contains(SECRET));
}

#[actix_web::test]
async fn the_audience_is_checked_and_can_be_changed() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let mut body = members_post();
    body["audience"] = json!("friends");
    let res = app
        .post_json("/api/post/post-create", &body, Some(&author.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "audience must be everyone or subscribers"
    );
    let post = create_post(&app, &author.token, members_post()).await;
    let slug = post["slug"].as_str().unwrap();
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "audience": "everyone" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (seen, text) = read(&app, slug, None).await;
    assert_eq!(seen["audience"], "everyone");
    assert_eq!(seen["locked"], false);
    assert!(text.contains(SECRET));
    // Now public, its words are searchable.
    let res = app
        .get(&format!("/api/public/search-posts?query={SECRET}"), None)
        .await;
    assert_eq!(json_of(res).await["total"], 1);
}
