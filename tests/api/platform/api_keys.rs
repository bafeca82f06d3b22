//! Personal API keys: shown once, stored as a hash, acting as their owner on the routes whose
//! scope they hold and nowhere else (money, account security and key management refuse every
//! key), revoked and expired at once, limited per key, and declared in the OpenAPI document.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::comments::comment;
use crate::support::content::{post_body, with};
use crate::support::engagement::{id_of, stored_post};
use crate::support::*;

async fn create_key(app: &TestApp, user: &TestUser, body: Value) -> Value {
    let res = app.post_json("/api/keys", &body, Some(&user.token)).await;
    let status = res.status();
    let answer = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    answer
}

/// Waits until the owner's (first) key shows at least `n` uses and a last use (they are noted
/// beside the request).
async fn uses_reach(app: &TestApp, owner_token: &str, n: i64) {
    let mut used = Value::Null;
    for _ in 0..50 {
        let list = json_of(app.get("/api/keys", Some(owner_token)).await).await;
        used = list["keys"][0].clone();
        if used["usageCount"].as_i64().unwrap_or(0) >= n {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(used["usageCount"].as_i64().unwrap() >= n, "{used}");
    assert!(used["lastUsedAt"].is_string(), "{used}");
}

async fn refusal(res: reqwest::Response) -> (StatusCode, String, String) {
    let status = res.status();
    let body = json_of(res).await;
    (
        status,
        body["code"].as_str().unwrap_or("").to_string(),
        body["message"].as_str().unwrap_or("").to_string(),
    )
}

#[actix_web::test]
async fn a_key_is_shown_once_and_acts_as_its_owner_within_its_scopes() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let made = create_key(
        &app,
        &user,
        json!({ "name": "Scheduler", "scopes": ["read:posts", "write:drafts"], "expiresInDays": 30 }),
    )
    .await;
    let key = made["key"].as_str().unwrap().to_string();
    assert!(key.starts_with("pr_live_") && key.len() == 44, "{key}");
    assert!(pressroom::domain::api_keys::is_well_formed(&key));
    assert_eq!(made["prefix"], &key[..16]);
    assert_eq!(made["name"], "Scheduler");
    assert_eq!(made["scopes"], json!(["read:posts", "write:drafts"]));
    let expires =
        chrono::DateTime::parse_from_rfc3339(made["expiresAt"].as_str().unwrap()).unwrap();
    let days = (expires.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_days();
    assert!((29..=30).contains(&days), "{days}");

    // The list never shows the key again, and only a hash of it is stored.
    let list = json_of(app.get("/api/keys", Some(&user.token)).await).await;
    let listed = &list["keys"].as_array().unwrap()[0];
    assert!(listed.get("key").is_none(), "{listed}");
    assert_eq!(listed["prefix"], made["prefix"]);
    let stored = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("api_keys")
        .find_one(mongodb::bson::doc! {})
        .await
        .unwrap()
        .unwrap();
    assert!(!format!("{stored:?}").contains(&key[16..]), "{stored:?}");

    // Within its scopes it is its owner.
    let check = json_of(app.get("/api/auth/check", Some(&key)).await).await;
    assert_eq!(check["_id"], user.id);
    let draft = with(
        post_body("Drafted by a tool", "Words"),
        json!({ "status": "draft" }),
    );
    let res = app
        .post_json("/api/post/post-create", &draft, Some(&key))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    // Publishing needs publish:posts too.
    let (status, code, message) = refusal(
        app.post_json(
            "/api/post/post-create",
            &post_body("Live", "Words"),
            Some(&key),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::FORBIDDEN, "insufficient_scope")
    );
    assert!(message.contains("publish:posts"), "{message}");
    // A route of another scope names the scope it needs.
    let (status, code, message) =
        refusal(app.get("/api/earning/my-earnings", Some(&key)).await).await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::FORBIDDEN, "insufficient_scope")
    );
    assert!(message.contains("read:earnings"), "{message}");
    // Money, account security and key management take no key at all.
    for (method, path, body) in [
        ("POST", "/api/payment/bank-details", json!({})),
        (
            "POST",
            "/api/auth/change-password",
            json!({ "currentPassword": PASSWORD, "newPassword": "a new long passphrase" }),
        ),
        ("POST", "/api/auth/2fa/setup", json!({})),
        ("POST", "/api/user/delete-account", json!({})),
        ("GET", "/api/auth/passkeys", json!({})),
        (
            "POST",
            "/api/keys",
            json!({ "name": "x", "scopes": ["read:posts"] }),
        ),
        ("GET", "/api/keys", json!({})),
        ("POST", "/api/auth/reauth", json!({ "password": PASSWORD })),
    ] {
        let res = if method == "GET" {
            app.get(path, Some(&key)).await
        } else {
            app.post_json(path, &body, Some(&key)).await
        };
        let (status, code, _) = refusal(res).await;
        assert_eq!(
            (status, code.as_str()),
            (StatusCode::FORBIDDEN, "key_not_allowed"),
            "{method} {path}"
        );
    }
    // Its uses are counted.
    uses_reach(&app, &user.token, 2).await;

    // A copied-wrong key, an unknown one, an expired one and a revoked one: 401.
    let mut wrong: Vec<char> = key.chars().collect();
    wrong[20] = if wrong[20] == 'a' { 'b' } else { 'a' };
    let wrong: String = wrong.into_iter().collect();
    let unknown = pressroom::domain::api_keys::generate();
    for (token, code) in [
        (wrong.as_str(), "invalid_api_key"),
        (unknown.as_str(), "invalid_api_key"),
    ] {
        let (status, got, _) = refusal(app.get("/api/auth/check", Some(token)).await).await;
        assert_eq!((status, got.as_str()), (StatusCode::UNAUTHORIZED, code));
    }
    // On a route that reads a session when there is one, a bad key is still refused.
    let (status, _, _) = refusal(app.get("/api/post/all-post", Some(&unknown)).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let id = made["id"].as_str().unwrap();
    let other = app.signup().await;
    assert_eq!(
        app.delete(&format!("/api/keys/{id}"), Some(&other.token))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    let res = app
        .delete(&format!("/api/keys/{id}"), Some(&user.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (status, code, _) = refusal(app.get("/api/auth/check", Some(&key)).await).await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::UNAUTHORIZED, "api_key_revoked")
    );
    let list = json_of(app.get("/api/keys", Some(&user.token)).await).await;
    assert_eq!(list["keys"], json!([]));
    assert_eq!(
        app.delete(&format!("/api/keys/{id}"), Some(&user.token))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );

    let second = create_key(
        &app,
        &user,
        json!({ "name": "Old", "scopes": ["read:posts"] }),
    )
    .await;
    assert_eq!(second["expiresAt"], Value::Null);
    let second_key = second["key"].as_str().unwrap();
    app.db
        .database()
        .collection::<mongodb::bson::Document>("api_keys")
        .update_one(
            mongodb::bson::doc! { "_id": mongodb::bson::oid::ObjectId::parse_str(second["id"].as_str().unwrap()).unwrap() },
            mongodb::bson::doc! { "$set": { "expiresAt": mongodb::bson::DateTime::from_millis(1_000) } },
        )
        .await
        .unwrap();
    let (status, code, _) = refusal(app.get("/api/auth/check", Some(second_key)).await).await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::UNAUTHORIZED, "api_key_expired")
    );

    // A key of an account since blocked stops working.
    let third = create_key(
        &app,
        &user,
        json!({ "name": "Third", "scopes": ["read:posts"] }),
    )
    .await;
    app.db
        .database()
        .collection::<mongodb::bson::Document>("users")
        .update_one(
            mongodb::bson::doc! { "_id": mongodb::bson::oid::ObjectId::parse_str(&user.id).unwrap() },
            mongodb::bson::doc! { "$set": { "blocked": true } },
        )
        .await
        .unwrap();
    let (status, code, _) = refusal(
        app.get("/api/auth/check", Some(third["key"].as_str().unwrap()))
            .await,
    )
    .await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::UNAUTHORIZED, "account_blocked")
    );

    // The audit log names keys by their prefix, never the key.
    let log = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("audit_log")
        .find_one(mongodb::bson::doc! { "action": "api_key.create" })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(log.get_str("targetLabel").unwrap(), &key[..16]);
    assert!(!format!("{log:?}").contains(&key[16..]));
}

#[actix_web::test]
async fn bad_key_requests_are_refused_with_a_reason() {
    let app = spawn_app().await;
    let user = app.signup().await;
    for (body, needle) in [
        (
            json!({ "name": "x", "scopes": ["write:everything"] }),
            "Unknown scope \"write:everything\"",
        ),
        (
            json!({ "name": "x", "scopes": ["admin:read"] }),
            "Only administrators",
        ),
        (json!({ "name": "x", "scopes": [] }), "at least one scope"),
        (
            json!({ "name": "  ", "scopes": ["read:posts"] }),
            "Give the key a name",
        ),
        (
            json!({ "name": "x".repeat(81), "scopes": ["read:posts"] }),
            "at most 80",
        ),
        (
            json!({ "name": "x", "scopes": ["read:posts"], "expiresInDays": 10 }),
            "from 30 to 365",
        ),
        (
            json!({ "name": "x", "scopes": ["read:posts"], "expiresInDays": 400 }),
            "from 30 to 365",
        ),
        (
            json!({ "name": "x", "scopes": ["read:posts"], "expiresInDays": -5 }),
            "from 30 to 365",
        ),
    ] {
        let (status, _, message) =
            refusal(app.post_json("/api/keys", &body, Some(&user.token)).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(message.contains(needle), "{body}: {message}");
    }
    for body in [
        json!({ "name": "x", "scopes": "read:posts" }),
        json!({ "name": "x", "scopes": ["read:posts"], "owner": "me" }),
        json!({ "scopes": ["read:posts"] }),
    ] {
        let res = app.post_json("/api/keys", &body, Some(&user.token)).await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{body}");
    }
    let list = json_of(app.get("/api/keys", Some(&user.token)).await).await;
    assert_eq!(list["keys"], json!([]));

    // At most 25 live keys.
    for i in 0..25 {
        create_key(
            &app,
            &user,
            json!({ "name": format!("k{i}"), "scopes": ["read:posts"] }),
        )
        .await;
    }
    let (status, _, message) = refusal(
        app.post_json(
            "/api/keys",
            &json!({ "name": "one more", "scopes": ["read:posts"] }),
            Some(&user.token),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message.contains("at most 25"), "{message}");
    // A key that has expired is live no more: its place is free.
    let past = mongodb::bson::DateTime::from_chrono(chrono::Utc::now() - chrono::Duration::days(1));
    app.db
        .database()
        .collection::<mongodb::bson::Document>("api_keys")
        .update_one(
            mongodb::bson::doc! { "name": "k0" },
            mongodb::bson::doc! { "$set": { "expiresAt": past } },
        )
        .await
        .unwrap();
    create_key(
        &app,
        &user,
        json!({ "name": "in k0's place", "scopes": ["read:posts"] }),
    )
    .await;

    // An old session confirms it is the person before making a key.
    app.age_session(&user.token, 30).await;
    let (status, code, _) = refusal(
        app.post_json(
            "/api/keys",
            &json!({ "name": "late", "scopes": ["read:posts"] }),
            Some(&user.token),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::FORBIDDEN, "reauth_required")
    );

    // The scopes a reader may choose; administrators see theirs too.
    let scopes = json_of(app.get("/api/keys/scopes", Some(&user.token)).await).await;
    let names: Vec<&str> = scopes["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["scope"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"read:posts") && !names.contains(&"admin:read"),
        "{names:?}"
    );
    assert!(scopes["scopes"][0]["allows"].is_string());
}

#[actix_web::test]
async fn administrator_scopes_are_never_implied() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let reader = create_key(
        &app,
        &admin,
        json!({ "name": "Reader", "scopes": ["read:posts"] }),
    )
    .await;
    let (status, code, message) = refusal(
        app.get("/api/admin/overview", Some(reader["key"].as_str().unwrap()))
            .await,
    )
    .await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::FORBIDDEN, "insufficient_scope")
    );
    assert!(message.contains("admin:read"), "{message}");
    let made = create_key(
        &app,
        &admin,
        json!({ "name": "Dashboard", "scopes": ["admin:read"] }),
    )
    .await;
    let key = made["key"].as_str().unwrap();
    assert_eq!(
        app.get("/api/admin/overview", Some(key)).await.status(),
        StatusCode::OK
    );
    let someone = app.signup().await;
    let (status, code, _) = refusal(
        app.patch_json(
            &format!("/api/admin/users/block/{}", someone.id),
            &json!({}),
            Some(key),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::FORBIDDEN, "insufficient_scope")
    );
    let (status, code, _) = refusal(
        app.patch_json(
            &format!("/api/admin/users/role/{}", someone.id),
            &json!({ "role": "admin" }),
            Some(key),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::FORBIDDEN, "key_not_allowed")
    );
}

/// An administrator's key on a writer's scope has a writer's powers: another person's post and
/// comment are refused to it (and left as they were) though the administrator's session may
/// change them, and another writer's private post is not read through it.
#[actix_web::test]
async fn an_administrators_key_has_a_writers_powers_outside_administrator_scopes() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let writer = app.signup().await;
    let made = create_key(
        &app,
        &admin,
        json!({ "name": "Tool", "scopes": ["read:posts", "write:drafts", "publish:posts", "write:comments"] }),
    )
    .await;
    let key = made["key"].as_str().unwrap().to_string();
    let post = crate::support::content::publish(&app, &writer, "A writer's post", "Words").await;
    let pid = id_of(&post);
    let slug = post["slug"].as_str().unwrap().to_string();
    let said = comment(&app, &writer, &pid, "The writer's own remark", None).await;
    let cid = id_of(&said);
    let private = crate::support::content::create_post(
        &app,
        &writer.token,
        with(
            post_body("Only mine", "Private words"),
            json!({ "visibility": "Private" }),
        ),
    )
    .await;
    let private_slug = private["slug"].as_str().unwrap().to_string();

    let edit = post_body("Rewritten by a tool", "Other words");
    let res = app
        .patch_json(&format!("/api/post/update/{slug}"), &edit, Some(&key))
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app
        .delete(&format!("/api/post/delete/{pid}"), Some(&key))
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app
        .delete(&format!("/api/comment/delete/{cid}"), Some(&key))
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app
        .get(&format!("/api/post/public/{private_slug}"), Some(&key))
        .await;
    assert!(res.status().is_client_error(), "{}", res.status());
    let kept = stored_post(&app, &pid).await;
    assert_eq!(kept.get_str("title").unwrap(), "A writer's post");
    let comments = json_of(
        app.get(&format!("/api/comment/all-comments/{pid}"), None)
            .await,
    )
    .await;
    assert!(
        comments.to_string().contains("The writer's own remark"),
        "{comments}"
    );

    // The administrator's session has those powers, so the refusals above are the key's.
    let res = app
        .get(
            &format!("/api/post/public/{private_slug}"),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .delete(&format!("/api/comment/delete/{cid}"), Some(&admin.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[actix_web::test]
async fn each_key_has_its_own_rate_limit() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.rate_limit.api_key_requests = 3;
        })),
        ..Default::default()
    })
    .await;
    let user = app.signup().await;
    let one = create_key(
        &app,
        &user,
        json!({ "name": "One", "scopes": ["read:posts"] }),
    )
    .await;
    let two = create_key(
        &app,
        &user,
        json!({ "name": "Two", "scopes": ["read:posts"] }),
    )
    .await;
    let one = one["key"].as_str().unwrap();
    for _ in 0..3 {
        assert_eq!(
            app.get("/api/auth/check", Some(one)).await.status(),
            StatusCode::OK
        );
    }
    let res = app.get("/api/auth/check", Some(one)).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().get("retry-after").is_some());
    // Another key and the session are not held back.
    assert_eq!(
        app.get("/api/auth/check", Some(two["key"].as_str().unwrap()))
            .await
            .status(),
        StatusCode::OK
    );
    assert_eq!(
        app.get("/api/auth/check", Some(&user.token)).await.status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn the_api_document_declares_keys_and_each_operations_scope() {
    let app = spawn_app().await;
    let doc = json_of(app.get("/api/openapi.json", None).await).await;
    let scheme = &doc["components"]["securitySchemes"]["apiKey"];
    assert_eq!(scheme["type"], "http");
    assert_eq!(scheme["scheme"], "bearer");
    let check = &doc["paths"]["/api/auth/check"]["get"];
    assert!(check["security"]
        .as_array()
        .unwrap()
        .contains(&json!({ "apiKey": ["read:posts"] })));
    assert_eq!(check["x-required-scopes"], json!(["read:posts"]));
    let bank = &doc["paths"]["/api/payment/bank-details"]["post"];
    assert!(!bank["security"].to_string().contains("apiKey"), "{bank}");
    // Every scope a route names is one a key can hold.
    let known: Vec<&str> = pressroom::domain::api_keys::SCOPES
        .iter()
        .map(|s| s.name)
        .collect();
    for route in pressroom::routes::openapi::ROUTES {
        if let Some(scope) = route.scope {
            assert!(
                known.contains(&scope),
                "{} {}: {scope}",
                route.method,
                route.path
            );
        }
    }
}

#[actix_web::test]
async fn the_sites_public_content_key_reads_public_posts_as_a_guest_and_nothing_else() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.rate_limit.api_key_requests = 7;
        })),
        ..Default::default()
    })
    .await;
    app.money_ready().await;
    let admin = app.admin().await;
    let author = app.eligible_author().await;
    app.create_plan(&author, 1000).await;
    let open =
        crate::support::content::publish(&app, &author, "Open to all", "Anyone reads this.").await;
    let members = crate::support::content::create_post(
        &app,
        &author.token,
        json!({
            "title": "For members",
            "audience": "subscribers",
            "blocks": [
                crate::support::content::paragraph("p1", &"An opening every reader may see as the teaser. ".repeat(6)),
                crate::support::content::paragraph("p2", "The members' words: wombatquill."),
            ],
        }),
    )
    .await;

    // Only an administrator makes one, and it holds no other scope.
    let writer_made = app
        .post_json(
            "/api/keys",
            &json!({ "name": "Site", "scopes": ["content:read"] }),
            Some(&author.token),
        )
        .await;
    assert_eq!(writer_made.status(), StatusCode::BAD_REQUEST);
    let mixed = app
        .post_json(
            "/api/keys",
            &json!({ "name": "Site", "scopes": ["content:read", "read:posts"] }),
            Some(&admin.token),
        )
        .await;
    let (status, _, message) = refusal(mixed).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        message,
        "A public content key (content:read) holds no other scope: it is meant to be seen by anyone."
    );
    let made = create_key(
        &app,
        &admin,
        json!({ "name": "Headless site", "scopes": ["content:read"] }),
    )
    .await;
    let key = made["key"].as_str().unwrap().to_string();

    // It reads posts as a guest: the public post whole, the members' post as its teaser.
    let res = app
        .get(
            &format!("/api/post/{}", open["slug"].as_str().unwrap()),
            Some(&key),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    assert_eq!(body["post"]["title"], "Open to all");
    let res = app
        .get(
            &format!("/api/post/{}", members["slug"].as_str().unwrap()),
            Some(&key),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let text = res.text().await.unwrap();
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["post"]["locked"], true, "{text}");
    assert!(
        !text.contains("wombatquill"),
        "the content key read a members' post"
    );
    let list = json_of(app.get("/api/post/public/posts", Some(&key)).await).await;
    assert!(list.to_string().contains("Open to all"), "{list}");

    // It is nobody: routes that need a person, writes and the administrator's routes refuse it.
    assert_eq!(
        app.get("/api/auth/check", Some(&key)).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let (status, code, _) = refusal(
        app.post_json(
            "/api/post/post-create",
            &post_body("Nope", "Words"),
            Some(&key),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::FORBIDDEN, "insufficient_scope")
    );
    let (status, code, _) = refusal(app.get("/api/admin/overview", Some(&key)).await).await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::FORBIDDEN, "insufficient_scope")
    );

    // Its reads are counted and limited like any key's (7 here: 4 reads so far, the refused
    // person's route included).
    for _ in 0..3 {
        assert_eq!(
            app.get("/api/post/public/posts", Some(&key)).await.status(),
            StatusCode::OK
        );
    }
    let res = app.get("/api/post/public/posts", Some(&key)).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    uses_reach(&app, &admin.token, 7).await;

    // Revoked, it is refused at once (401, not a guest).
    let id = made["id"].as_str().unwrap();
    assert!(app
        .delete(&format!("/api/keys/{id}"), Some(&admin.token))
        .await
        .status()
        .is_success());
    let (status, code, _) = refusal(app.get("/api/post/public/posts", Some(&key)).await).await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::UNAUTHORIZED, "api_key_revoked")
    );
}
