//! Bad input on every field of the money routes: a 4xx naming what is wrong, and nothing
//! written.

use mongodb::bson::doc;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::money::*;
use crate::support::*;

/// Who sends a case.
#[derive(Clone, Copy, Debug)]
enum As {
    Author,
    Reader,
    Admin,
}

/// (method, path, body (raw JSON text), sender, status, words the message contains)
type Case = (Method, String, String, As, StatusCode, &'static str);

fn with(base: &Value, key: &str, value: Value) -> String {
    let mut b = base.clone();
    if value.is_null() && key.starts_with('-') {
        b.as_object_mut().unwrap().remove(&key[1..]);
    } else {
        b[key] = value;
    }
    b.to_string()
}

#[actix_web::test]
async fn every_money_field_refuses_bad_input_with_a_clear_message_and_writes_nothing() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let plan = app.create_plan(&author, 1000).await;
    let p = plan["_id"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            "/api/payment/bank-details",
            &bank_body(),
            Some(&author.token),
        )
        .await;
    let pay_id = json_of(res).await["bankDetails"]["paymentId"]
        .as_str()
        .unwrap()
        .to_string();
    let missing = mongodb::bson::oid::ObjectId::new().to_hex();
    let a = author.id.clone();

    let good_plan =
        json!({ "name": "Silver", "price": 500, "currency": "usd", "interval": "month" });
    let bank = bank_body();
    let contact = |k: &str, v: Value| {
        let mut b = bank_body();
        b["contactData"][k] = v;
        b.to_string()
    };
    use As::*;
    use Method as M;
    use StatusCode as S;
    let plans = "/api/subscription/plans".to_string();
    let bank_path = "/api/payment/bank-details".to_string();
    let cases: Vec<Case> = vec![
        // Plans.
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "-name", Value::Null),
            Author,
            S::BAD_REQUEST,
            "Plan name is required",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "name", json!("  ")),
            Author,
            S::BAD_REQUEST,
            "Plan name is required",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "name", json!(12)),
            Author,
            S::BAD_REQUEST,
            "name must be a string",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "name", json!("x".repeat(101))),
            Author,
            S::BAD_REQUEST,
            "at most 100",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "-price", Value::Null),
            Author,
            S::BAD_REQUEST,
            "price is required",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "price", json!(9.99)),
            Author,
            S::BAD_REQUEST,
            "price must be a whole number",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "price", json!(10)),
            Author,
            S::BAD_REQUEST,
            "from 50 to 99999999",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "price", json!({ "$gt": 0 })),
            Author,
            S::BAD_REQUEST,
            "price must be",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "currency", json!("xyz")),
            Author,
            S::BAD_REQUEST,
            "currency must be one of usd",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "interval", json!("week")),
            Author,
            S::BAD_REQUEST,
            "interval must be month or year",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "benefits", json!("all")),
            Author,
            S::BAD_REQUEST,
            "benefits must be a list",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "benefits", json!([1])),
            Author,
            S::BAD_REQUEST,
            "benefit 1 must be a text",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "benefits", json!(["ok", " "])),
            Author,
            S::BAD_REQUEST,
            "benefit 2 is empty",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "status", json!("paused")),
            Author,
            S::BAD_REQUEST,
            "status must be active or inactive",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "description", json!(5)),
            Author,
            S::BAD_REQUEST,
            "description must be a string",
        ),
        (
            M::POST,
            plans.clone(),
            with(&good_plan, "authorId", json!(a)),
            Author,
            S::BAD_REQUEST,
            "Unknown field 'authorId'",
        ),
        (
            M::POST,
            plans.clone(),
            "[1]".into(),
            Author,
            S::BAD_REQUEST,
            "must be a JSON object",
        ),
        (
            M::POST,
            plans.clone(),
            "{\"name\":".into(),
            Author,
            S::BAD_REQUEST,
            "Malformed JSON",
        ),
        (
            M::PATCH,
            format!("{plans}/{p}"),
            "{}".into(),
            Author,
            S::BAD_REQUEST,
            "Nothing to change",
        ),
        (
            M::PATCH,
            format!("{plans}/{p}"),
            json!({ "price": "cheap" }).to_string(),
            Author,
            S::BAD_REQUEST,
            "price must be",
        ),
        (
            M::PATCH,
            format!("{plans}/{p}"),
            json!({ "name": null }).to_string(),
            Author,
            S::BAD_REQUEST,
            "Plan name is required",
        ),
        (
            M::PATCH,
            format!("{plans}/null"),
            json!({ "name": "X" }).to_string(),
            Author,
            S::BAD_REQUEST,
            "Invalid plan ID",
        ),
        (
            M::PATCH,
            format!("{plans}/{missing}"),
            json!({ "name": "X" }).to_string(),
            Author,
            S::NOT_FOUND,
            "Plan not found",
        ),
        (
            M::POST,
            format!("{plans}/undefined/activate"),
            String::new(),
            Author,
            S::BAD_REQUEST,
            "Invalid plan ID",
        ),
        (
            M::DELETE,
            format!("{plans}/{missing}"),
            String::new(),
            Author,
            S::NOT_FOUND,
            "Plan not found",
        ),
        (
            M::GET,
            format!("{plans}/xyz/analytics"),
            String::new(),
            Author,
            S::BAD_REQUEST,
            "Invalid plan ID",
        ),
        (
            M::GET,
            format!("{plans}/author/xyz"),
            String::new(),
            Reader,
            S::BAD_REQUEST,
            "Invalid author ID",
        ),
        (
            M::GET,
            format!("{plans}/author/{missing}"),
            String::new(),
            Reader,
            S::NOT_FOUND,
            "Author not found",
        ),
        (
            M::GET,
            "/api/subscription/my-plans?includeDeleted=maybe".into(),
            String::new(),
            Author,
            S::BAD_REQUEST,
            "includeDeleted must be true or false",
        ),
        // Subscribing and subscriptions.
        (
            M::POST,
            "/api/subscription/subscribe".into(),
            json!({ "planId": "xyz" }).to_string(),
            Reader,
            S::BAD_REQUEST,
            "Invalid plan ID",
        ),
        (
            M::POST,
            "/api/subscription/subscribe".into(),
            json!({ "planId": missing }).to_string(),
            Reader,
            S::NOT_FOUND,
            "Plan not found",
        ),
        (
            M::POST,
            "/api/subscription/subscribe".into(),
            json!({ "planId": 42 }).to_string(),
            Reader,
            S::BAD_REQUEST,
            "planId must be a string",
        ),
        (
            M::POST,
            "/api/subscription/subscribe".into(),
            json!({ "planId": p, "paymentMethodId": "card-1234" }).to_string(),
            Reader,
            S::BAD_REQUEST,
            "paymentMethodId must be",
        ),
        (
            M::POST,
            "/api/subscription/subscribe".into(),
            json!({ "planId": p, "authorId": missing }).to_string(),
            Reader,
            S::BAD_REQUEST,
            "authorId does not match",
        ),
        (
            M::POST,
            "/api/subscription/subscribe".into(),
            json!({ "planId": p, "price": 1 }).to_string(),
            Reader,
            S::BAD_REQUEST,
            "Unknown field 'price'",
        ),
        (
            M::PATCH,
            "/api/subscription/subscriptions/null/cancel".into(),
            String::new(),
            Reader,
            S::BAD_REQUEST,
            "Invalid subscription ID",
        ),
        (
            M::PATCH,
            format!("/api/subscription/subscriptions/{missing}/cancel"),
            String::new(),
            Reader,
            S::NOT_FOUND,
            "Subscription not found",
        ),
        (
            M::PATCH,
            format!("/api/subscription/subscriptions/{missing}/refund"),
            json!({}).to_string(),
            Reader,
            S::BAD_REQUEST,
            "A reason for the refund is required",
        ),
        (
            M::PATCH,
            format!("/api/subscription/subscriptions/{missing}/refund"),
            json!({ "reason": "x".repeat(1001) }).to_string(),
            Reader,
            S::BAD_REQUEST,
            "at most 1000",
        ),
        (
            M::PATCH,
            format!("/api/subscription/subscriptions/{missing}/refund"),
            json!({ "reason": "x", "bankDetails": 5 }).to_string(),
            Reader,
            S::BAD_REQUEST,
            "bankDetails must be",
        ),
        (
            M::PATCH,
            format!("/api/subscription/subscriptions/{missing}/refund"),
            json!({ "reason": "x" }).to_string(),
            Reader,
            S::NOT_FOUND,
            "Subscription not found",
        ),
        (
            M::POST,
            "/api/subscription/status".into(),
            json!({ "userId": reader.id }).to_string(),
            Reader,
            S::BAD_REQUEST,
            "Invalid author ID",
        ),
        (
            M::POST,
            "/api/subscription/status".into(),
            json!({ "userId": "me", "authorId": a }).to_string(),
            Reader,
            S::BAD_REQUEST,
            "Invalid user ID",
        ),
        (
            M::POST,
            "/api/subscription/unsubscribe/author".into(),
            json!({ "authorId": "null" }).to_string(),
            Reader,
            S::BAD_REQUEST,
            "Invalid author ID",
        ),
        (
            M::GET,
            "/api/subscription/my-subscriptions?includeEnded=2".into(),
            String::new(),
            Reader,
            S::BAD_REQUEST,
            "includeEnded must be true or false",
        ),
        (
            M::GET,
            "/api/subscription/author/abc/subscriptions".into(),
            String::new(),
            Author,
            S::BAD_REQUEST,
            "Invalid author ID",
        ),
        // Administrators.
        (
            M::POST,
            "/api/admin/subscriptions/eligibility/toggle".into(),
            json!({ "userId": reader.id, "enable": "yes" }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "enable must be true or false",
        ),
        (
            M::POST,
            "/api/admin/subscriptions/eligibility/toggle".into(),
            json!({ "enable": true }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "Invalid user ID",
        ),
        (
            M::POST,
            "/api/admin/subscriptions/eligibility/toggle".into(),
            json!({ "userId": missing, "enable": true }).to_string(),
            Admin,
            S::NOT_FOUND,
            "User not found",
        ),
        (
            M::PATCH,
            "/api/admin/subscriptions/criteria".into(),
            json!({}).to_string(),
            Admin,
            S::BAD_REQUEST,
            "Send at least one",
        ),
        (
            M::PATCH,
            "/api/admin/subscriptions/criteria".into(),
            json!({ "minFollowers": -1 }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "minFollowers must be a whole number",
        ),
        (
            M::PATCH,
            "/api/admin/subscriptions/criteria".into(),
            json!({ "minPosts": 2.5 }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "minPosts must be a whole number",
        ),
        (
            M::PATCH,
            "/api/admin/subscriptions/criteria".into(),
            json!({ "minEngagementRate": "high" }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "minEngagementRate must be a number",
        ),
        (
            M::PATCH,
            "/api/admin/subscriptions/criteria".into(),
            json!({ "minAccountAgeDays": null }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "minAccountAgeDays must be a whole number",
        ),
        (
            M::PATCH,
            "/api/admin/subscriptions/criteria".into(),
            json!({ "minFollower": 5 }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "Unknown field 'minFollower'",
        ),
        (
            M::GET,
            "/api/admin/subscriptions/eligibility/undefined".into(),
            String::new(),
            Admin,
            S::BAD_REQUEST,
            "Invalid user ID",
        ),
        (
            M::PATCH,
            "/api/admin/subscriptions/plan/status".into(),
            json!({ "planId": p, "status": "paused" }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "status must be active or inactive",
        ),
        (
            M::PATCH,
            "/api/admin/subscriptions/plan/status".into(),
            json!({ "status": "active" }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "Missing plan ID",
        ),
        (
            M::POST,
            "/api/admin/subscriptions/grant".into(),
            json!({ "userId": reader.id, "grant": "1" }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "grant must be true or false",
        ),
        (
            M::PATCH,
            format!("/api/admin/subscriptions/user-override/{}", reader.id),
            json!({}).to_string(),
            Admin,
            S::BAD_REQUEST,
            "Send isEligibleForSubscription",
        ),
        (
            M::PATCH,
            format!("/api/admin/subscriptions/user-override/{}", reader.id),
            json!({ "isEligibleForSubscription": "true" }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "must be true or false",
        ),
        (
            M::PATCH,
            format!("/api/admin/subscriptions/user-milestone/{}", reader.id),
            json!({}).to_string(),
            Admin,
            S::BAD_REQUEST,
            "Send at least one",
        ),
        (
            M::PATCH,
            format!("/api/admin/subscriptions/user-milestone/{}", reader.id),
            json!({ "followerCount": -5 }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "followerCount must be a whole number",
        ),
        (
            M::PATCH,
            format!("/api/admin/subscriptions/user-milestone/{}", reader.id),
            json!({ "postCount": 1.5 }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "postCount must be a whole number",
        ),
        (
            M::PATCH,
            format!("/api/admin/subscriptions/user-milestone/{}", reader.id),
            json!({ "engagementRate": "lots" }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "engagementRate must be a number",
        ),
        (
            M::PATCH,
            format!("/api/admin/subscriptions/user-milestone/{}", reader.id),
            json!({ "accountAgeDays": "old" }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "accountAgeDays must be a whole number",
        ),
        (
            M::PATCH,
            "/api/admin/subscriptions/user-milestone-reset/nope".into(),
            String::new(),
            Admin,
            S::BAD_REQUEST,
            "Invalid user ID",
        ),
        (
            M::GET,
            "/api/admin/subscriptions/plans?page=0".into(),
            String::new(),
            Admin,
            S::BAD_REQUEST,
            "page must be a positive whole number",
        ),
        (
            M::GET,
            "/api/admin/subscriptions/plans?status=gone".into(),
            String::new(),
            Admin,
            S::BAD_REQUEST,
            "status must be active or inactive",
        ),
        (
            M::GET,
            "/api/earning/admin/earnings?limit=-1".into(),
            String::new(),
            Admin,
            S::BAD_REQUEST,
            "limit must be a positive whole number",
        ),
        (
            M::POST,
            "/api/earning/admin/payouts".into(),
            json!({}).to_string(),
            Admin,
            S::BAD_REQUEST,
            "users must list",
        ),
        (
            M::POST,
            "/api/earning/admin/payouts".into(),
            json!({ "users": [] }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "users must list",
        ),
        (
            M::POST,
            "/api/earning/admin/payouts".into(),
            json!({ "users": ["someone"] }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "Invalid user ID in users",
        ),
        (
            M::POST,
            "/api/earning/admin/payouts".into(),
            json!({ "users": vec![a.clone(); 101] }).to_string(),
            Admin,
            S::BAD_REQUEST,
            "At most 100",
        ),
        // Bank details.
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "-accountHolderName", Value::Null),
            Reader,
            S::BAD_REQUEST,
            "accountHolderName is required",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "accountHolderName", json!("null")),
            Reader,
            S::BAD_REQUEST,
            "accountHolderName is required",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "accountHolderName", json!("A")),
            Reader,
            S::BAD_REQUEST,
            "accountHolderName must be 2 to 100 letters",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "accountHolderName", json!("<script>")),
            Reader,
            S::BAD_REQUEST,
            "accountHolderName must be 2 to 100 letters",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "-accountNumber", Value::Null),
            Reader,
            S::BAD_REQUEST,
            "accountNumber is required",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "accountNumber", json!(123456789)),
            Reader,
            S::BAD_REQUEST,
            "accountNumber must be a string of digits",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "accountNumber", json!("12ab5678")),
            Reader,
            S::BAD_REQUEST,
            "accountNumber must be 4 to 20 digits",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "-bankCode", Value::Null),
            Reader,
            S::BAD_REQUEST,
            "bankCode is required",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "bankCode", json!("XYZ")),
            Reader,
            S::BAD_REQUEST,
            "bankCode must be an IFSC code",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "bankCode", json!("123456789")),
            Reader,
            S::BAD_REQUEST,
            "bankCode must be an IFSC code",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "ifscCode", json!("HDFC0001234")),
            Reader,
            S::BAD_REQUEST,
            "Send one of bankCode, ifscCode or routingNumber",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "bankName", json!("")),
            Reader,
            S::BAD_REQUEST,
            "bankName is required",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "-contactData", Value::Null),
            Reader,
            S::BAD_REQUEST,
            "contactData is required",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "contactData", json!("ada")),
            Reader,
            S::BAD_REQUEST,
            "contactData must be an object",
        ),
        (
            M::POST,
            bank_path.clone(),
            contact("email", json!("not-an-email")),
            Reader,
            S::BAD_REQUEST,
            "contactData.email must be an email address",
        ),
        (
            M::POST,
            bank_path.clone(),
            contact("contact", json!("12")),
            Reader,
            S::BAD_REQUEST,
            "contactData.contact must be a phone number",
        ),
        (
            M::POST,
            bank_path.clone(),
            contact("name", json!(null)),
            Reader,
            S::BAD_REQUEST,
            "contactData.name is required",
        ),
        (
            M::POST,
            bank_path.clone(),
            contact("fax", json!("1")),
            Reader,
            S::BAD_REQUEST,
            "Unknown field 'contactData.fax'",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "userId", json!("me")),
            Reader,
            S::BAD_REQUEST,
            "Invalid user ID",
        ),
        (
            M::POST,
            bank_path.clone(),
            with(&bank, "iban", json!("DE00")),
            Reader,
            S::BAD_REQUEST,
            "Unknown field 'iban'",
        ),
        (
            M::PATCH,
            format!("{bank_path}/null"),
            json!({ "bankName": "X Bank" }).to_string(),
            Author,
            S::BAD_REQUEST,
            "Invalid payment ID for update",
        ),
        (
            M::PATCH,
            format!("{bank_path}/undefined"),
            json!({ "bankName": "X Bank" }).to_string(),
            Author,
            S::BAD_REQUEST,
            "Invalid payment ID for update",
        ),
        (
            M::PATCH,
            format!("{bank_path}/acct_missing"),
            json!({ "bankName": "X Bank" }).to_string(),
            Author,
            S::NOT_FOUND,
            "Bank details not found",
        ),
        (
            M::PATCH,
            format!("{bank_path}/{pay_id}"),
            "{}".into(),
            Author,
            S::BAD_REQUEST,
            "Nothing to change",
        ),
        (
            M::PATCH,
            format!("{bank_path}/{pay_id}"),
            json!({ "accountNumber": "1" }).to_string(),
            Author,
            S::BAD_REQUEST,
            "accountNumber must be 4 to 20 digits",
        ),
        (
            M::PATCH,
            format!("{bank_path}/{pay_id}"),
            json!({ "userId": reader.id }).to_string(),
            Author,
            S::BAD_REQUEST,
            "cannot be moved",
        ),
        (
            M::GET,
            bank_path.clone(),
            String::new(),
            Author,
            S::BAD_REQUEST,
            "Invalid user ID",
        ),
        (
            M::GET,
            format!("{bank_path}?userId=null"),
            String::new(),
            Author,
            S::BAD_REQUEST,
            "Invalid user ID",
        ),
        (
            M::GET,
            format!("{bank_path}?userId=xyz"),
            String::new(),
            Author,
            S::BAD_REQUEST,
            "Invalid user ID",
        ),
        (
            M::DELETE,
            format!("{bank_path}/null"),
            String::new(),
            Author,
            S::BAD_REQUEST,
            "Invalid payment ID for deletion",
        ),
        (
            M::DELETE,
            format!("{bank_path}/a%2Fb"),
            String::new(),
            Author,
            S::BAD_REQUEST,
            "Invalid payment ID for deletion",
        ),
    ];
    for (method, path, body, who, status, words) in cases {
        let token = match who {
            Author => &author.token,
            Reader => &reader.token,
            Admin => &admin.token,
        };
        let mut req = app
            .client
            .request(method.clone(), app.url(&path))
            .bearer_auth(token);
        if !body.is_empty() {
            req = req
                .header("content-type", "application/json")
                .body(body.clone());
        }
        let res = req.send().await.unwrap();
        let got = res.status();
        let text = res.text().await.unwrap_or_default();
        assert_eq!(got, status, "{method} {path} {body}: {text}");
        let err: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        let message = err["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(words),
            "{method} {path} {body}: '{message}' lacks '{words}'"
        );
        assert!(err["code"].is_string(), "{method} {path}: {text}");
    }
    assert_eq!(app.count_in("plans", doc! {}).await, 1, "no plan was made");
    assert_eq!(
        app.count_in("subscriptions", doc! {}).await,
        0,
        "no subscription was made"
    );
    assert_eq!(
        app.count_in("bank_details", doc! {}).await,
        1,
        "no bank details were stored"
    );
    assert_eq!(app.count_in("payouts", doc! {}).await, 0);
    let stored = app.find_doc("plans", doc! {}).await;
    assert_eq!(
        stored.get_i64("price").unwrap(),
        1000,
        "the plan is unchanged"
    );
}

#[actix_web::test]
async fn an_account_number_is_stored_sealed_and_shown_by_its_last_four_digits_only() {
    let app = spawn_app().await;
    app.money_ready().await;
    let user = app.signup().await;
    let res = app
        .post_json("/api/payment/bank-details", &bank_body(), Some(&user.token))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let stored = app.find_doc("bank_details", doc! {}).await;
    let sealed = stored.get_str("accountNumberEncrypted").unwrap();
    assert!(
        sealed.starts_with("v1:") && !sealed.contains("123456789"),
        "{sealed}"
    );
    assert!(!format!("{stored:?}").contains("000123456789"));
    let opened = app.state.bank_cipher.open(sealed).unwrap();
    assert_eq!(opened, "000123456789");
    // Read, updated and read again: never more than the last four digits.
    let res = app
        .get(
            &format!("/api/payment/bank-details?userId={}", user.id),
            Some(&user.token),
        )
        .await;
    let body = json_of(res).await;
    assert_eq!(body["message"], "Bank details fetched successfully");
    assert_eq!(body["bankDetails"]["maskedAccountNumber"], "****6789");
    let pay_id = body["bankDetails"]["paymentId"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .patch_json(
            &format!("/api/payment/bank-details/{pay_id}"),
            &json!({ "accountNumber": "9876 5432 1012", "ifscCode": "hdfc0001234" }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let text = res.text().await.unwrap();
    assert!(text.contains("Bank details updated successfully"), "{text}");
    assert!(
        text.contains("\"accountLast4\":\"1012\"") && text.contains("\"country\":\"IN\""),
        "{text}"
    );
    assert!(!text.contains("98765"), "{text}");
    let res = app
        .delete(
            &format!("/api/payment/bank-details/{pay_id}"),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        json_of(res).await["message"],
        "Bank details deleted successfully"
    );
    let res = app
        .get(
            &format!("/api/payment/bank-details?userId={}", user.id),
            Some(&user.token),
        )
        .await;
    assert_eq!(json_of(res).await["bankDetails"], Value::Null);
}
