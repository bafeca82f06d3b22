//! Who may call each money route: a guest, a reader (the subscriber), the plan's author, another
//! author and an administrator, route by route. Rows run in order against one set of records, so
//! a row's answer may depend on the rows before it (a refund after a cancel, a second creation).

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::money::*;
use crate::support::*;

/// A route, its body, and what each role gets, in order.
type Row = (Method, String, Value, Vec<(Who, StatusCode)>);

#[derive(Clone, Copy, Debug)]
enum Who {
    Guest,
    Reader,
    Author,
    Other,
    Admin,
}

#[actix_web::test]
async fn every_money_route_answers_each_role_as_it_should() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let other = app.eligible_author().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let plan = app.create_plan(&author, 1200).await;
    let spare = app.create_plan(&author, 900).await;
    let p = plan["_id"].as_str().unwrap().to_string();
    let p2 = spare["_id"].as_str().unwrap().to_string();
    let s = app.subscribed(&reader, &p).await;
    let res = app
        .post_json(
            "/api/payment/bank-details",
            &bank_body(),
            Some(&author.token),
        )
        .await;
    let b = json_of(res).await["bankDetails"]["paymentId"]
        .as_str()
        .unwrap()
        .to_string();
    let a = author.id.clone();
    let r = reader.id.clone();

    use StatusCode as S;
    use Who::*;
    let new_plan = json!({ "name": "Silver", "price": 500 });
    let rows: Vec<Row> = vec![
        (
            Method::POST,
            "/api/subscription/plans".into(),
            new_plan.clone(),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Admin, S::FORBIDDEN),
                (Author, S::CREATED),
                (Other, S::CREATED),
            ],
        ),
        (
            Method::PATCH,
            format!("/api/subscription/plans/{p}"),
            json!({ "description": "More" }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::POST,
            format!("/api/subscription/plans/{p}/activate"),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            format!("/api/subscription/plans/{p}/analytics"),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::DELETE,
            format!("/api/subscription/plans/{p2}"),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            format!("/api/subscription/plans/author/{a}"),
            Value::Null,
            vec![
                (Guest, S::OK),
                (Reader, S::OK),
                (Other, S::OK),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::POST,
            "/api/subscription/subscribe".into(),
            json!({ "planId": p }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Author, S::BAD_REQUEST),
                (Reader, S::CONFLICT),
                (Other, S::CREATED),
                (Admin, S::CREATED),
            ],
        ),
        (
            Method::POST,
            "/api/subscription/status".into(),
            json!({ "userId": r, "authorId": a }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Reader, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            format!("/api/subscription/author/{a}/subscriptions"),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            "/api/subscription/my-plans".into(),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::OK),
                (Author, S::OK),
                (Other, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            "/api/subscription/my-subscriptions".into(),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::OK),
                (Author, S::OK),
                (Other, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            "/api/subscription/check-eligibility".into(),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::OK),
                (Author, S::OK),
                (Other, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::POST,
            "/api/subscription/reminders".into(),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::PATCH,
            format!("/api/subscription/subscriptions/{s}/cancel"),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::NOT_FOUND),
                (Author, S::FORBIDDEN),
                (Reader, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::PATCH,
            format!("/api/subscription/subscriptions/{s}/refund"),
            json!({ "reason": "Duplicate" }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::NOT_FOUND),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
                (Reader, S::CONFLICT),
            ],
        ),
        (
            Method::POST,
            "/api/subscription/unsubscribe/author".into(),
            json!({ "authorId": a, "userId": r }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Reader, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            "/api/admin/subscriptions/plans".into(),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::POST,
            "/api/admin/subscriptions/eligibility/toggle".into(),
            json!({ "userId": r, "enable": false }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::PATCH,
            "/api/admin/subscriptions/criteria".into(),
            json!({ "minPosts": 30 }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            format!("/api/admin/subscriptions/eligibility/{r}"),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::PATCH,
            "/api/admin/subscriptions/plan/status".into(),
            json!({ "planId": p, "status": "active" }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::POST,
            "/api/admin/subscriptions/grant".into(),
            json!({ "userId": r, "grant": false }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::PATCH,
            format!("/api/admin/subscriptions/user-override/{r}"),
            json!({ "bypassSubscriptionCriteria": false }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::PATCH,
            format!("/api/admin/subscriptions/user-milestone/{r}"),
            json!({ "followerCount": 5 }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::PATCH,
            format!("/api/admin/subscriptions/user-milestone-reset/{r}"),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            "/api/earning/admin/earnings".into(),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            "/api/earning/my-earnings".into(),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::OK),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::POST,
            "/api/earning/admin/payouts".into(),
            json!({ "users": [a] }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        (
            Method::GET,
            format!("/api/payment/bank-details?userId={a}"),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::PATCH,
            format!("/api/payment/bank-details/{b}"),
            json!({ "bankName": "Second Bank" }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        (
            Method::DELETE,
            format!("/api/payment/bank-details/{b}"),
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::NOT_FOUND),
            ],
        ),
        (
            Method::POST,
            "/api/payment/bank-details".into(),
            bank_body(),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::CREATED),
                (Reader, S::CONFLICT),
                (Admin, S::CREATED),
            ],
        ),
        (
            Method::POST,
            "/api/payment/webhook".into(),
            json!({ "id": "evt_1", "type": "x" }),
            vec![(Guest, S::BAD_REQUEST)],
        ),
    ];
    for (method, path, body, expectations) in rows {
        for (who, expected) in expectations {
            let token = match who {
                Guest => None,
                Reader => Some(reader.token.as_str()),
                Author => Some(author.token.as_str()),
                Other => Some(other.token.as_str()),
                Admin => Some(admin.token.as_str()),
            };
            let mut req = app.client.request(method.clone(), app.url(&path));
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            if !body.is_null() {
                req = req.json(&body);
            }
            let res = req.send().await.unwrap();
            let status = res.status();
            let text = res.text().await.unwrap_or_default();
            assert_eq!(status, expected, "{method} {path} as {who:?}: {text}");
            if !status.is_success() {
                let err: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                assert!(
                    err["message"].is_string() && err["code"].is_string(),
                    "{method} {path} as {who:?}: {text}"
                );
            }
        }
    }
}

#[actix_web::test]
async fn subscribing_without_a_token_or_a_plan_id_answers_the_seeds_messages() {
    let app = spawn_app().await;
    let reader = app.signup().await;
    let res = app
        .post_json(
            "/api/subscription/subscribe",
            &json!({ "planId": "x" }),
            None,
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::UNAUTHORIZED).await,
        "Missing authentication token"
    );
    let res = app
        .client
        .post(app.url("/api/subscription/subscribe"))
        .header("authorization", "Bearer null")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        assert_error(res, StatusCode::UNAUTHORIZED).await,
        "Missing authentication token"
    );
    for body in [
        json!({}),
        json!({ "planId": "" }),
        json!({ "planId": null }),
        json!({ "planId": "null" }),
    ] {
        let res = app
            .post_json("/api/subscription/subscribe", &body, Some(&reader.token))
            .await;
        assert_eq!(
            assert_error(res, StatusCode::BAD_REQUEST).await,
            "Missing plan ID",
            "{body}"
        );
    }
    let res = app
        .post_empty("/api/subscription/subscribe", Some(&reader.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Missing plan ID"
    );
    let res = app
        .patch_empty("/api/subscription/plans/x", Some(&reader.token))
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}
