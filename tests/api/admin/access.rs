//! Every administrator route: a guest gets 401, a signed-in user 403, an administrator a 2xx.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::*;

#[actix_web::test]
async fn every_administrator_route_is_401_for_guests_403_for_users_and_served_to_administrators() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let author = app.signup().await;
    let [target, doomed, doomed_too] = [app.signup().await, app.signup().await, app.signup().await];
    let post = publish(&app, &author, "Moderated", "x").await;
    let post_id = post["_id"].as_str().unwrap().to_string();
    let spare = publish(&app, &author, "Spare", "x").await;
    let res = app
        .post_json(
            "/api/admin/contact",
            &json!({ "name": "A", "email": unique_email(), "subject": "s", "message": "m" }),
            None,
        )
        .await;
    let contact = json_of(res).await["id"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            "/api/admin/reports",
            &json!({ "postId": post_id, "reason": "spam" }),
            Some(&user.token),
        )
        .await;
    let report = json_of(res).await["report"]["_id"]
        .as_str()
        .unwrap()
        .to_string();

    let routes: Vec<(Method, String, Value)> = vec![
        (Method::GET, "/api/admin/users".into(), Value::Null),
        (Method::GET, "/api/user/get-all-user".into(), Value::Null),
        (
            Method::PATCH,
            format!("/api/admin/users/block/{}", target.id),
            json!({}),
        ),
        (
            Method::PATCH,
            format!("/api/user/toggle-block/{}", target.id),
            json!({}),
        ),
        (
            Method::PATCH,
            format!("/api/admin/users/role/{}", target.id),
            json!({}),
        ),
        (
            Method::PATCH,
            format!("/api/user/toggle-role/{}", target.id),
            json!({}),
        ),
        (Method::GET, "/api/admin/posts".into(), Value::Null),
        (
            Method::PATCH,
            format!("/api/admin/posts/block/{post_id}"),
            json!({}),
        ),
        (
            Method::GET,
            format!("/api/admin/reading-details/{post_id}"),
            Value::Null,
        ),
        (
            Method::POST,
            "/api/admin/reading-time".into(),
            json!({ "postId": spare["_id"], "timeSpent": 5 }),
        ),
        (
            Method::GET,
            "/api/admin/contact-messages".into(),
            Value::Null,
        ),
        (
            Method::PATCH,
            format!("/api/admin/contact-messages/{contact}/handled"),
            json!({}),
        ),
        (
            Method::POST,
            format!("/api/admin/reply-contact/{contact}"),
            json!({ "subject": "Re", "message": "Answer" }),
        ),
        (Method::GET, "/api/admin/reports".into(), Value::Null),
        (
            Method::PATCH,
            format!("/api/admin/reports/{report}"),
            json!({ "forwardToAuthor": true }),
        ),
        (
            Method::POST,
            "/api/admin/replies/send-notification".into(),
            json!({ "reportId": report, "subject": "About", "message": "Please fix" }),
        ),
        (Method::GET, "/api/admin/analytics".into(), Value::Null),
        (Method::GET, "/api/admin/overview".into(), Value::Null),
        (
            Method::GET,
            format!("/api/admin/email-status?email={}", user.email),
            Value::Null,
        ),
        (
            Method::GET,
            "/api/admin/all-email-statuses".into(),
            Value::Null,
        ),
        (
            Method::POST,
            "/api/admin/retry-failed-emails".into(),
            json!({ "type": "welcome" }),
        ),
        (
            Method::GET,
            "/api/dailyMail/daily-post-report".into(),
            Value::Null,
        ),
        (Method::GET, "/api/admin/download-csv".into(), Value::Null),
        (Method::GET, "/api/admin/audit-log".into(), Value::Null),
        (
            Method::GET,
            "/api/bannerNotification/get-Notification?all=true".into(),
            Value::Null,
        ),
        (
            Method::DELETE,
            format!("/api/admin/posts/{}", spare["_id"].as_str().unwrap()),
            Value::Null,
        ),
        (
            Method::DELETE,
            format!("/api/admin/users/{}", doomed.id),
            Value::Null,
        ),
        (
            Method::DELETE,
            "/api/user/delete-user".into(),
            json!({ "userId": doomed_too.id }),
        ),
    ];
    for (method, path, body) in routes {
        for (who, token, expected) in [
            ("guest", None, Some(StatusCode::UNAUTHORIZED)),
            (
                "user",
                Some(user.token.as_str()),
                Some(StatusCode::FORBIDDEN),
            ),
            ("admin", Some(admin.token.as_str()), None),
        ] {
            let mut req = app.client.request(method.clone(), app.url(&path));
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            if !body.is_null() {
                req = req.json(&body);
            }
            let res = req.send().await.unwrap();
            let status = res.status();
            match expected {
                Some(expected) => {
                    let msg = assert_error(res, expected).await;
                    assert!(!msg.is_empty(), "{who} {method} {path}");
                }
                None => {
                    let text = res.text().await.unwrap_or_default();
                    assert!(
                        status.is_success(),
                        "{who} {method} {path}: {status} {text}"
                    );
                }
            }
        }
    }
}
