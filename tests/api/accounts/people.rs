//! What the people screens need: the blocked list, changing the password, logging out
//! everywhere, avatars uploaded as pictures, the profile header's counts, an author's engagement
//! over time and badges with their progress.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::content::{get_ok, publish};
use crate::support::engagement::{id_of, post_ok};
use crate::support::*;

const PNG_1X1: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const GIF_1X1: &str =
    "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

#[actix_web::test]
async fn the_block_list_names_whom_the_caller_blocked_newest_first() {
    let app = spawn_app().await;
    let me = app.signup().await;
    let first = app.signup().await;
    let second = app.signup().await;
    let empty = get_ok(&app, "/api/block/list", Some(&me.token)).await;
    assert_eq!(empty["users"], json!([]));
    for other in [&first, &second] {
        post_ok(
            &app,
            &format!("/api/block/block-user/{}", other.id),
            &json!({}),
            Some(&me.token),
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    // Someone blocking me is not on my list.
    post_ok(
        &app,
        &format!("/api/block/block-user/{}", me.id),
        &json!({}),
        Some(&first.token),
    )
    .await;
    let list = get_ok(&app, "/api/block/list", Some(&me.token)).await;
    let ids: Vec<&str> = list["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [second.id.as_str(), first.id.as_str()]);
    assert!(list["users"][0]["name"].is_string());
    assert!(list["users"][0]["blockedAt"].is_string());

    post_ok(
        &app,
        "/api/block/unblock",
        &json!({ "blockedUserId": second.id }),
        Some(&me.token),
    )
    .await;
    let list = get_ok(&app, "/api/block/list", Some(&me.token)).await;
    assert_eq!(list["users"].as_array().unwrap().len(), 1);
    assert_error(
        app.get("/api/block/list", None).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[actix_web::test]
async fn changing_the_password_ends_the_other_sessions_and_keeps_this_one() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let other_session = json_of(app.login(&user.email, PASSWORD).await).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .post_json(
            "/api/auth/change-password",
            &json!({ "currentPassword": PASSWORD, "newPassword": "a brand new secret" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res
        .headers()
        .get_all("set-cookie")
        .iter()
        .any(|c| c.to_str().unwrap().starts_with("jwt=ey")));
    let body = json_of(res).await;
    assert_eq!(
        body["message"],
        "Password changed successfully. Other sessions have been logged out."
    );
    let fresh = body["token"].as_str().unwrap();
    for (case, token) in [
        ("the other session", other_session.as_str()),
        ("the old token of this one", user.token.as_str()),
    ] {
        let res = app.get("/api/auth/check", Some(token)).await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{case}");
    }
    let me = get_ok(&app, "/api/auth/check", Some(fresh)).await;
    assert_eq!(me["_id"], user.id);
    assert_error(
        app.login(&user.email, PASSWORD).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(
        app.login(&user.email, "a brand new secret").await.status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn a_bad_password_change_says_why_and_changes_nothing() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let cases = [
        (
            "wrong current password",
            json!({ "currentPassword": "not my password", "newPassword": "another secret" }),
            "Current password is incorrect",
        ),
        (
            "no current password",
            json!({ "newPassword": "another secret" }),
            "Current password is required",
        ),
        (
            "short new password",
            json!({ "currentPassword": PASSWORD, "newPassword": "short" }),
            "Password must be at least 8 characters",
        ),
        (
            "same password",
            json!({ "currentPassword": PASSWORD, "newPassword": PASSWORD }),
            "The new password must be different from the current one",
        ),
    ];
    for (case, body, message) in cases {
        let res = app
            .post_json("/api/auth/change-password", &body, Some(&user.token))
            .await;
        assert_eq!(
            assert_error(res, StatusCode::BAD_REQUEST).await,
            message,
            "case '{case}'"
        );
    }
    let res = app
        .post_json(
            "/api/auth/change-password",
            &json!({ "currentPassword": PASSWORD, "newPassword": "another secret" }),
            None,
        )
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    // Nothing changed: the session and the password still work.
    get_ok(&app, "/api/auth/check", Some(&user.token)).await;
    assert_eq!(
        app.login(&user.email, PASSWORD).await.status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn logging_out_everywhere_ends_every_session() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let other = json_of(app.login(&user.email, PASSWORD).await).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .post_json("/api/auth/logout-all", &json!({}), Some(&user.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res
        .headers()
        .get_all("set-cookie")
        .iter()
        .any(|c| c.to_str().unwrap().starts_with("jwt=;")));
    assert_eq!(json_of(res).await["message"], "Logged out of every session");
    for token in [&user.token, &other] {
        assert_error(
            app.get("/api/auth/check", Some(token)).await,
            StatusCode::UNAUTHORIZED,
        )
        .await;
    }
    // Signing in again works.
    assert_eq!(
        app.login(&user.email, PASSWORD).await.status(),
        StatusCode::OK
    );
    assert_error(
        app.post_json("/api/auth/logout-all", &json!({}), None)
            .await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[actix_web::test]
async fn an_avatar_sent_as_a_picture_is_stored_and_the_previous_one_released() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let media_dir = app.settings.server.media_dir.clone();
    let set = |avatar: serde_json::Value| {
        let app = &app;
        let token = user.token.clone();
        async move {
            app.patch_json(
                "/api/user/update-user",
                &json!({ "avatar": avatar }),
                Some(&token),
            )
            .await
        }
    };
    let res = set(json!(PNG_1X1)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let first = json_of(res).await["data"]["avatar"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        first.starts_with("/media/") && first.ends_with(".png"),
        "{first}"
    );
    let served = app.client.get(app.url(&first)).send().await.unwrap();
    assert_eq!(served.status(), StatusCode::OK);
    let first_file = media_dir.join(first.trim_start_matches("/media/"));
    assert!(first_file.exists());
    let profile = get_ok(
        &app,
        &format!("/api/user/get-single-user/{}", user.id),
        None,
    )
    .await;
    assert_eq!(profile["data"]["avatar"], first.as_str());

    let second = json_of(set(json!(GIF_1X1)).await).await["data"]["avatar"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(second.ends_with(".gif"));
    assert!(
        !first_file.exists(),
        "the previous avatar's file is removed"
    );

    // Keeping the same address changes nothing; clearing releases the file.
    let same = json_of(set(json!(second)).await).await;
    assert_eq!(same["data"]["avatar"], second.as_str());
    let second_file = media_dir.join(second.trim_start_matches("/media/"));
    assert!(second_file.exists());
    let cleared = json_of(set(json!(null)).await).await;
    assert_eq!(cleared["data"]["avatar"], serde_json::Value::Null);
    assert!(!second_file.exists());
}

#[actix_web::test]
async fn a_bad_avatar_is_refused_and_the_old_one_stays() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let good = json_of(
        app.patch_json(
            "/api/user/update-user",
            &json!({ "avatar": PNG_1X1, "bio": "Before" }),
            Some(&user.token),
        )
        .await,
    )
    .await["data"]["avatar"]
        .as_str()
        .unwrap()
        .to_string();
    let cases = [
        (
            "svg",
            json!("data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="),
            StatusCode::BAD_REQUEST,
        ),
        (
            "not base64",
            json!("data:image/png,hello"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "bytes that are not a png",
            json!("data:image/png;base64,aGVsbG8gd29ybGQ="),
            StatusCode::BAD_REQUEST,
        ),
        (
            "a media address never stored",
            json!("/media/0123456789abcdef0123456789abcdef.png"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "a javascript address",
            json!("javascript:alert(1)"),
            StatusCode::BAD_REQUEST,
        ),
    ];
    for (case, avatar, status) in cases {
        let res = app
            .patch_json(
                "/api/user/update-user",
                &json!({ "avatar": avatar, "bio": "After" }),
                Some(&user.token),
            )
            .await;
        assert_eq!(res.status(), status, "case '{case}'");
        let message = json_of(res).await["message"].as_str().unwrap().to_string();
        assert!(!message.is_empty(), "case '{case}' has a message");
    }
    let me = get_ok(&app, "/api/user/get-user", Some(&user.token)).await;
    assert_eq!(me["data"]["avatar"], good.as_str());
    assert_eq!(
        me["data"]["bio"], "Before",
        "nothing of a refused update is kept"
    );
}

#[actix_web::test]
async fn a_profile_has_its_counts_presence_and_the_viewers_relation() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let fan = app.signup().await;
    let other = app.signup().await;
    post_ok(
        &app,
        &format!("/api/follow/{}", author.id),
        &json!({}),
        Some(&fan.token),
    )
    .await;
    post_ok(
        &app,
        &format!("/api/follow/{}", other.id),
        &json!({}),
        Some(&author.token),
    )
    .await;
    let path = format!("/api/user/get-single-user/{}", author.id);

    let guest = get_ok(&app, &path, None).await["data"].clone();
    assert_eq!(guest["followersCount"], 1);
    assert_eq!(guest["followingCount"], 1);
    assert_eq!(guest["isOnline"], false);
    assert!(guest.get("isFollowing").is_none());
    assert!(guest.get("email").is_none(), "no private field");

    let seen_by_fan = get_ok(&app, &path, Some(&fan.token)).await["data"].clone();
    assert_eq!(seen_by_fan["isFollowing"], true);
    assert_eq!(seen_by_fan["blockedByYou"], false);

    let own = get_ok(&app, &path, Some(&author.token)).await["data"].clone();
    assert!(
        own.get("isFollowing").is_none(),
        "nothing to say about oneself"
    );

    post_ok(
        &app,
        &format!("/api/block/block-user/{}", author.id),
        &json!({}),
        Some(&other.token),
    )
    .await;
    let seen_by_blocker = get_ok(&app, &path, Some(&other.token)).await["data"].clone();
    assert_eq!(seen_by_blocker["blockedByYou"], true);
    assert_eq!(seen_by_blocker["isFollowing"], false);
    let after = get_ok(&app, &path, None).await["data"].clone();
    assert_eq!(after["followingCount"], 0, "the block removed the follow");
}

#[actix_web::test]
async fn engagement_has_a_daily_series_and_administrators_may_read_any_authors() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let admin = app.signup().await;
    app.make_admin(&admin.email).await;
    let post = publish(&app, &author, "Counted", "Some text").await;
    post_ok(
        &app,
        &format!("/api/post/like/{}", id_of(&post)),
        &json!({}),
        Some(&reader.token),
    )
    .await;

    let mine = get_ok(
        &app,
        "/api/post/analytics/user-engagement?days=7",
        Some(&author.token),
    )
    .await;
    let daily = mine["daily"].as_array().unwrap();
    assert_eq!(daily.len(), 7);
    assert_eq!(daily[6]["likes"], 1, "today is last");
    assert_eq!(mine["userId"], author.id);

    let path = format!("/api/post/analytics/user-engagement?userId={}", author.id);
    let by_admin = get_ok(&app, &path, Some(&admin.token)).await;
    assert_eq!(by_admin["likes"], 1);
    assert_eq!(by_admin["daily"].as_array().unwrap().len(), 30);
    let cases = [
        ("someone else's", path.clone(), StatusCode::FORBIDDEN),
        (
            "a bad id",
            "/api/post/analytics/user-engagement?userId=nope".to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "bad days",
            "/api/post/analytics/user-engagement?days=400".to_string(),
            StatusCode::BAD_REQUEST,
        ),
    ];
    for (case, path, status) in cases {
        let res = app.get(&path, Some(&reader.token)).await;
        assert_eq!(res.status(), status, "case '{case}'");
    }
}

#[actix_web::test]
async fn badges_come_with_the_whole_catalogue_and_progress_for_anyone_to_see() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let visitor = app.signup().await;
    publish(&app, &author, "One", "Text").await;
    let mine = post_ok(
        &app,
        "/api/achievement/achievements/calculate",
        &json!({}),
        Some(&author.token),
    )
    .await;
    let progress = mine["progress"].as_array().unwrap();
    assert!(progress.len() >= 13);
    let first = progress.iter().find(|b| b["id"] == "first-post").unwrap();
    assert_eq!(
        (
            first["current"].clone(),
            first["threshold"].clone(),
            first["earned"].clone()
        ),
        (json!(1), json!(1), json!(true))
    );
    let prolific = progress
        .iter()
        .find(|b| b["id"] == "prolific-writer")
        .unwrap();
    assert_eq!(
        (
            prolific["current"].clone(),
            prolific["threshold"].clone(),
            prolific["earned"].clone()
        ),
        (json!(1), json!(10), json!(false))
    );
    assert!(prolific["earnedAt"].is_null());

    let theirs = get_ok(
        &app,
        &format!("/api/achievement/achievements?userId={}", author.id),
        Some(&visitor.token),
    )
    .await;
    assert_eq!(theirs["badges"][0]["id"], "first-post");
    assert!(theirs["progress"].as_array().unwrap().len() >= 13);

    post_ok(
        &app,
        &format!("/api/block/block-user/{}", visitor.id),
        &json!({}),
        Some(&author.token),
    )
    .await;
    let cases = [
        (
            "across a block",
            format!("/api/achievement/achievements?userId={}", author.id),
            StatusCode::FORBIDDEN,
        ),
        (
            "a bad id",
            "/api/achievement/achievements?userId=nope".to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "nobody",
            format!(
                "/api/achievement/achievements?userId={}",
                mongodb::bson::oid::ObjectId::new().to_hex()
            ),
            StatusCode::NOT_FOUND,
        ),
    ];
    for (case, path, status) in cases {
        let res = app.get(&path, Some(&visitor.token)).await;
        assert_eq!(res.status(), status, "case '{case}'");
    }
}
