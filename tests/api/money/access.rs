//! Who may call each money route: a guest, a reader (the subscriber), the plan's author, another
//! author and an administrator, route by route. The routes come from the route table: every money
//! route of the table has a row here and every row names a money route of the table (a money
//! route added without a row fails `every_money_route_of_the_table_has_a_row`). Rows run in order
//! against one set of records, so a row's answer may depend on the rows before it (a refund after
//! a cancel, a second creation).

use pressroom::routes::openapi::{path_matches, ROUTES};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::money::*;
use crate::support::*;

/// The money routes of the table, by path: plans and subscriptions, the administrators'
/// subscription settings (eligibility, criteria, grants), earnings and payouts, bank details and
/// the payment webhook.
const MONEY_PREFIXES: [&str; 4] = [
    "/api/subscription/",
    "/api/admin/subscriptions/",
    "/api/earning/",
    "/api/payment/",
];

fn is_money(path: &str) -> bool {
    MONEY_PREFIXES.iter().any(|prefix| path.starts_with(prefix))
}

#[derive(Clone, Copy, Debug)]
enum Who {
    Guest,
    Reader,
    Author,
    Other,
    Admin,
}

/// One row: a route of the table (its method and pattern), the concrete path called (the
/// pattern with its `{params}` filled, and a query), a body, and what each caller gets, in order.
struct Row {
    method: &'static str,
    pattern: &'static str,
    path: String,
    body: Value,
    expect: Vec<(Who, StatusCode)>,
}

/// A row for the route `method pattern`, its `{params}` filled in order from `params`.
fn row(
    method: &'static str,
    pattern: &'static str,
    params: &[&str],
    body: Value,
    expect: Vec<(Who, StatusCode)>,
) -> Row {
    let mut values = params.iter();
    let path = pattern
        .split('/')
        .map(|segment| {
            if segment.starts_with('{') {
                *values
                    .next()
                    .unwrap_or_else(|| panic!("{method} {pattern}: too few values"))
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/");
    assert!(
        values.next().is_none(),
        "{method} {pattern}: too many values"
    );
    Row {
        method,
        pattern,
        path,
        body,
        expect,
    }
}

impl Row {
    /// Adds a query (`?userId=…`) to the row's path.
    fn query(mut self, query: String) -> Row {
        self.path.push_str(&query);
        self
    }
}

/// The records the rows act on: plans `p` and `p2` of author `a`, the subscription `s` of reader
/// `r` to `p`, the bank details `b` of `a`.
struct Ids {
    p: String,
    p2: String,
    s: String,
    b: String,
    a: String,
    r: String,
}

/// Every row, in the order they run.
fn rows(ids: &Ids) -> Vec<Row> {
    use StatusCode as S;
    use Who::*;
    let (p, p2, s, b, a, r) = (
        ids.p.as_str(),
        ids.p2.as_str(),
        ids.s.as_str(),
        ids.b.as_str(),
        ids.a.as_str(),
        ids.r.as_str(),
    );
    let new_plan = json!({ "name": "Silver", "price": 500 });
    vec![
        row(
            "POST",
            "/api/subscription/plans",
            &[],
            new_plan.clone(),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Admin, S::FORBIDDEN),
                (Author, S::CREATED),
                (Other, S::CREATED),
            ],
        ),
        row(
            "PATCH",
            "/api/subscription/plans/{id}",
            &[p],
            json!({ "description": "More" }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "POST",
            "/api/subscription/plans/{id}/activate",
            &[p],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/subscription/plans/{id}/analytics",
            &[p],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "DELETE",
            "/api/subscription/plans/{id}",
            &[p2],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/subscription/plans/author/{authorId}",
            &[a],
            Value::Null,
            vec![
                (Guest, S::OK),
                (Reader, S::OK),
                (Other, S::OK),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        // A subscriber's private feed of the author (only while the subscription gives access).
        row(
            "GET",
            "/api/subscription/private-feed/{authorId}",
            &[a],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::FORBIDDEN),
                (Reader, S::OK),
            ],
        ),
        row(
            "POST",
            "/api/subscription/private-feed/{authorId}/reset",
            &[a],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::FORBIDDEN),
                (Reader, S::OK),
            ],
        ),
        row(
            "DELETE",
            "/api/subscription/private-feed/{authorId}",
            &[a],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::NOT_FOUND),
                (Reader, S::OK),
                (Reader, S::NOT_FOUND),
            ],
        ),
        row(
            "POST",
            "/api/subscription/subscribe",
            &[],
            json!({ "planId": p }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Author, S::BAD_REQUEST),
                (Reader, S::CONFLICT),
                (Other, S::CREATED),
                (Admin, S::CREATED),
            ],
        ),
        row(
            "POST",
            "/api/subscription/status",
            &[],
            json!({ "userId": r, "authorId": a }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Reader, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/subscription/author/{authorId}/subscriptions",
            &[a],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/subscription/my-plans",
            &[],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::OK),
                (Author, S::OK),
                (Other, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/subscription/my-subscriptions",
            &[],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::OK),
                (Author, S::OK),
                (Other, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/subscription/check-eligibility",
            &[],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::OK),
                (Author, S::OK),
                (Other, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "POST",
            "/api/subscription/reminders",
            &[],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "PATCH",
            "/api/subscription/subscriptions/{id}/cancel",
            &[s],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::NOT_FOUND),
                (Author, S::FORBIDDEN),
                (Reader, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "PATCH",
            "/api/subscription/subscriptions/{id}/refund",
            &[s],
            json!({ "reason": "Duplicate" }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::NOT_FOUND),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
                (Reader, S::CONFLICT),
            ],
        ),
        row(
            "POST",
            "/api/subscription/unsubscribe/author",
            &[],
            json!({ "authorId": a, "userId": r }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Other, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Reader, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/admin/subscriptions/plans",
            &[],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "POST",
            "/api/admin/subscriptions/eligibility/toggle",
            &[],
            json!({ "userId": r, "enable": false }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "PATCH",
            "/api/admin/subscriptions/criteria",
            &[],
            json!({ "minPosts": 30 }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/admin/subscriptions/eligibility/{userId}",
            &[r],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "PATCH",
            "/api/admin/subscriptions/plan/status",
            &[],
            json!({ "planId": p, "status": "active" }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "POST",
            "/api/admin/subscriptions/grant",
            &[],
            json!({ "userId": r, "grant": false }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "PATCH",
            "/api/admin/subscriptions/user-override/{userId}",
            &[r],
            json!({ "bypassSubscriptionCriteria": false }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "PATCH",
            "/api/admin/subscriptions/user-milestone/{userId}",
            &[r],
            json!({ "followerCount": 5 }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "PATCH",
            "/api/admin/subscriptions/user-milestone-reset/{userId}",
            &[r],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/earning/admin/earnings",
            &[],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/earning/my-earnings",
            &[],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::OK),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "POST",
            "/api/earning/admin/payouts",
            &[],
            json!({ "users": [a] }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Author, S::FORBIDDEN),
                (Admin, S::OK),
            ],
        ),
        row(
            "GET",
            "/api/payment/bank-details",
            &[],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        )
        .query(format!("?userId={a}")),
        row(
            "PATCH",
            "/api/payment/bank-details/{id}",
            &[b],
            json!({ "bankName": "Second Bank" }),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::OK),
            ],
        ),
        row(
            "DELETE",
            "/api/payment/bank-details/{id}",
            &[b],
            Value::Null,
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::FORBIDDEN),
                (Other, S::FORBIDDEN),
                (Author, S::OK),
                (Admin, S::NOT_FOUND),
            ],
        ),
        row(
            "POST",
            "/api/payment/bank-details",
            &[],
            bank_body(),
            vec![
                (Guest, S::UNAUTHORIZED),
                (Reader, S::CREATED),
                (Reader, S::CONFLICT),
                (Admin, S::CREATED),
            ],
        ),
        row(
            "POST",
            "/api/payment/webhook",
            &[],
            json!({ "id": "evt_1", "type": "x" }),
            vec![(Guest, S::BAD_REQUEST)],
        ),
    ]
}

/// What is wrong with the rows against the table: a money route of the table without a row, a
/// row whose route is not in the table or is not a money route, a row whose path does not fit
/// its pattern.
fn coverage(rows: &[Row]) -> Vec<String> {
    let mut problems = Vec::new();
    for route in ROUTES.iter().filter(|route| is_money(route.path)) {
        if !rows
            .iter()
            .any(|row| row.method == route.method && row.pattern == route.path)
        {
            problems.push(format!(
                "{} {} is a money route of the table without a row",
                route.method, route.path
            ));
        }
    }
    for row in rows {
        if !ROUTES
            .iter()
            .any(|route| route.method == row.method && route.path == row.pattern)
        {
            problems.push(format!(
                "{} {} is not a route of the table",
                row.method, row.pattern
            ));
        } else if !is_money(row.pattern) {
            problems.push(format!(
                "{} {} is not a money route",
                row.method, row.pattern
            ));
        }
        let bare = row.path.split('?').next().unwrap_or_default();
        if !path_matches(row.pattern, bare) {
            problems.push(format!(
                "{} {} does not fit {}",
                row.method, row.path, row.pattern
            ));
        }
        if row.expect.is_empty() {
            problems.push(format!("{} {} has no caller", row.method, row.pattern));
        }
    }
    problems
}

#[test]
fn every_money_route_of_the_table_has_a_row() {
    let id = || mongodb::bson::oid::ObjectId::new().to_hex();
    let ids = Ids {
        p: id(),
        p2: id(),
        s: id(),
        b: id(),
        a: id(),
        r: id(),
    };
    let rows = rows(&ids);
    let problems = coverage(&rows);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Each prefix still names routes of the table (a renamed family would go unchecked).
    for prefix in MONEY_PREFIXES {
        assert!(
            ROUTES.iter().any(|route| route.path.starts_with(prefix)),
            "no route of the table under {prefix}"
        );
    }
    // A row whose route is missing from the table, and a money route without a row, are found.
    let mut broken = rows;
    let dropped = broken.remove(0);
    broken.push(row("GET", "/api/payment/nowhere", &[], Value::Null, vec![]));
    let problems = coverage(&broken);
    assert!(
        problems
            .iter()
            .any(|p| p.contains(dropped.pattern) && p.contains("without a row")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("/api/payment/nowhere")),
        "{problems:?}"
    );
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
    let ids = Ids {
        p,
        p2: spare["_id"].as_str().unwrap().to_string(),
        s,
        b,
        a: author.id.clone(),
        r: reader.id.clone(),
    };
    let rows = rows(&ids);
    let problems = coverage(&rows);
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    for row in rows {
        let method = Method::from_bytes(row.method.as_bytes()).unwrap();
        let path = &row.path;
        for (who, expected) in row.expect {
            let token = match who {
                Who::Guest => None,
                Who::Reader => Some(reader.token.as_str()),
                Who::Author => Some(author.token.as_str()),
                Who::Other => Some(other.token.as_str()),
                Who::Admin => Some(admin.token.as_str()),
            };
            let mut req = app.client.request(method.clone(), app.url(path));
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            if !row.body.is_null() {
                req = req.json(&row.body);
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
