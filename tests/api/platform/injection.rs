//! NoSQL-operator and injection payloads in every string field of every documented request body
//! and every query parameter: the answer is a 4xx or a literal treatment of the text, never a 5xx,
//! never a session obtained with an operator, and never script in an answer served as HTML. An
//! operator object or an array where a string belongs that is refused with a 400 is refused with
//! a message naming the field. The money bodies are reached with objects of the caller's own (a
//! plan and bank details of an eligible author), so their changes read the fields too.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::money::bank_body;
use crate::support::*;
use pressroom::routes::openapi::{document, ROUTES};

fn payloads() -> Vec<Value> {
    vec![
        json!({ "$ne": null }),
        json!({ "$gt": "" }),
        json!({ "$where": "1" }),
        json!({ "$regex": ".*" }),
        json!(["a", "b"]),
        json!("x".repeat(100_000)),
        json!("nul\u{0}byte"),
        json!("<script>alert(1)</script><img src=x onerror=alert(1)>"),
        json!("'; db.users.drop(); '"),
    ]
}

/// The string-typed properties of a body schema (following one `$ref` level of the document).
fn string_fields(schema: &Value) -> Vec<String> {
    let Some(props) = schema["properties"].as_object() else {
        return Vec::new();
    };
    props
        .iter()
        .filter(|(_, p)| {
            let t = &p["type"];
            t == "string" || t.as_array().is_some_and(|a| a.contains(&json!("string")))
        })
        .map(|(name, _)| name.clone())
        .collect()
}

fn concrete(path: &str, id: &str) -> String {
    path.split('/')
        .map(|seg| if seg.starts_with('{') { id } else { seg })
        .collect::<Vec<_>>()
        .join("/")
}

#[actix_web::test]
async fn operator_and_script_payloads_in_every_string_field_never_break_a_route() {
    let app = spawn_app().await;
    app.money_ready().await;
    let user = app.eligible_author().await;
    let admin = app.admin().await;
    let doc = document();
    let id = mongodb::bson::oid::ObjectId::new().to_hex();
    // Objects of the caller's own, so that a change reads its body rather than answering 404.
    let plan = app.create_plan(&user, 700).await["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .post_json("/api/payment/bank-details", &bank_body(), Some(&user.token))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let bank = json_of(res).await["bankDetails"]["paymentId"]
        .as_str()
        .unwrap()
        .to_string();
    let own: [(&str, &str, &str); 2] = [
        ("PATCH", "/api/subscription/plans/{id}", &plan),
        ("PATCH", "/api/payment/bank-details/{id}", &bank),
    ];
    // Per route with documented text fields in its body: structured refusals checked.
    let mut reached: Vec<(String, usize)> = Vec::new();
    let invalid_utf8: &[u8] = b"{\"text\": \"\xff\xfe\"}";
    let mut tried = 0;
    let mut named = 0;
    let mut broken = Vec::new();
    let session_enders = [
        "/api/auth/logout",
        "/api/auth/logout-all",
        "/api/user/delete-user",
    ];
    for route in ROUTES {
        if session_enders.contains(&route.path) {
            continue;
        }
        let key = route.path.trim_end_matches('/');
        let op = &doc["paths"][key][route.method.to_lowercase()];
        let body_schema = &op["requestBody"]["content"]["application/json"]["schema"];
        let fields = string_fields(body_schema);
        let queries: Vec<String> = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| p["in"] == "query")
            .filter_map(|p| p["name"].as_str().map(str::to_string))
            .collect();
        let id = own
            .iter()
            .find(|(m, p, _)| *m == route.method && *p == route.path)
            .map_or(id.as_str(), |(_, _, own)| own);
        let path = concrete(route.path, id);
        let method = Method::from_bytes(route.method.as_bytes()).unwrap();
        let token = if route.path.contains("/admin") {
            &admin.token
        } else {
            &user.token
        };
        // (field, url, body, whether a 400 must name the field: an operator object or an array
        // where a string belongs)
        let mut cases: Vec<(String, String, Vec<u8>, bool)> = Vec::new();
        for field in &fields {
            for payload in payloads() {
                let structured = payload.is_object() || payload.is_array();
                let body = json!({ field.clone(): payload });
                cases.push((
                    field.clone(),
                    path.clone(),
                    body.to_string().into_bytes(),
                    structured,
                ));
            }
            cases.push((field.clone(), path.clone(), invalid_utf8.to_vec(), false));
        }
        for name in &queries {
            for text in [
                "{\"$ne\":null}",
                "[$ne]=1",
                "<script>alert(1)</script>",
                "%00",
                ".*",
            ] {
                let q = format!("{path}?{name}={}", urlencoding(text));
                cases.push((name.clone(), q, b"{}".to_vec(), false));
            }
            // A query written the way some frameworks read operators: name[$ne]=x.
            cases.push((
                name.clone(),
                format!("{path}?{name}%5B%24ne%5D=x"),
                b"{}".to_vec(),
                false,
            ));
        }
        let mut checked = 0;
        for (field, url, body, structured) in cases {
            tried += 1;
            let res = app
                .client
                .request(method.clone(), app.url(&url))
                .bearer_auth(token)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .expect("request");
            let status = res.status();
            let html = res
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|c| c.starts_with("text/html"));
            let text = res.text().await.unwrap_or_default();
            let what = format!("{} {} [{field}]", route.method, route.path);
            if status.is_server_error() {
                broken.push(format!("{what}: {status} {text}"));
            }
            if html && text.to_lowercase().contains("<script") {
                broken.push(format!("{what}: script served as HTML"));
            }
            if structured && status == StatusCode::BAD_REQUEST {
                named += 1;
                checked += 1;
                let message = serde_json::from_str::<Value>(&text)
                    .ok()
                    .and_then(|b| b["message"].as_str().map(str::to_string))
                    .unwrap_or_default();
                if !names(&message, &field) {
                    broken.push(format!(
                        "{what}: the 400 does not name the field: {message}"
                    ));
                }
            }
        }
        if !fields.is_empty() {
            reached.push((format!("{} {}", route.method, route.path), checked));
        }
    }
    // Every money body with text fields is reached: its structured values are refused and named.
    let money = [
        "/api/admin/subscriptions/",
        "/api/subscription/",
        "/api/earning/",
        "/api/payment/",
    ];
    for (what, checked) in &reached {
        if money.iter().any(|m| what.contains(m)) {
            assert!(
                *checked > 0,
                "{what}: no refusal of a structured value was checked"
            );
        }
    }
    // An operator never signs anyone in.
    for payload in payloads().into_iter().take(5) {
        let res = app
            .post_json(
                "/api/auth/login",
                &json!({ "email": user.email, "password": payload }),
                None,
            )
            .await;
        assert!(
            res.status().is_client_error(),
            "login with password {payload} answered {}",
            res.status()
        );
        let res = app
            .post_json(
                "/api/auth/login",
                &json!({ "email": payload, "password": PASSWORD }),
                None,
            )
            .await;
        let status = res.status();
        let message = assert_error(res, status).await;
        assert!(
            status.is_client_error(),
            "login with email {payload}: {status}"
        );
        assert!(
            message.contains("email"),
            "the refusal names the field: {message}"
        );
        tried += 2;
    }
    eprintln!("injection payloads tried: {tried}; refusals checked for the field's name: {named}");
    assert!(
        named > 100,
        "only {named} refusals were checked for the field's name"
    );
    assert!(tried > 1000, "only {tried} payloads were tried");
    assert!(
        broken.is_empty(),
        "{} broken:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// Whether an error message names a body field: its JSON name, or the same words as a person
/// reads them (`fullName` as "full name").
fn names(message: &str, field: &str) -> bool {
    let message = message.to_lowercase();
    let mut spaced = String::new();
    for c in field.chars() {
        if c.is_uppercase() {
            spaced.push(' ');
        }
        spaced.push(c.to_ascii_lowercase());
    }
    message.contains(&field.to_lowercase()) || message.contains(&spaced)
}

/// Percent-encodes a query value.
fn urlencoding(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
