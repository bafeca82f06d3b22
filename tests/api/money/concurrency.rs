//! Money under concurrency: FerretDB has no multi-document transactions and applies `$inc` as a
//! read-modify-write, so these prove the unique-index claims and ledger positions hold.

use futures_util::future::join_all;
use mongodb::bson::doc;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::money::*;
use crate::support::*;

#[actix_web::test]
async fn twenty_simultaneous_subscribe_calls_make_one_subscription_and_one_charge() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 1500).await;
    let plan_id = plan["_id"].as_str().unwrap();

    let answers = join_all((0..20).map(|_| app.subscribe(&reader, plan_id))).await;
    let statuses: Vec<StatusCode> = answers.iter().map(|r| r.status()).collect();
    let created = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    // One call subscribes. A call that arrives while that subscription's first payment is being
    // settled carries on with it (as a second click does) and answers the same subscription;
    // every other call is refused. Never a second subscription or charge (below).
    assert!(created >= 1 && created + refused == 20, "{statuses:?}");
    let mut subscribed = Vec::new();
    let mut message = None;
    for res in answers {
        if res.status() == StatusCode::CREATED {
            subscribed.push(json_of(res).await["subscription"]["subscriptionId"].clone());
        } else if message.is_none() {
            message = Some(assert_error(res, StatusCode::CONFLICT).await);
        }
    }
    assert!(
        subscribed.iter().all(|s| *s == subscribed[0]),
        "one subscription in every success: {subscribed:?}"
    );
    assert_eq!(
        message.as_deref(),
        Some("You are already subscribed to this author")
    );
    let reader_id = oid(&reader.id);
    assert_eq!(
        app.count_in("subscriptions", doc! { "subscriberId": reader_id })
            .await,
        1
    );
    assert_eq!(
        app.count_in("payments", doc! { "subscriberId": reader_id })
            .await,
        1
    );
    assert_eq!(
        app.count_in("local_payments", doc! { "kind": "charge" })
            .await,
        1
    );
    assert_eq!(
        app.count_in("ledger", doc! { "authorId": oid(&author.id) })
            .await,
        1
    );
}

#[actix_web::test]
async fn a_double_click_after_the_first_answer_is_refused_too() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 1500).await;
    let plan_id = plan["_id"].as_str().unwrap();
    app.subscribed(&reader, plan_id).await;
    let res = app.subscribe(&reader, plan_id).await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "You are already subscribed to this author"
    );
    // Another plan of the same author is refused as well.
    let other = app.create_plan(&author, 2500).await;
    let res = app.subscribe(&reader, other["_id"].as_str().unwrap()).await;
    assert_error(res, StatusCode::CONFLICT).await;
    assert_eq!(
        app.count_in("payments", doc! { "subscriberId": oid(&reader.id) })
            .await,
        1
    );
}

#[actix_web::test]
async fn many_readers_at_once_credit_one_author_exactly() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let plan = app.create_plan(&author, 1000).await;
    let plan_id = plan["_id"].as_str().unwrap().to_string();
    let readers = app.signup_many(12).await;
    let answers = join_all(readers.iter().map(|r| app.subscribe(r, &plan_id))).await;
    assert!(answers.iter().all(|r| r.status() == StatusCode::CREATED));
    let admin = app.admin().await;
    let row = app.earnings_of(&admin, &author).await;
    assert_eq!(row["gross"], 12_000, "{row}");
    assert_eq!(row["availableBalance"], 10_800, "{row}");
    // The chain has one entry per position.
    assert_eq!(
        app.count_in("ledger", doc! { "authorId": oid(&author.id) })
            .await,
        12
    );
}

#[actix_web::test]
async fn two_administrators_paying_at_once_pay_once() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let plan = app.create_plan(&author, 5000).await;
    let reader = app.signup().await;
    app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let res = app
        .post_json(
            "/api/payment/bank-details",
            &bank_body(),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let first = app.admin().await;
    let second = app.admin().await;
    let body = json!({ "users": [author.id] });
    let answers = join_all([
        app.post_json("/api/earning/admin/payouts", &body, Some(&first.token)),
        app.post_json("/api/earning/admin/payouts", &body, Some(&second.token)),
    ])
    .await;
    let mut paid = 0;
    for res in answers {
        assert_eq!(res.status(), StatusCode::OK);
        let body = json_of(res).await;
        if body["results"][0]["status"] == "paid" {
            paid += 1;
            assert_eq!(body["results"][0]["amount"], 4500);
        }
    }
    assert_eq!(paid, 1);
    assert_eq!(app.count_in("payouts", doc! {}).await, 1);
    assert_eq!(
        app.count_in("local_payments", doc! { "kind": "payout" })
            .await,
        1
    );
    let row = app.earnings_of(&first, &author).await;
    assert_eq!(row["paidOut"], 4500);
    assert_eq!(row["availableBalance"], 0);
}

#[actix_web::test]
async fn ten_simultaneous_refund_requests_refund_once() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let plan = app.create_plan(&author, 2000).await;
    let sub = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let path = format!("/api/subscription/subscriptions/{sub}/refund");
    let body = json!({ "reason": "Charged by mistake", "bankDetails": null });
    // The reader clicks repeatedly while an administrator refunds too.
    let answers = join_all((0..10).map(|i| {
        let token = if i % 3 == 0 {
            &admin.token
        } else {
            &reader.token
        };
        app.patch_json(&path, &body, Some(token))
    }))
    .await;
    let mut ok = 0;
    for res in answers {
        match res.status() {
            StatusCode::OK => {
                ok += 1;
                let body = json_of(res).await;
                assert_eq!(body["message"], "Subscription refunded successfully");
                assert_eq!(body["subscription"]["status"], "refunded");
            }
            StatusCode::CONFLICT => {
                assert_eq!(
                    assert_error(res, StatusCode::CONFLICT).await,
                    "This payment has already been refunded"
                );
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(ok, 1);
    assert_eq!(app.count_in("refunds", doc! {}).await, 1);
    assert_eq!(
        app.count_in("local_payments", doc! { "kind": "refund" })
            .await,
        1
    );
    assert_eq!(
        app.count_in(
            "ledger",
            doc! { "authorId": oid(&author.id), "kind": "refund" }
        )
        .await,
        1
    );
    assert_eq!(
        app.count_in(
            "subscription_events",
            doc! { "subscriptionId": oid(&sub), "kind": "refunded" }
        )
        .await,
        1
    );
    let row = app.earnings_of(&admin, &author).await;
    assert_eq!(
        (row["gross"].clone(), row["refunds"].clone()),
        (json!(2000), json!(2000)),
        "{row}"
    );
    assert_eq!(row["availableBalance"], 0, "{row}");
}

#[actix_web::test]
async fn simultaneous_cancels_and_unsubscribes_end_one_subscription_once() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 1000).await;
    let sub = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let cancel = format!("/api/subscription/subscriptions/{sub}/cancel");
    let unsubscribe = json!({ "authorId": author.id, "userId": reader.id });
    let empty = json!({});
    let (cancels, unsubscribes) = futures_util::join!(
        join_all((0..5).map(|_| app.patch_json(&cancel, &empty, Some(&reader.token)))),
        join_all((0..5).map(|_| app.post_json(
            "/api/subscription/unsubscribe/author",
            &unsubscribe,
            Some(&reader.token),
        ))),
    );
    for res in cancels.into_iter().chain(unsubscribes) {
        assert_eq!(res.status(), StatusCode::OK);
    }
    let doc = app.subscription_doc(&sub).await;
    assert_eq!(doc.get_str("status").unwrap(), "cancelled");
    assert_eq!(
        app.count_in(
            "subscription_events",
            doc! { "subscriptionId": oid(&sub), "kind": "cancelled" }
        )
        .await,
        1
    );
    // Cancelling moves no money.
    assert_eq!(app.count_in("refunds", doc! {}).await, 0);
    assert_eq!(
        app.count_in("local_payments", doc! { "kind": "charge" })
            .await,
        1
    );
}

#[actix_web::test]
async fn two_billing_runs_at_once_renew_once() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 1000).await;
    let sub = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    app.end_period(&sub).await;
    // Two nodes (or a job and a retry) wake at the same moment.
    let at = mongodb::bson::DateTime::now();
    let (first, second) = futures_util::join!(app.run_billing_at(at), app.run_billing_at(at));
    assert_eq!(first.renewed + second.renewed, 1, "{first:?} {second:?}");
    assert_eq!(
        app.count_in(
            "payments",
            doc! { "subscriptionId": oid(&sub), "kind": "renewal" }
        )
        .await,
        1
    );
    assert_eq!(
        app.count_in("local_payments", doc! { "kind": "charge" })
            .await,
        2
    );
    assert_eq!(
        app.count_in(
            "ledger",
            doc! { "authorId": oid(&author.id), "kind": "charge" }
        )
        .await,
        2
    );
    // And again later the same day: that period is paid, nothing more is charged.
    let report = app.run_billing_at(mongodb::bson::DateTime::now()).await;
    assert_eq!(report.renewed, 0);
    assert_eq!(
        app.count_in("local_payments", doc! { "kind": "charge" })
            .await,
        2
    );
}

#[actix_web::test]
async fn simultaneous_bank_details_submissions_keep_one_record() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let body = bank_body();
    let answers = join_all(
        (0..8).map(|_| app.post_json("/api/payment/bank-details", &body, Some(&author.token))),
    )
    .await;
    let statuses: Vec<StatusCode> = answers.iter().map(|r| r.status()).collect();
    let created = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((created, refused), (1, 7), "{statuses:?}");
    assert_eq!(
        app.count_in("bank_details", doc! { "userId": oid(&author.id) })
            .await,
        1
    );
}
