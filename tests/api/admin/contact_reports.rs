//! Contact messages and reports of posts (seed 001 §7 "Administration").

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::*;

fn contact(email: &str, subject: &str) -> Value {
    json!({
        "name": "Visiting Reader",
        "email": email,
        "subject": subject,
        "message": "Hello,\nI have a question about your site.",
    })
}

#[actix_web::test]
async fn anyone_writes_and_administrators_list_toggle_and_reply_by_email() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let sender = unique_email();

    // A guest writes; so does a signed-in user.
    let res = app
        .post_json("/api/admin/contact", &contact(&sender, "Question"), None)
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let body = json_of(res).await;
    assert!(body["message"].as_str().unwrap().contains("Thank you"));
    let res = app
        .post_json(
            "/api/admin/contact",
            &contact(&user.email, "Signed in"),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);

    let list = get_ok(&app, "/api/admin/contact-messages", Some(&admin.token)).await;
    assert_eq!(list["totalMessages"], 2);
    let newest = &list["messages"][0];
    assert_eq!(newest["subject"], "Signed in");
    assert_eq!(newest["userId"], user.id);
    let first = &list["messages"][1];
    assert_eq!(first["email"], sender);
    assert_eq!(first["isHandled"], false);
    let id = first["_id"].as_str().unwrap().to_string();
    let paged = get_ok(
        &app,
        "/api/admin/contact-messages?page=2&limit=1",
        Some(&admin.token),
    )
    .await;
    assert_eq!(paged["messages"][0]["_id"], id.as_str());

    // The handled flag toggles.
    let path = format!("/api/admin/contact-messages/{id}/handled");
    for expected in [true, false] {
        let res = app.patch_json(&path, &json!({}), Some(&admin.token)).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(json_of(res).await["isHandled"], expected);
    }

    // A reply is mailed to the sender, logged, and marks the message handled.
    let before = app.mail_count(&sender);
    let res = app
        .post_json(
            &format!("/api/admin/reply-contact/{id}"),
            &json!({ "subject": "Re: Question", "message": "Here is the answer." }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    assert_eq!(body["isHandled"], true);
    assert_eq!(body["data"]["reply"]["subject"], "Re: Question");
    let mail = app.wait_for_mail(&sender, before).await;
    assert!(mail.contains("Subject: Re: Question"), "{mail}");
    assert!(mail.contains("Here is the answer."), "{mail}");
    assert!(
        mail.contains("> I have a question about your site."),
        "{mail}"
    );
    let logs = pressroom::persistence::email_logs::for_email(&app.db, &sender, 5)
        .await
        .unwrap();
    assert_eq!(logs[0].kind, "contact_reply");
    assert!(logs[0].success);
    assert!(logs[0]
        .body
        .as_deref()
        .unwrap()
        .contains("Here is the answer."));
    let list = get_ok(&app, "/api/admin/contact-messages", Some(&admin.token)).await;
    assert_eq!(list["messages"][1]["isHandled"], true);
    let audit = get_ok(&app, "/api/admin/audit-log", Some(&admin.token)).await;
    assert_eq!(audit["logs"][0]["action"], "contact.reply");

    let unknown = mongodb::bson::oid::ObjectId::new().to_hex();
    for (path, body, status) in [
        (
            format!("/api/admin/reply-contact/{unknown}"),
            json!({ "subject": "s", "message": "m" }),
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/api/admin/reply-contact/{id}"),
            json!({ "subject": "", "message": "m" }),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/admin/reply-contact/{id}"),
            json!({ "subject": "a\nBcc: x@y.z", "message": "m" }),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/admin/reply-contact/{id}"),
            json!({ "subject": "s" }),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/admin/reply-contact/xyz".to_string(),
            json!({ "subject": "s", "message": "m" }),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let res = app.post_json(&path, &body, Some(&admin.token)).await;
        assert_error(res, status).await;
    }
    let res = app
        .patch_json(
            &format!("/api/admin/contact-messages/{unknown}/handled"),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Contact message not found"
    );
}

#[actix_web::test]
async fn contact_messages_are_checked_and_rate_limited_per_address() {
    let app = spawn_app().await;
    let cases = [
        (
            "no name",
            json!({ "email": "a@b.co", "subject": "s", "message": "m" }),
            "Name",
        ),
        (
            "bad email",
            json!({ "name": "A", "email": "not-mail", "subject": "s", "message": "m" }),
            "email",
        ),
        (
            "no subject",
            json!({ "name": "A", "email": "a@b.co", "subject": "  ", "message": "m" }),
            "Subject",
        ),
        (
            "long subject",
            json!({ "name": "A", "email": "a@b.co", "subject": "x".repeat(201), "message": "m" }),
            "Subject",
        ),
        (
            "no message",
            json!({ "name": "A", "email": "a@b.co", "subject": "s" }),
            "Message",
        ),
        (
            "long message",
            json!({ "name": "A", "email": "a@b.co", "subject": "s", "message": "x".repeat(5001) }),
            "Message",
        ),
        (
            "operator",
            json!({ "name": "A", "email": { "$ne": null }, "subject": "s", "message": "m" }),
            "email",
        ),
    ];
    for (case, body, word) in cases {
        let msg = assert_error(
            app.post_json("/api/admin/contact", &body, None).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert!(msg.contains(word), "case '{case}': {msg}");
    }
    // contact_per_email is 3 per window.
    let email = unique_email();
    for _ in 0..3 {
        let res = app
            .post_json("/api/admin/contact", &contact(&email, "Again"), None)
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
    }
    let res = app
        .post_json("/api/admin/contact", &contact(&email, "Again"), None)
        .await;
    assert_error(res, StatusCode::TOO_MANY_REQUESTS).await;
    let admin = app.admin().await;
    let list = get_ok(&app, "/api/admin/contact-messages", Some(&admin.token)).await;
    assert_eq!(list["totalMessages"], 3);
}

async fn report(app: &TestApp, user: &TestUser, post: &str, reason: &str) -> reqwest::Response {
    app.post_json(
        "/api/admin/reports",
        &json!({ "postId": post, "reason": reason, "details": "It copies my article." }),
        Some(&user.token),
    )
    .await
}

#[actix_web::test]
async fn a_report_goes_from_reader_to_administrator_to_author_and_back() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let stranger = app.signup().await;
    let post = publish(&app, &author, "Borrowed words", "x").await;
    let post_id = post["_id"].as_str().unwrap().to_string();

    // The reader reports the post, once while it is open.
    let res = report(&app, &reader, &post_id, "Copyright").await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let created = json_of(res).await;
    let id = created["report"]["_id"].as_str().unwrap().to_string();
    assert_eq!(created["report"]["reason"], "copyright");
    assert!(created["report"].get("reporter").is_none());
    let res = report(&app, &reader, &post_id, "spam").await;
    assert_eq!(res.status(), StatusCode::CONFLICT);

    // Administrators see it with the post's title, the reporter and the author.
    let list = get_ok(&app, "/api/admin/reports", Some(&admin.token)).await;
    assert_eq!(list["total"], 1);
    assert_eq!(list["totalPages"], 1);
    let item = &list["reports"][0];
    assert_eq!(item["post"]["title"], "Borrowed words");
    assert_eq!(item["reporter"]["_id"], reader.id);
    assert_eq!(item["author"]["_id"], author.id);
    assert_eq!(item["details"], "It copies my article.");
    assert_eq!(item["isReviewed"], false);

    // Reviewed and forwarded: the author is told, with a link to acknowledge.
    let res = app
        .patch_json(
            &format!("/api/admin/reports/{id}"),
            &json!({ "forwardToAuthor": true }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let reviewed = json_of(res).await;
    assert_eq!(reviewed["report"]["isReviewed"], true);
    assert_eq!(reviewed["report"]["forwardedToAuthor"], true);
    let inbox = get_ok(&app, "/api/notification/notifications", Some(&author.token)).await;
    let told = &inbox["notifications"][0];
    assert_eq!(told["type"], "admin");
    assert_eq!(told["navigateTo"], format!("/acknowledge/{id}"));
    assert!(told["content"].as_str().unwrap().contains("Borrowed words"));
    // Reviewing again does not tell the author twice.
    let res = app
        .patch_json(
            &format!("/api/admin/reports/{id}"),
            &json!({ "forwardToAuthor": true }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let inbox = get_ok(&app, "/api/notification/notifications", Some(&author.token)).await;
    assert_eq!(inbox["total"], 1);

    // A notice by notification and email.
    let before = app.mail_count(&author.email);
    let res = app
        .post_json(
            "/api/admin/replies/send-notification",
            &json!({ "reportId": id, "subject": "About your post", "message": "Please credit the source." }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let sent = json_of(res).await;
    assert_eq!(sent["emailSent"], true);
    assert_eq!(
        sent["notification"]["navigateTo"],
        format!("/acknowledge/{id}")
    );
    let mail = app.wait_for_mail(&author.email, before).await;
    assert!(mail.contains("Subject: About your post"), "{mail}");
    assert!(mail.contains("Please credit the source."), "{mail}");
    assert!(mail.contains(&format!("/acknowledge/{id}")), "{mail}");

    // The author reads the report and what the administrators said, never who filed it;
    // administrators read it whole; nobody else reads it.
    let read = get_ok(
        &app,
        &format!("/api/admin/reports/{id}"),
        Some(&author.token),
    )
    .await;
    assert_eq!(read["report"]["postTitle"], "Borrowed words");
    assert_eq!(read["report"]["reason"], "copyright");
    assert_eq!(read["report"]["isAcknowledged"], false);
    assert!(read["report"].get("reporter").is_none());
    assert!(read["report"].get("details").is_none());
    let messages: Vec<&str> = read["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].contains("Please credit the source."));
    assert!(messages[1].contains("Borrowed words"));
    let whole = get_ok(
        &app,
        &format!("/api/admin/reports/{id}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(whole["report"]["reporter"]["_id"], reader.id);
    assert_eq!(whole["messages"].as_array().unwrap().len(), 2);
    for other in [&stranger, &reader] {
        let res = app
            .get(&format!("/api/admin/reports/{id}"), Some(&other.token))
            .await;
        assert_error(res, StatusCode::FORBIDDEN).await;
    }
    let res = app.get(&format!("/api/admin/reports/{id}"), None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    let res = app
        .get("/api/admin/reports/not-an-id", Some(&author.token))
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .get(
            &format!("/api/admin/reports/{}", mongodb::bson::oid::ObjectId::new()),
            Some(&author.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;

    // Only the author acknowledges.
    let path = format!("/api/admin/acknowledge-report/{id}");
    for other in [&stranger, &reader, &admin] {
        let res = app.post_empty(&path, Some(&other.token)).await;
        assert_error(res, StatusCode::FORBIDDEN).await;
    }
    assert_error(app.post_empty(&path, None).await, StatusCode::UNAUTHORIZED).await;
    for _ in 0..2 {
        let res = app.post_empty(&path, Some(&author.token)).await;
        assert_eq!(res.status(), StatusCode::OK);
        let body = json_of(res).await;
        assert_eq!(body["report"]["isAcknowledged"], true);
        assert!(
            body["report"].get("reporter").is_none(),
            "the reporter stays unknown"
        );
    }
    let list = get_ok(&app, "/api/admin/reports", Some(&admin.token)).await;
    assert_eq!(list["reports"][0]["isAcknowledged"], true);
    let read = get_ok(
        &app,
        &format!("/api/admin/reports/{id}"),
        Some(&author.token),
    )
    .await;
    assert_eq!(read["report"]["isAcknowledged"], true);

    // Once reviewed, the reader may report the post again.
    let res = report(&app, &reader, &post_id, "spam").await;
    assert_eq!(res.status(), StatusCode::CREATED);
    // Deleting the post keeps its reports, as moderation history, marked as such.
    let res = app
        .delete(&format!("/api/post/delete/{post_id}"), Some(&author.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let list = get_ok(&app, "/api/admin/reports", Some(&admin.token)).await;
    assert_eq!(list["total"], 2);
    let reports = list["reports"].as_array().unwrap();
    assert!(reports.iter().all(|r| r["postDeleted"] == true), "{list}");
}

#[actix_web::test]
async fn bad_reports_are_refused_with_clear_messages() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = publish(&app, &author, "Fine post", "x").await;
    let id = post["_id"].as_str().unwrap();
    let draft = create_post(
        &app,
        &author.token,
        with(post_body("Hidden draft", "x"), json!({ "status": "draft" })),
    )
    .await;
    let unknown = mongodb::bson::oid::ObjectId::new().to_hex();
    let cases = [
        (
            "own post",
            &author,
            json!({ "postId": id, "reason": "spam" }),
            StatusCode::BAD_REQUEST,
            "your own post",
        ),
        (
            "no reason",
            &reader,
            json!({ "postId": id }),
            StatusCode::BAD_REQUEST,
            "reason must be one of",
        ),
        (
            "odd reason",
            &reader,
            json!({ "postId": id, "reason": "boring" }),
            StatusCode::BAD_REQUEST,
            "reason must be one of",
        ),
        (
            "long details",
            &reader,
            json!({ "postId": id, "reason": "spam", "details": "x".repeat(2001) }),
            StatusCode::BAD_REQUEST,
            "2000",
        ),
        (
            "no post",
            &reader,
            json!({ "reason": "spam" }),
            StatusCode::BAD_REQUEST,
            "postId",
        ),
        (
            "bad post id",
            &reader,
            json!({ "postId": "xyz", "reason": "spam" }),
            StatusCode::BAD_REQUEST,
            "postId",
        ),
        (
            "unknown post",
            &reader,
            json!({ "postId": unknown, "reason": "spam" }),
            StatusCode::NOT_FOUND,
            "Post not found",
        ),
        (
            "hidden post",
            &reader,
            json!({ "postId": draft["_id"], "reason": "spam" }),
            StatusCode::NOT_FOUND,
            "Post not found",
        ),
    ];
    for (case, user, body, status, text) in cases {
        let msg = assert_error(
            app.post_json("/api/admin/reports", &body, Some(&user.token))
                .await,
            status,
        )
        .await;
        assert!(msg.contains(text), "case '{case}': {msg}");
    }
    assert_error(
        app.post_json(
            "/api/admin/reports",
            &json!({ "postId": id, "reason": "spam" }),
            None,
        )
        .await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    for (path, body) in [
        (format!("/api/admin/reports/{unknown}"), json!({})),
        (
            format!("/api/admin/reports/{unknown}"),
            json!({ "forwardToAuthor": true }),
        ),
    ] {
        let res = app.patch_json(&path, &body, Some(&admin.token)).await;
        assert_eq!(
            assert_error(res, StatusCode::NOT_FOUND).await,
            "Report not found"
        );
    }
    let res = app
        .patch_json(
            &format!("/api/admin/reports/{unknown}"),
            &json!({ "forwardToAuthor": "yes" }),
            Some(&admin.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    for body in [
        json!({ "subject": "s", "message": "m" }),
        json!({ "reportId": unknown, "subject": "s" }),
        json!({ "reportId": "xyz", "subject": "s", "message": "m" }),
    ] {
        let res = app
            .post_json(
                "/api/admin/replies/send-notification",
                &body,
                Some(&admin.token),
            )
            .await;
        assert_error(res, StatusCode::BAD_REQUEST).await;
    }
    let res = app
        .post_json(
            "/api/admin/replies/send-notification",
            &json!({ "reportId": unknown, "subject": "s", "message": "m" }),
            Some(&admin.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    let res = app
        .post_empty(
            &format!("/api/admin/acknowledge-report/{unknown}"),
            Some(&author.token),
        )
        .await;
    assert_error(res, StatusCode::NOT_FOUND).await;
}
