//! Tips: a reader pays a writer once for one post. One charge however the request is repeated
//! (a double click, a retry, two tabs, twenty at once); every refusal before money moves; the
//! writer credited, told and paid out; refunds once; the supporters list and its moderation;
//! Stripe through stripe-mock with webhook events signed by the official Stripe SDK.

use futures_util::future::join_all;
use futures_util::TryStreamExt;
use mongodb::bson::doc;
use pressroom::config::Settings;
use reqwest::{Response, StatusCode};
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::money::*;
use crate::support::*;

const MSG_THANKS: &str = "Thank you for your tip";

/// `POST /api/tips` with an optional `Idempotency-Key`.
async fn tip(app: &TestApp, who: &TestUser, key: Option<&str>, body: &Value) -> Response {
    let mut req = app
        .client
        .post(app.url("/api/tips"))
        .bearer_auth(&who.token)
        .json(body);
    if let Some(k) = key {
        req = req.header("Idempotency-Key", k);
    }
    req.send().await.unwrap()
}

fn body(post: &str, amount: i64) -> Value {
    json!({ "postId": post, "amount": amount, "currency": "usd",
            "message": "Thanks!", "public": true })
}

/// An eligible writer with one published post, and a reader.
async fn setup(app: &TestApp) -> (TestUser, TestUser, String) {
    app.money_ready().await;
    app.wait_for_index("tips", "request_key_unique").await;
    let writer = app.eligible_author().await;
    let reader = app.signup().await;
    let post = publish(app, &writer, "Why we write", "Because.").await;
    (writer, reader, post["_id"].as_str().unwrap().to_string())
}

/// The writer's stored notifications of type `tip`.
async fn tip_notices(app: &TestApp, writer: &TestUser) -> Vec<Value> {
    let told = get_ok(app, "/api/notification/notifications", Some(&writer.token)).await;
    told["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == "tip")
        .cloned()
        .collect()
}

async fn charges(app: &TestApp) -> u64 {
    app.count_in("local_payments", doc! { "kind": "charge" })
        .await
}

#[actix_web::test]
async fn a_reader_tips_once_and_the_writer_is_credited_told_and_paid_out() {
    let app = spawn_app().await;
    let (writer, reader, post) = setup(&app).await;
    let name = json_of(app.get("/api/auth/check", Some(&reader.token)).await).await["name"]
        .as_str()
        .unwrap()
        .to_string();

    // What the support card shows: a guest is asked to sign in; the writer cannot tip themself.
    let guest = get_ok(&app, &format!("/api/tips/options/{post}"), None).await;
    assert_eq!(guest["enabled"], false);
    assert_eq!(guest["reason"], "Sign in to support this post");
    let own = get_ok(
        &app,
        &format!("/api/tips/options/{post}"),
        Some(&writer.token),
    )
    .await;
    assert_eq!(own["enabled"], false);
    assert_eq!(own["reason"], "You cannot tip your own post");
    let options = get_ok(
        &app,
        &format!("/api/tips/options/{post}"),
        Some(&reader.token),
    )
    .await;
    assert_eq!(options["enabled"], true, "{options}");
    assert_eq!(options["currency"], "usd");
    assert_eq!(options["suggestedAmounts"], json!([300, 500, 1000]));
    assert_eq!(options["minimum"], 50);
    assert_eq!(options["maximum"], 50_000);
    assert_eq!(options["platformFeePercent"], 10.0);
    assert_eq!(options["mode"], "test");

    let res = tip(&app, &reader, Some("key-1"), &body(&post, 1500)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let made = json_of(res).await;
    assert_eq!(made["message"], MSG_THANKS);
    let t = &made["tip"];
    let tip_id = t["id"].as_str().unwrap().to_string();
    assert_eq!(t["status"], "succeeded");
    assert_eq!(t["amount"], 1500);
    assert_eq!(t["currency"], "usd");
    assert_eq!(t["fee"], 150);
    assert_eq!(t["net"], 1350);
    assert_eq!(t["post"]["title"], "Why we write");
    assert_eq!(t["from"]["name"], name.as_str());
    assert_eq!(made["payment"]["clientSecret"], Value::Null);

    // A retry with the key, another tab without it, a double click: the same tip, no charge.
    for key in [Some("key-1"), None, Some("key-2")] {
        let res = tip(&app, &reader, key, &body(&post, 1500)).await;
        assert_eq!(res.status(), StatusCode::OK, "{key:?}");
        assert_eq!(json_of(res).await["tip"]["id"], tip_id.as_str());
    }
    // Another amount a moment later is refused; the key used for another post is refused.
    let res = tip(&app, &reader, None, &body(&post, 700)).await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "You tipped this post a moment ago; wait a minute before tipping it again"
    );
    let other = publish(&app, &writer, "Second", "Text").await;
    let other = other["_id"].as_str().unwrap();
    let res = tip(&app, &reader, Some("key-1"), &body(other, 1500)).await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "This Idempotency-Key was already used for a different tip; use a new key for a new tip"
    );
    assert_eq!(charges(&app).await, 1);
    assert_eq!(app.count_in("tips", doc! {}).await, 1);
    let charge = app
        .find_doc("local_payments", doc! { "kind": "charge" })
        .await;
    assert_eq!(charge.get_str("_id").unwrap(), format!("tip:{tip_id}"));

    // Credited once, with the post it came for.
    let entries = app
        .count_in(
            "ledger",
            doc! { "authorId": oid(&writer.id), "tipId": oid(&tip_id) },
        )
        .await;
    assert_eq!(entries, 1);
    let earnings = get_ok(&app, "/api/earning/my-earnings", Some(&writer.token)).await;
    let row = &earnings["entries"][0];
    assert_eq!(row["source"], "tip", "{earnings}");
    assert_eq!(row["postTitle"], "Why we write");
    assert_eq!(row["tipId"], tip_id.as_str());
    assert_eq!(row["amount"], 1350);
    assert_eq!(earnings["earnings"][0]["availableBalance"], 1350);

    // Told once: "Ana tipped $15 on 'Post title': 'Thanks!'".
    let notes = tip_notices(&app, &writer).await;
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(
        notes[0]["content"],
        format!("{name} tipped $15 on 'Why we write': 'Thanks!'")
    );

    // The lists: the writer's with the post, the reader's, the public supporters.
    let received = get_ok(&app, "/api/tips/received", Some(&writer.token)).await;
    assert_eq!(received["total"], 1);
    assert_eq!(received["tips"][0]["post"]["title"], "Why we write");
    assert_eq!(received["tips"][0]["from"]["name"], name.as_str());
    let sent = get_ok(&app, "/api/tips/sent", Some(&reader.token)).await;
    assert_eq!(sent["tips"][0]["id"], tip_id.as_str());
    assert_eq!(
        get_ok(&app, "/api/tips/sent", Some(&writer.token)).await["total"],
        0
    );
    let supporters = get_ok(&app, &format!("/api/post/{post}/supporters"), None).await;
    assert_eq!(supporters["total"], 1);
    assert_eq!(supporters["supporters"][0]["user"]["name"], name.as_str());
    assert_eq!(supporters["supporters"][0]["message"], "Thanks!");
    assert!(supporters["supporters"][0].get("amount").is_none());

    // Paid out with the rest of the balance.
    let res = app
        .post_json(
            "/api/payment/bank-details",
            &bank_body(),
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let admin = app.admin().await;
    let res = app
        .post_json(
            "/api/earning/admin/payouts",
            &json!({ "users": [writer.id] }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let paid = json_of(res).await;
    assert_eq!(paid["results"][0]["status"], "paid", "{paid}");
    assert_eq!(paid["results"][0]["amount"], 1350);
}

#[actix_web::test]
async fn the_writer_hides_a_message_and_blocks_keep_people_off_the_list() {
    let app = spawn_app().await;
    let (writer, reader, post) = setup(&app).await;
    let quiet = app.signup().await;
    let res = tip(&app, &reader, None, &body(&post, 300)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let id = json_of(res).await["tip"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // A reader who did not choose to be listed is not.
    let mut private = body(&post, 300);
    private["public"] = json!(false);
    assert_eq!(
        tip(&app, &quiet, None, &private).await.status(),
        StatusCode::CREATED
    );
    let list = get_ok(&app, &format!("/api/post/{post}/supporters"), None).await;
    assert_eq!(list["total"], 1);

    // Only the writer (or an administrator) hides a message.
    let path = format!("/api/tips/{id}");
    let hide = json!({ "hidden": true });
    let res = app.patch_json(&path, &hide, Some(&reader.token)).await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app.patch_json(&path, &hide, Some(&quiet.token)).await;
    assert_error(res, StatusCode::NOT_FOUND).await;
    let res = app.patch_json(&path, &hide, None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    let res = app.patch_json(&path, &hide, Some(&writer.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["tip"]["hidden"], true);
    let list = get_ok(&app, &format!("/api/post/{post}/supporters"), None).await;
    assert_eq!(list["supporters"][0]["message"], Value::Null);
    let res = app
        .patch_json(&path, &json!({ "hidden": "yes" }), Some(&writer.token))
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;

    // Once the writer blocks the reader, the reader leaves the list, and cannot tip again.
    app.block_directly(&writer, &reader).await;
    let list = get_ok(&app, &format!("/api/post/{post}/supporters"), None).await;
    assert_eq!(list["total"], 0, "{list}");
    let other = publish(&app, &writer, "Another", "Text").await;
    let res = tip(
        &app,
        &reader,
        None,
        &body(other["_id"].as_str().unwrap(), 300),
    )
    .await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "You cannot tip this writer"
    );
}

#[actix_web::test]
async fn every_refusal_comes_before_any_money_moves() {
    let app = spawn_app().await;
    let (writer, reader, post) = setup(&app).await;
    let too_long = "x".repeat(281);
    let cases: Vec<(Value, StatusCode, &str)> = vec![
        (json!({ "amount": 500, "currency": "usd" }), StatusCode::BAD_REQUEST, "postId is required"),
        (json!({ "postId": "nope", "amount": 500, "currency": "usd" }), StatusCode::BAD_REQUEST, "Invalid postId"),
        (json!({ "postId": post, "currency": "usd" }), StatusCode::BAD_REQUEST, "amount is required"),
        (json!({ "postId": post, "amount": 500 }), StatusCode::BAD_REQUEST, "currency is required"),
        (json!({ "postId": post, "amount": 49, "currency": "usd" }), StatusCode::BAD_REQUEST, "The smallest tip is $0.50"),
        (json!({ "postId": post, "amount": 50_001, "currency": "usd" }), StatusCode::BAD_REQUEST, "The largest tip is $500"),
        (json!({ "postId": post, "amount": 5.5, "currency": "usd" }), StatusCode::BAD_REQUEST, "amount must be a whole number of the currency's smallest unit (for example 500 for 5.00)"),
        (json!({ "postId": post, "amount": "500", "currency": "usd" }), StatusCode::BAD_REQUEST, "amount must be a whole number of the currency's smallest unit (for example 500 for 5.00)"),
        (json!({ "postId": post, "amount": 500, "currency": "eur" }), StatusCode::BAD_REQUEST, "This writer accepts tips in USD"),
        (json!({ "postId": post, "amount": 500, "currency": 5 }), StatusCode::BAD_REQUEST, "currency must be a string"),
        (json!({ "postId": post, "amount": 500, "currency": "usd", "message": too_long }), StatusCode::BAD_REQUEST, "message must be at most 280 characters"),
        (json!({ "postId": post, "amount": 500, "currency": "usd", "public": "yes" }), StatusCode::BAD_REQUEST, "public must be true or false"),
        (json!({ "postId": post, "amount": 500, "currency": "usd", "paymentMethodId": "card" }), StatusCode::BAD_REQUEST, "paymentMethodId must be a payment method id (pm_...)"),
        (json!({ "postId": post, "amount": 500, "currency": "usd", "tip": 1 }), StatusCode::BAD_REQUEST, ""),
        (json!({ "postId": mongodb::bson::oid::ObjectId::new().to_hex(), "amount": 500, "currency": "usd" }), StatusCode::NOT_FOUND, "Post not found"),
    ];
    for (sent, status, message) in cases {
        let res = tip(&app, &reader, None, &sent).await;
        let got = assert_error(res, status).await;
        if !message.is_empty() {
            assert_eq!(got, message, "{sent}");
        }
    }
    let res = tip(&app, &reader, Some(""), &body(&post, 500)).await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = tip(&app, &writer, None, &body(&post, 500)).await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "You cannot tip your own post"
    );
    let res = app.post_json("/api/tips", &body(&post, 500), None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;

    // Posts that cannot be tipped: a draft, a private post, a blocked one, a deleted one.
    for (set, status, message) in [
        (
            doc! { "status": "draft", "isPublished": false },
            StatusCode::NOT_FOUND,
            "Post not found",
        ),
        (
            doc! { "visibility": "Private" },
            StatusCode::NOT_FOUND,
            "Post not found",
        ),
    ] {
        let p = publish(&app, &writer, "Closed", "Text").await;
        let id = p["_id"].as_str().unwrap();
        set_fields(&app, id, set).await;
        let res = tip(&app, &reader, None, &body(id, 500)).await;
        assert_eq!(assert_error(res, status).await, message);
    }
    let blocked = publish(&app, &writer, "Blocked", "Text").await;
    let blocked = blocked["_id"].as_str().unwrap();
    set_blocked(&app, blocked, true).await;
    let res = tip(&app, &reader, None, &body(blocked, 500)).await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "This post has been blocked and cannot be tipped"
    );
    let gone = publish(&app, &writer, "Gone", "Text").await;
    let gone = gone["_id"].as_str().unwrap();
    let res = app
        .delete(&format!("/api/post/delete/{gone}"), Some(&writer.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = tip(&app, &reader, None, &body(gone, 500)).await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Post not found"
    );

    // A writer who is not eligible does not take tips.
    let newcomer = app.signup().await;
    let theirs = publish(&app, &newcomer, "Fresh", "Text").await;
    let theirs = theirs["_id"].as_str().unwrap();
    let res = tip(&app, &reader, None, &body(theirs, 500)).await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "This writer does not accept tips yet"
    );
    let options = get_ok(
        &app,
        &format!("/api/tips/options/{theirs}"),
        Some(&reader.token),
    )
    .await;
    assert_eq!(options["enabled"], false);
    assert_eq!(options["reason"], "This writer does not accept tips yet");

    // Nothing was charged or recorded.
    assert_eq!(charges(&app).await, 0);
    assert_eq!(app.count_in("tips", doc! {}).await, 0);
    assert_eq!(app.count_in("ledger", doc! {}).await, 0);
}

#[actix_web::test]
async fn a_declined_tip_charges_nothing_and_the_reader_may_try_another_card() {
    let app = spawn_app().await;
    let (writer, reader, post) = setup(&app).await;
    let mut declined = body(&post, 500);
    declined["paymentMethodId"] = json!("pm_card_chargeDeclined");
    let res = tip(&app, &reader, Some("first"), &declined).await;
    assert_eq!(
        assert_error(res, StatusCode::PAYMENT_REQUIRED).await,
        "Your card was declined."
    );
    // The same request again answers the same refusal (no second attempt).
    let res = tip(&app, &reader, Some("first"), &declined).await;
    assert_error(res, StatusCode::PAYMENT_REQUIRED).await;
    assert_eq!(app.count_in("ledger", doc! {}).await, 0);
    let sent = get_ok(&app, "/api/tips/sent", Some(&reader.token)).await;
    assert_eq!(sent["tips"][0]["status"], "failed");
    assert_eq!(
        get_ok(&app, "/api/tips/received", Some(&writer.token)).await["total"],
        0
    );
    // Another card at once.
    let res = tip(&app, &reader, Some("second"), &body(&post, 500)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(app.count_in("ledger", doc! {}).await, 1);
}

#[actix_web::test]
async fn twenty_simultaneous_tips_with_one_key_make_one_charge_and_one_entry() {
    let app = spawn_app().await;
    let (writer, reader, post) = setup(&app).await;
    let b = body(&post, 1000);
    let answers = join_all((0..20).map(|_| tip(&app, &reader, Some("same-key"), &b))).await;
    let mut ids = Vec::new();
    let mut created = 0;
    for res in answers {
        let status = res.status();
        let body = json_of(res).await;
        match status {
            StatusCode::CREATED => created += 1,
            StatusCode::OK => {}
            other => panic!("{other}: {body}"),
        }
        ids.push(body["tip"]["id"].as_str().unwrap().to_string());
    }
    assert_eq!(created, 1);
    ids.dedup();
    assert_eq!(ids.len(), 1, "{ids:?}");
    assert_eq!(charges(&app).await, 1);
    assert_eq!(app.count_in("tips", doc! {}).await, 1);
    assert_eq!(
        app.count_in("ledger", doc! { "authorId": oid(&writer.id) })
            .await,
        1
    );
    assert_eq!(tip_notices(&app, &writer).await.len(), 1);
}

#[actix_web::test]
async fn a_tip_is_refunded_once_by_its_reader_and_the_credit_reversed() {
    let app = spawn_app().await;
    let (writer, reader, post) = setup(&app).await;
    let res = tip(&app, &reader, None, &body(&post, 2000)).await;
    let id = json_of(res).await["tip"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/api/tips/{id}/refund");
    let reason = json!({ "reason": "Sent by mistake" });
    // Not the writer's to refund; a reason is required.
    let res = app.post_json(&path, &reason, Some(&writer.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "Only the reader who tipped or an administrator can do this"
    );
    let res = app
        .post_json(&path, &json!({ "reason": " " }), Some(&reader.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "A reason for the refund is required"
    );
    // Ten at once: one refund.
    let answers =
        join_all((0..10).map(|_| app.post_json(&path, &reason, Some(&reader.token)))).await;
    let mut ok = 0;
    for res in answers {
        match res.status() {
            StatusCode::OK => {
                ok += 1;
                let body = json_of(res).await;
                assert_eq!(body["message"], "Tip refunded");
                assert_eq!(body["tip"]["status"], "refunded");
                assert_eq!(body["refund"]["amount"], 2000);
            }
            StatusCode::CONFLICT => {}
            other => panic!("{other}"),
        }
    }
    assert_eq!(ok, 1);
    assert_eq!(
        app.count_in("local_payments", doc! { "kind": "refund" })
            .await,
        1
    );
    let res = app.post_json(&path, &reason, Some(&reader.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "This tip has already been refunded"
    );
    let earnings = get_ok(&app, "/api/earning/my-earnings", Some(&writer.token)).await;
    assert_eq!(earnings["earnings"][0]["availableBalance"], 0, "{earnings}");
    assert_eq!(earnings["earnings"][0]["refunds"], 2000);
    assert_eq!(earnings["entries"][0]["kind"], "refund");
    assert_eq!(earnings["entries"][0]["source"], "tip");
    // Off the supporters list.
    let list = get_ok(&app, &format!("/api/post/{post}/supporters"), None).await;
    assert_eq!(list["total"], 0);

    // The refund policy counts it: a second refund from this writer within the period is refused,
    // a tip's and a subscription's alike.
    let second = publish(&app, &writer, "Second", "Text").await;
    let res = tip(
        &app,
        &reader,
        None,
        &body(second["_id"].as_str().unwrap(), 500),
    )
    .await;
    let second = json_of(res).await["tip"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .post_json(
            &format!("/api/tips/{second}/refund"),
            &reason,
            Some(&reader.token),
        )
        .await;
    assert!(assert_error(res, StatusCode::CONFLICT)
        .await
        .contains("refunds are limited to one per writer every 90 days"));
    let plan = app.create_plan(&writer, 900).await;
    let sub = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let res = app
        .patch_json(
            &format!("/api/subscription/subscriptions/{sub}/refund"),
            &reason,
            Some(&reader.token),
        )
        .await;
    assert!(assert_error(res, StatusCode::CONFLICT)
        .await
        .contains("You were refunded a tip to this author"));
}

#[actix_web::test]
async fn the_refund_window_binds_readers_and_not_administrators() {
    let app = spawn_app().await;
    let (writer, reader, post) = setup(&app).await;
    let res = tip(&app, &reader, None, &body(&post, 800)).await;
    let id = json_of(res).await["tip"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let eight_days_ago = mongodb::bson::DateTime::from_millis(
        chrono::Utc::now().timestamp_millis() - 8 * 86_400_000,
    );
    app.collection("tips")
        .update_one(
            doc! { "_id": oid(&id) },
            doc! { "$set": { "createdAt": eight_days_ago } },
        )
        .await
        .unwrap();
    let path = format!("/api/tips/{id}/refund");
    let reason = json!({ "reason": "Changed my mind" });
    let res = app.post_json(&path, &reason, Some(&reader.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "The refund window has closed: a payment can be refunded within 7 days"
    );
    // A step-up is needed, as for every refund.
    app.age_session(&reader.token, 60).await;
    let admin = app.admin().await;
    app.age_session(&admin.token, 60).await;
    let res = app.post_json(&path, &reason, Some(&admin.token)).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    app.reauth(&admin).await;
    let res = app.post_json(&path, &reason, Some(&admin.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let audit = app
        .count_in("audit_log", doc! { "action": "tip.refund" })
        .await;
    assert_eq!(audit, 1);
    let told = get_ok(&app, "/api/notification/notifications", Some(&writer.token)).await;
    assert!(told["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["content"].as_str().unwrap_or("").contains("was refunded")));
}

#[actix_web::test]
async fn a_reader_cannot_tip_more_than_the_limit_a_minute() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut Settings| {
            s.rate_limit.tips_per_reader = 2;
        })),
        ..AppOptions::default()
    })
    .await;
    let (writer, reader, post) = setup(&app).await;
    let mut posts = vec![post];
    for n in 0..2 {
        let p = publish(&app, &writer, &format!("More {n}"), "Text").await;
        posts.push(p["_id"].as_str().unwrap().to_string());
    }
    for p in &posts[..2] {
        assert_eq!(
            tip(&app, &reader, None, &body(p, 100)).await.status(),
            StatusCode::CREATED
        );
    }
    let res = tip(&app, &reader, None, &body(&posts[2], 100)).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().contains_key("retry-after"));
    assert_eq!(app.count_in("tips", doc! {}).await, 2);
    // A repeated request is not a new tip and is not refused by the limit.
    assert_eq!(
        tip(&app, &reader, None, &body(&posts[0], 100))
            .await
            .status(),
        StatusCode::OK
    );
}

#[actix_web::test]
async fn writers_choose_their_currency_and_suggested_amounts() {
    let app = spawn_app().await;
    let (writer, reader, post) = setup(&app).await;
    let res = app
        .put_json(
            "/api/tips/settings",
            &json!({ "currency": "GBP", "suggestedAmounts": [1000, 200, 500, 200] }),
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let saved = json_of(res).await;
    assert_eq!(saved["settings"]["currency"], "gbp");
    assert_eq!(
        saved["settings"]["suggestedAmounts"],
        json!([200, 500, 1000])
    );
    for (bad, message) in [
        (
            json!({ "currency": "xyz", "suggestedAmounts": [500] }),
            "currency must be one of usd, eur, gbp, inr",
        ),
        (
            json!({ "currency": "gbp", "suggestedAmounts": [] }),
            "suggestedAmounts must hold 1 to 5 different amounts",
        ),
        (
            json!({ "currency": "gbp", "suggestedAmounts": [1, 2, 3, 4, 5, 6] }),
            "suggestedAmounts must hold 1 to 5 different amounts",
        ),
        (
            json!({ "currency": "gbp", "suggestedAmounts": [10] }),
            "Each suggested amount must be from £0.30 to £500",
        ),
    ] {
        let res = app
            .put_json("/api/tips/settings", &bad, Some(&writer.token))
            .await;
        assert_eq!(assert_error(res, StatusCode::BAD_REQUEST).await, message);
    }
    let res = app
        .put_json(
            "/api/tips/settings",
            &json!({ "currency": "gbp" }),
            Some(&writer.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let options = get_ok(
        &app,
        &format!("/api/tips/options/{post}"),
        Some(&reader.token),
    )
    .await;
    assert_eq!(options["currency"], "gbp");
    assert_eq!(options["minimum"], 30);
    assert_eq!(
        get_ok(&app, "/api/tips/settings", Some(&writer.token)).await["settings"]["currency"],
        "gbp"
    );
    // Tips follow the writer's currency.
    let res = tip(&app, &reader, None, &body(&post, 500)).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "This writer accepts tips in GBP"
    );
    let mut pounds = body(&post, 30);
    pounds["currency"] = json!("gbp");
    assert_eq!(
        tip(&app, &reader, None, &pounds).await.status(),
        StatusCode::CREATED
    );
}

/// The `Stripe-Signature` header the official Stripe SDK's test helper makes (Node `stripe`,
/// installed in tests/api/stripe-sign by scripts/test).
fn sdk_signature(payload: &[u8], secret: &str, timestamp: i64) -> String {
    use std::io::Write;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/api/stripe-sign/sign.js");
    let mut child = std::process::Command::new("node")
        .arg(script)
        .arg(secret)
        .arg(timestamp.to_string())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("node runs tests/api/stripe-sign/sign.js (npm ci there first)");
    child.stdin.take().unwrap().write_all(payload).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "sign.js failed");
    String::from_utf8(out.stdout).unwrap()
}

async fn deliver(app: &TestApp, event: &Value, secret: &str) -> Response {
    let payload = serde_json::to_vec(event).unwrap();
    let header = sdk_signature(&payload, secret, chrono::Utc::now().timestamp());
    app.client
        .post(app.url("/api/payment/webhook"))
        .header("content-type", "application/json")
        .header("stripe-signature", header)
        .body(payload)
        .send()
        .await
        .unwrap()
}

fn intent_event(id: &str, kind: &str, intent: &str, tip: &str) -> Value {
    json!({
        "id": id, "object": "event", "type": kind,
        "data": { "object": { "id": intent, "object": "payment_intent",
            "status": if kind == "payment_intent.succeeded" { "succeeded" } else { "requires_payment_method" },
            "payment_method": "pm_card_visa", "metadata": { "tipId": tip },
            "last_payment_error": { "message": "Your card was declined." } } },
    })
}

#[actix_web::test]
async fn through_stripe_a_tip_waits_for_its_signed_webhook_and_is_credited_once() {
    let app = spawn_stripe_app().await;
    let (writer, reader, post) = setup(&app).await;
    // No saved card: the reader confirms in the browser.
    let res = tip(&app, &reader, Some("stripe-1"), &body(&post, 500)).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let made = json_of(res).await;
    assert_eq!(made["tip"]["status"], "pending");
    assert!(made["payment"]["clientSecret"]
        .as_str()
        .unwrap()
        .contains("_secret_"));
    let id = made["tip"]["id"].as_str().unwrap().to_string();
    let stored = app.find_doc("tips", doc! { "_id": oid(&id) }).await;
    let intent = stored.get_str("providerPaymentId").unwrap().to_string();
    assert!(intent.starts_with("pi_"));
    // A reload of the checkout continues the same payment.
    let res = tip(&app, &reader, Some("stripe-1"), &body(&post, 500)).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    assert_eq!(json_of(res).await["tip"]["id"], id.as_str());
    assert_eq!(app.count_in("ledger", doc! {}).await, 0);

    // Tampered (another secret) or unsigned: 400 and nothing credited.
    let paid = intent_event("evt_tip_paid", "payment_intent.succeeded", &intent, &id);
    let res = deliver(&app, &paid, "whsec_forged").await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Webhook signature does not match"
    );
    let mut altered = paid.clone();
    let payload = serde_json::to_vec(&paid).unwrap();
    let header = sdk_signature(&payload, WEBHOOK_SECRET, chrono::Utc::now().timestamp());
    altered["data"]["object"]["metadata"]["tipId"] = json!("0123456789abcdef01234567");
    let res = app
        .client
        .post(app.url("/api/payment/webhook"))
        .header("content-type", "application/json")
        .header("stripe-signature", header)
        .body(serde_json::to_vec(&altered).unwrap())
        .send()
        .await
        .unwrap();
    assert_error(res, StatusCode::BAD_REQUEST).await;
    assert_eq!(app.count_in("ledger", doc! {}).await, 0);

    // Signed by the SDK: processed once, however often it arrives.
    for round in 0..3 {
        let res = deliver(&app, &paid, WEBHOOK_SECRET).await;
        assert_eq!(res.status(), StatusCode::OK, "round {round}");
    }
    let tip_now = app.find_doc("tips", doc! { "_id": oid(&id) }).await;
    assert_eq!(tip_now.get_str("status").unwrap(), "succeeded");
    assert_eq!(
        app.count_in("ledger", doc! { "authorId": oid(&writer.id) })
            .await,
        1
    );
    assert_eq!(tip_notices(&app, &writer).await.len(), 1);

    // Another tip whose payment fails: nothing credited, and the reader may try again.
    let second = publish(&app, &writer, "Second", "Text").await;
    let second = second["_id"].as_str().unwrap().to_string();
    let res = tip(&app, &reader, None, &body(&second, 700)).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let failing = json_of(res).await["tip"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let stored = app.find_doc("tips", doc! { "_id": oid(&failing) }).await;
    let failing_intent = stored.get_str("providerPaymentId").unwrap().to_string();
    let failed = intent_event(
        "evt_tip_failed",
        "payment_intent.payment_failed",
        &failing_intent,
        &failing,
    );
    assert_eq!(
        deliver(&app, &failed, WEBHOOK_SECRET).await.status(),
        StatusCode::OK
    );
    let stored = app.find_doc("tips", doc! { "_id": oid(&failing) }).await;
    assert_eq!(stored.get_str("status").unwrap(), "failed");
    assert_eq!(app.count_in("ledger", doc! {}).await, 1);

    // The paid tip refunded through Stripe, then the refund fails at the provider: the debit is
    // reversed once.
    let res = app
        .post_json(
            &format!("/api/tips/{id}/refund"),
            &json!({ "reason": "Wrong post" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let refunded = app.find_doc("tips", doc! { "_id": oid(&id) }).await;
    let refund_id = refunded.get_str("providerRefundId").unwrap().to_string();
    assert!(refund_id.starts_with("re_"));
    let refund_failed = json!({
        "id": "evt_tip_refund_failed", "object": "event", "type": "refund.failed",
        "data": { "object": { "id": refund_id, "object": "refund", "status": "failed",
                              "metadata": { "tipId": id } } },
    });
    for _ in 0..2 {
        assert_eq!(
            deliver(&app, &refund_failed, WEBHOOK_SECRET).await.status(),
            StatusCode::OK
        );
    }
    let kinds: Vec<String> = app
        .collection("ledger")
        .find(doc! { "authorId": oid(&writer.id) })
        .await
        .unwrap()
        .try_collect::<Vec<_>>()
        .await
        .unwrap()
        .iter()
        .map(|d| d.get_str("kind").unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["charge", "refund", "refund_reversal"]);
    let earnings = get_ok(&app, "/api/earning/my-earnings", Some(&writer.token)).await;
    assert_eq!(earnings["earnings"][0]["availableBalance"], 450);
}

#[actix_web::test]
async fn every_stripe_call_of_a_tip_names_the_tip_post_and_writer_under_its_own_key() {
    let stripe = StripeRecorder::start().await;
    let app = spawn_stripe_app_at(stripe.url.clone()).await;
    let (writer, reader, post) = setup(&app).await;
    let mut saved_card = body(&post, 500);
    saved_card["paymentMethodId"] = json!("pm_card_visa");
    let res = tip(&app, &reader, Some("recorded"), &saved_card).await;
    // stripe-mock leaves a confirmed intent waiting (its fixture), as a 3-D Secure check would.
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let id = json_of(res).await["tip"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let res = tip(&app, &reader, Some("recorded"), &saved_card).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);

    let created: Vec<ProviderCall> = stripe
        .calls_to("/v1/payment_intents")
        .into_iter()
        .filter(|c| c.method == "POST" && c.path == "/v1/payment_intents")
        .collect();
    assert_eq!(created.len(), 1, "one PaymentIntent for a repeated request");
    let call = &created[0];
    assert_eq!(
        call.idempotency_key.as_deref(),
        Some(format!("tip:{id}").as_str())
    );
    assert_eq!(call.field("amount"), Some("500"));
    assert_eq!(call.field("currency"), Some("usd"));
    assert_eq!(call.field("payment_method"), Some("pm_card_visa"));
    assert_eq!(call.field("metadata[kind]"), Some("tip"));
    assert_eq!(call.field("metadata[tipId]"), Some(id.as_str()));
    assert_eq!(call.field("metadata[postId]"), Some(post.as_str()));
    assert_eq!(call.field("metadata[authorId]"), Some(writer.id.as_str()));

    // Paid (the signed webhook), then refunded: one refund call under `refund:tip:<id>`.
    let stored = app.find_doc("tips", doc! { "_id": oid(&id) }).await;
    let intent = stored.get_str("providerPaymentId").unwrap().to_string();
    let paid = intent_event("evt_rec_paid", "payment_intent.succeeded", &intent, &id);
    assert_eq!(
        deliver(&app, &paid, WEBHOOK_SECRET).await.status(),
        StatusCode::OK
    );
    let reason = json!({ "reason": "Tipped the wrong post" });
    let path = format!("/api/tips/{id}/refund");
    let answers =
        join_all((0..5).map(|_| app.post_json(&path, &reason, Some(&reader.token)))).await;
    assert_eq!(
        answers
            .iter()
            .filter(|r| r.status() == StatusCode::OK)
            .count(),
        1
    );
    let refunds = stripe.calls_to("/v1/refunds");
    assert_eq!(refunds.len(), 1);
    assert_eq!(
        refunds[0].idempotency_key.as_deref(),
        Some(format!("refund:tip:{id}").as_str())
    );
    assert_eq!(refunds[0].field("payment_intent"), Some(intent.as_str()));
    assert_eq!(refunds[0].field("metadata[tipId]"), Some(id.as_str()));
}

#[actix_web::test]
async fn when_stripe_is_away_a_retried_tip_is_charged_once() {
    let proxy = DbProxy::start(&stripe_url()).await;
    let app = spawn_stripe_app_at(format!("http://127.0.0.1:{}", proxy.port)).await;
    let (writer, reader, post) = setup(&app).await;
    proxy.set_up(false);
    let res = tip(&app, &reader, Some("away"), &body(&post, 500)).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_GATEWAY).await,
        "The payment provider could not be reached. Nothing was charged twice; please try again shortly."
    );
    let waiting = app.find_doc("tips", doc! {}).await;
    assert_eq!(waiting.get_str("status").unwrap(), "pending");
    assert!(waiting.get_str("providerPaymentId").is_err());
    // Its answer is lost for good after the provider's timeout: a retry asks again under the
    // same key (Stripe answers the charge it made, or makes it now).
    let long_ago =
        mongodb::bson::DateTime::from_millis(chrono::Utc::now().timestamp_millis() - 120_000);
    app.collection("tips")
        .update_one(doc! {}, doc! { "$set": { "createdAt": long_ago } })
        .await
        .unwrap();
    let res = tip(&app, &reader, Some("away"), &body(&post, 500)).await;
    assert_error(res, StatusCode::BAD_GATEWAY).await;
    proxy.set_up(true);
    let res = tip(&app, &reader, Some("away"), &body(&post, 500)).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let answer = json_of(res).await;
    assert_eq!(
        answer["tip"]["id"],
        waiting.get_object_id("_id").unwrap().to_hex().as_str()
    );
    assert_eq!(app.count_in("tips", doc! {}).await, 1);
    assert_eq!(
        app.count_in("ledger", doc! { "authorId": oid(&writer.id) })
            .await,
        0
    );
}

#[actix_web::test]
async fn a_tip_refunded_after_its_payout_is_recovered_from_later_earnings() {
    let app = spawn_app().await;
    let (writer, reader, post) = setup(&app).await;
    let res = tip(&app, &reader, None, &body(&post, 2000)).await;
    let id = json_of(res).await["tip"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .post_json(
            "/api/payment/bank-details",
            &bank_body(),
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let admin = app.admin().await;
    let body_of = json!({ "users": [writer.id] });
    let pay = || app.post_json("/api/earning/admin/payouts", &body_of, Some(&admin.token));
    let paid = json_of(pay().await).await;
    assert_eq!(paid["results"][0]["status"], "paid", "{paid}");
    assert_eq!(paid["results"][0]["amount"], 1800);

    // The reader is refunded after the money went out: the writer's balance goes below zero.
    let res = app
        .post_json(
            &format!("/api/tips/{id}/refund"),
            &json!({ "reason": "Not what I meant" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let row = app.earnings_of(&admin, &writer).await;
    assert_eq!(row["availableBalance"], -1800, "{row}");
    assert_eq!(row["paidOut"], 1800);
    let nothing = json_of(pay().await).await;
    assert_ne!(nothing["results"][0]["status"], "paid", "{nothing}");

    // Later tips make it up before anything is paid again.
    let other = app.signup().await;
    let res = tip(&app, &other, None, &body(&post, 5000)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let row = app.earnings_of(&admin, &writer).await;
    assert_eq!(row["availableBalance"], 4500 - 1800);
    let paid = json_of(pay().await).await;
    assert_eq!(paid["results"][0]["status"], "paid", "{paid}");
    assert_eq!(paid["results"][0]["amount"], 2700);

    // A writer whose account the administrators blocked is not tipped.
    let res = app
        .patch_json(
            &format!("/api/admin/users/block/{}", writer.id),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let late = app.signup().await;
    let res = tip(&app, &late, None, &body(&post, 500)).await;
    assert!(
        [StatusCode::FORBIDDEN, StatusCode::NOT_FOUND].contains(&res.status()),
        "{}",
        res.status()
    );
}
