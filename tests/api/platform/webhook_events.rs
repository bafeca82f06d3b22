//! Every event type an endpoint can ask for reaches it, signed so that the official Standard
//! Webhooks libraries verify it: a writer's endpoint hears the post's life (published, updated,
//! unpublished, deleted), subscriptions begun and cancelled and tips received; an
//! administrator's site-wide endpoint hears a member deleted.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::webhooks::{add_endpoint, assert_verified, loopback_app_options, Receiver};
use crate::support::content::{create_post, post_body};
use crate::support::*;

/// Waits until a delivery of `kind` reached `path`, checks it with both libraries and answers
/// its body.
async fn delivered(rx: &Receiver, path: &str, secret: &str, kind: &str) -> Value {
    for _ in 0..300 {
        let found = rx.hits().into_iter().find(|h| {
            h.path == path && serde_json::from_str::<Value>(&h.body).unwrap()["type"] == kind
        });
        if let Some(hit) = found {
            assert_verified(secret, &hit);
            return serde_json::from_str(&hit.body).unwrap();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no {kind} reached {path}: {:?}", rx.hits());
}

#[actix_web::test]
async fn every_event_type_reaches_the_endpoints_that_asked_for_it() {
    let (rx, base) = Receiver::start();
    let app = spawn_app_with(loopback_app_options()).await;
    app.money_ready().await;
    let writer = app.eligible_author().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let plan = app.create_plan(&writer, 1000).await;
    let events = json!([
        "post.updated",
        "post.unpublished",
        "post.deleted",
        "subscription.created",
        "subscription.cancelled",
        "tip.received"
    ]);
    let made = add_endpoint(&app, &writer, &format!("{base}/writer"), events).await;
    let secret = made["secret"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            "/api/webhooks",
            &json!({ "url": format!("{base}/site"), "events": ["member.deleted"], "site": true }),
            Some(&admin.token),
        )
        .await;
    let status = res.status();
    let site = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "{site}");
    let site_secret = site["secret"].as_str().unwrap().to_string();

    // The post's life: published (not asked for here), updated, unpublished, deleted.
    let post = create_post(&app, &writer.token, post_body("Neap tide", "Quiet water.")).await;
    let post_id = post["_id"].as_str().unwrap().to_string();
    let path = format!("/api/post/update/{}", post["slug"].as_str().unwrap());
    let res = app
        .patch_json(
            &path,
            &json!({ "title": "Neap tide, revised" }),
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let updated = delivered(&rx, "/writer", &secret, "post.updated").await;
    assert_eq!(updated["data"]["id"], post_id.as_str());
    assert_eq!(updated["data"]["title"], "Neap tide, revised");
    assert!(
        !updated.to_string().contains("Quiet water"),
        "no post text: {updated}"
    );

    // A tip on it while it is published.
    let res = app
        .post_json(
            "/api/tips",
            &json!({ "postId": post_id, "amount": 500, "currency": "usd", "message": "For the tide", "public": true }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let tipped = delivered(&rx, "/writer", &secret, "tip.received").await;
    assert_eq!(tipped["data"]["postId"], post_id.as_str(), "{tipped}");
    assert_eq!(tipped["data"]["amount"], 500, "{tipped}");

    let res = app
        .patch_json(&path, &json!({ "status": "draft" }), Some(&writer.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let unpublished = delivered(&rx, "/writer", &secret, "post.unpublished").await;
    assert_eq!(unpublished["data"]["id"], post_id.as_str());
    let res = app
        .delete(&format!("/api/post/delete/{post_id}"), Some(&writer.token))
        .await;
    assert!(res.status().is_success(), "{}", res.status());
    let deleted = delivered(&rx, "/writer", &secret, "post.deleted").await;
    assert_eq!(deleted["data"]["id"], post_id.as_str());

    // A subscription begun and cancelled.
    let subscription = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let created = delivered(&rx, "/writer", &secret, "subscription.created").await;
    assert_eq!(created["data"]["id"], subscription.as_str(), "{created}");
    assert_eq!(created["data"]["subscriberId"], reader.id.as_str());
    let res = app
        .patch_json(
            &format!("/api/subscription/subscriptions/{subscription}/cancel"),
            &json!({}),
            Some(&reader.token),
        )
        .await;
    assert!(res.status().is_success(), "{}", res.status());
    let cancelled = delivered(&rx, "/writer", &secret, "subscription.cancelled").await;
    assert_eq!(cancelled["data"]["id"], subscription.as_str());

    // A member deleted reaches the site-wide endpoint only.
    let res = app
        .delete(
            &format!("/api/admin/users/{}", reader.id),
            Some(&admin.token),
        )
        .await;
    assert!(res.status().is_success(), "{}", res.status());
    let gone = delivered(&rx, "/site", &site_secret, "member.deleted").await;
    assert_eq!(gone["data"]["id"], reader.id.as_str());

    // Nothing the writer's endpoint did not ask for (the publication) reached it, and nothing
    // reached the site-wide one but the deletion.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let kinds = |path: &str| -> Vec<String> {
        rx.hits()
            .iter()
            .filter(|h| h.path == path)
            .map(|h| {
                serde_json::from_str::<Value>(&h.body).unwrap()["type"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let mut writer_kinds = kinds("/writer");
    writer_kinds.sort();
    assert_eq!(
        writer_kinds,
        [
            "post.deleted",
            "post.unpublished",
            "post.updated",
            "subscription.cancelled",
            "subscription.created",
            "tip.received"
        ]
    );
    assert_eq!(kinds("/site"), ["member.deleted"]);
}

/// An administrator's delete of a post is heard like its author's; a site-wide endpoint is heard
/// only while its owner is an administrator, and a blocked person's endpoints hear nothing.
#[actix_web::test]
async fn deletes_by_administrators_are_heard_and_endpoints_follow_their_owners_standing() {
    let (rx, base) = Receiver::start();
    let app = spawn_app_with(loopback_app_options()).await;
    let writer = app.signup().await;
    let watcher = app.admin().await;
    let admin = app.admin().await;
    let made = add_endpoint(
        &app,
        &writer,
        &format!("{base}/writer"),
        json!(["post.deleted"]),
    )
    .await;
    let secret = made["secret"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            "/api/webhooks",
            &json!({ "url": format!("{base}/site"), "events": ["post.deleted"], "site": true }),
            Some(&watcher.token),
        )
        .await;
    let status = res.status();
    let site = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "{site}");
    let site_secret = site["secret"].as_str().unwrap().to_string();
    let mut ids = Vec::new();
    for title in ["First tide", "Second tide", "Third tide"] {
        let post = create_post(&app, &writer.token, post_body(title, "Water.")).await;
        ids.push(post["_id"].as_str().unwrap().to_string());
    }
    let remove = |id: String| {
        let app = &app;
        let token = admin.token.clone();
        async move {
            let res = app
                .delete(&format!("/api/admin/posts/{id}"), Some(&token))
                .await;
            assert!(res.status().is_success(), "{}", res.status());
        }
    };
    let of = |body: &Value| body["data"]["id"].as_str().unwrap_or("").to_string();

    remove(ids[0].clone()).await;
    assert_eq!(
        of(&delivered(&rx, "/writer", &secret, "post.deleted").await),
        ids[0]
    );
    assert_eq!(
        of(&delivered(&rx, "/site", &site_secret, "post.deleted").await),
        ids[0]
    );

    // The site-wide endpoint's owner is an administrator no more.
    let res = app
        .patch_json(
            &format!("/api/admin/users/role/{}", watcher.id),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert!(res.status().is_success(), "{}", res.status());
    remove(ids[1].clone()).await;
    for _ in 0..300 {
        let heard = rx
            .hits()
            .iter()
            .any(|h| h.path == "/writer" && h.body.contains(&ids[1]));
        if heard {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The writer is blocked: their endpoint hears nothing either.
    let res = app
        .patch_json(
            &format!("/api/admin/users/block/{}", writer.id),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert!(res.status().is_success(), "{}", res.status());
    remove(ids[2].clone()).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let heard = |path: &str, id: &str| {
        rx.hits()
            .iter()
            .any(|h| h.path == path && h.body.contains(id))
    };
    assert!(heard("/writer", &ids[1]), "{:?}", rx.hits());
    assert!(!heard("/site", &ids[1]), "{:?}", rx.hits());
    assert!(!heard("/writer", &ids[2]), "{:?}", rx.hits());
    assert!(!heard("/site", &ids[2]), "{:?}", rx.hits());
}

/// A subscriber-only post's text reaches no endpoint: not a site-wide one, and not its author's
/// (events describe a post, never carry its text).
#[actix_web::test]
async fn a_subscriber_only_posts_text_reaches_no_endpoint() {
    let (rx, base) = Receiver::start();
    let app = spawn_app_with(loopback_app_options()).await;
    app.money_ready().await;
    let writer = app.eligible_author().await;
    app.create_plan(&writer, 1000).await;
    let admin = app.admin().await;
    let made = add_endpoint(
        &app,
        &writer,
        &format!("{base}/writer"),
        json!(["post.published"]),
    )
    .await;
    let secret = made["secret"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            "/api/webhooks",
            &json!({ "url": format!("{base}/site"), "events": ["post.published"], "site": true }),
            Some(&admin.token),
        )
        .await;
    let site = json_of(res).await;
    let site_secret = site["secret"].as_str().unwrap().to_string();
    let mut body = post_body("For members", "Words only subscribers read");
    body["audience"] = json!("subscribers");
    let post = create_post(&app, &writer.token, body).await;
    assert_eq!(post["audience"], "subscribers");
    for (path, secret) in [("/writer", &secret), ("/site", &site_secret)] {
        let heard = delivered(&rx, path, secret, "post.published").await;
        assert_eq!(heard["data"]["title"], "For members");
        assert!(
            !heard.to_string().contains("Words only subscribers read"),
            "{heard}"
        );
    }
}
