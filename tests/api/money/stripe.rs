//! The Stripe adapter against the official stripe-mock (started by scripts/test), and the
//! webhook: signatures checked (a forged or stale one is a 400 and changes nothing), each event
//! processed once.

use futures_util::future::join_all;
use mongodb::bson::doc;
use pressroom::payments::stripe::StripeProvider;
use pressroom::payments::{
    ChargeRequest, ChargeStatus, CustomerRequest, DestinationRequest, Mode, PaymentProvider,
    PayoutRequest, ProviderError, RefundRequest, RefundStatus,
};
use reqwest::StatusCode;
use serde_json::json;

use crate::support::money::*;
use crate::support::*;

fn stripe() -> StripeProvider {
    StripeProvider::new(&stripe_url(), "sk_test_pressroom").unwrap()
}

fn destination(key: &str) -> DestinationRequest {
    DestinationRequest {
        user_id: "u1".into(),
        email: "ada@example.com".into(),
        holder_name: "Ada Lovelace".into(),
        account_number: "000123456789".into(),
        bank_code: "110000000".into(),
        country: "US".into(),
        currency: "usd".into(),
        idempotency_key: key.into(),
    }
}

#[actix_web::test]
async fn every_adapter_call_is_accepted_by_stripe_mock() {
    let s = stripe();
    assert_eq!(s.mode(), Mode::Test);
    let customer = s
        .create_customer(CustomerRequest {
            user_id: "u1".into(),
            email: "ada@example.com".into(),
            name: "Ada".into(),
        })
        .await
        .unwrap();
    assert!(customer.starts_with("cus_"), "{customer}");

    // With a payment method: confirmed at once (stripe-mock's fixture leaves it waiting).
    let charge = s
        .charge(ChargeRequest {
            customer: customer.clone(),
            amount: 1500,
            currency: "usd".into(),
            payment_method: Some("pm_card_visa".into()),
            off_session: false,
            description: "Subscription to Gold".into(),
            metadata: vec![("subscriptionId".into(), "s1".into())],
            idempotency_key: format!("charge:{}", uuid::Uuid::new_v4()),
        })
        .await
        .unwrap();
    assert!(charge.id.starts_with("pi_"), "{}", charge.id);
    assert!(
        matches!(
            charge.status,
            ChargeStatus::Pending {
                client_secret: Some(_)
            }
        ),
        "{:?}",
        charge.status
    );
    assert_eq!(charge.payment_method.as_deref(), Some("pm_card_visa"));
    // Off-session renewals and charges confirmed in the browser are accepted too.
    for (method, off) in [(Some("pm_card_visa"), true), (None, false)] {
        let c = s
            .charge(ChargeRequest {
                customer: customer.clone(),
                amount: 1500,
                currency: "usd".into(),
                payment_method: method.map(str::to_string),
                off_session: off,
                description: "Renewal".into(),
                metadata: vec![],
                idempotency_key: format!("renew:{}", uuid::Uuid::new_v4()),
            })
            .await
            .unwrap();
        assert!(c.id.starts_with("pi_"));
    }
    let again = s.retrieve_charge(charge.id.clone()).await.unwrap();
    assert_eq!(again.id, charge.id);

    let refund = s
        .refund(RefundRequest {
            charge_id: charge.id.clone(),
            amount: 1500,
            metadata: vec![("paymentId".into(), "p1".into())],
            idempotency_key: format!("refund:{}", uuid::Uuid::new_v4()),
        })
        .await
        .unwrap();
    assert!(refund.id.starts_with("re_"));
    assert_eq!(refund.status, RefundStatus::Succeeded);

    let account = s
        .create_destination(destination("destination:1"))
        .await
        .unwrap();
    assert!(account.id.starts_with("acct_"), "{}", account.id);
    let updated = s
        .update_destination(account.id.clone(), destination("destination-update:1"))
        .await
        .unwrap();
    assert_eq!(updated.id, account.id);
    let payout = s
        .payout(PayoutRequest {
            destination: account.id.clone(),
            amount: 900,
            currency: "usd".into(),
            metadata: vec![("payoutId".into(), "x".into())],
            idempotency_key: format!("payout:{}", uuid::Uuid::new_v4()),
        })
        .await
        .unwrap();
    assert!(payout.id.starts_with("tr_"), "{}", payout.id);
    s.delete_destination(account.id).await.unwrap();
}

#[actix_web::test]
async fn a_request_stripe_refuses_is_reported_as_invalid_and_an_unreachable_one_as_unavailable() {
    let s = stripe();
    let err = s.retrieve_charge("pi_1/extra".into()).await.unwrap_err();
    assert!(
        matches!(err, ProviderError::Invalid(ref m) if m.contains("Unrecognized request URL")),
        "{err:?}"
    );
    let down = StripeProvider::new("http://127.0.0.1:9", "sk_test_pressroom").unwrap();
    let err = down.retrieve_charge("pi_1".into()).await.unwrap_err();
    assert!(matches!(err, ProviderError::Unavailable(_)), "{err:?}");
}

/// A `payment_intent.succeeded` event about `intent` as Stripe sends it.
fn succeeded(event_id: &str, intent: &str) -> serde_json::Value {
    json!({
        "id": event_id,
        "object": "event",
        "type": "payment_intent.succeeded",
        "data": { "object": { "id": intent, "object": "payment_intent", "status": "succeeded",
                              "payment_method": "pm_card_visa", "metadata": {} } },
    })
}

#[actix_web::test]
async fn subscribing_through_stripe_waits_for_the_signed_webhook_and_processes_it_once() {
    let app = spawn_stripe_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 1500).await;
    let plan_id = plan["_id"].as_str().unwrap();

    // Without a saved payment method the reader confirms in the browser: 202 and a client
    // secret; nothing is credited yet and the post stays locked.
    let res = app.subscribe(&reader, plan_id).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let body = json_of(res).await;
    assert_eq!(body["payment"]["status"], "pending");
    assert!(body["payment"]["clientSecret"]
        .as_str()
        .unwrap()
        .contains("_secret_"));
    assert_eq!(body["subscription"]["status"], "incomplete");
    assert_eq!(body["mode"], "test");
    let sub_id = body["subscription"]["subscriptionId"]
        .as_str()
        .unwrap()
        .to_string();
    let payment = app
        .find_doc("payments", doc! { "subscriptionId": oid(&sub_id) })
        .await;
    let intent = payment.get_str("providerPaymentId").unwrap().to_string();
    assert!(intent.starts_with("pi_"));
    // Subscribing again meanwhile (a second click, a reload) continues the same payment: no
    // second subscription, no second PaymentIntent.
    let res = app.subscribe(&reader, plan_id).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let again = json_of(res).await;
    assert_eq!(again["subscription"]["subscriptionId"], sub_id.as_str());
    assert!(again["payment"]["clientSecret"]
        .as_str()
        .unwrap()
        .contains("_secret_"));
    assert_eq!(app.count_in("subscriptions", doc! {}).await, 1);
    assert_eq!(app.count_in("payments", doc! {}).await, 1);
    // Another plan of the same author is refused while this one is being paid.
    let other = app.create_plan(&author, 2500).await;
    let res = app.subscribe(&reader, other["_id"].as_str().unwrap()).await;
    assert_error(res, StatusCode::CONFLICT).await;

    let now = chrono::Utc::now().timestamp();
    let event = succeeded("evt_paid_1", &intent);
    // Forged (another secret), stale (10 minutes old) or unsigned: 400, nothing changes.
    let res = app.send_webhook(&event, "whsec_forged", now).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Webhook signature does not match"
    );
    let res = app.send_webhook(&event, WEBHOOK_SECRET, now - 600).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Webhook timestamp is outside the tolerance"
    );
    let res = app.post_json("/api/payment/webhook", &event, None).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "Missing Stripe-Signature header"
    );
    assert_eq!(app.sub_status(&sub_id).await, "incomplete");
    assert_eq!(app.count_in("ledger", doc! {}).await, 0);
    assert_eq!(app.count_in("webhook_events", doc! {}).await, 0);

    // Signed and fresh: the subscription becomes active and the author is credited.
    let res = app.send_webhook(&event, WEBHOOK_SECRET, now).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["status"], "processed");
    let sub = app.subscription_doc(&sub_id).await;
    assert_eq!(sub.get_str("status").unwrap(), "active");
    assert_eq!(sub.get_str("paymentMethod").unwrap(), "pm_card_visa");
    assert_eq!(app.count_in("ledger", doc! { "kind": "charge" }).await, 1);
    // The same event again (a redelivery) is processed once.
    let res = app.send_webhook(&event, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "duplicate");
    // Another event about the same payment credits nothing more.
    let res = app
        .send_webhook(&succeeded("evt_paid_2", &intent), WEBHOOK_SECRET, now)
        .await;
    assert_eq!(json_of(res).await["status"], "processed");
    assert_eq!(app.count_in("ledger", doc! { "kind": "charge" }).await, 1);
    assert_eq!(
        app.count_in("subscription_events", doc! { "kind": "subscribed" })
            .await,
        1
    );

    // The refund goes through stripe-mock; the payout to the author's connected account too.
    let res = app
        .patch_json(
            &format!("/api/subscription/subscriptions/{sub_id}/refund"),
            &json!({ "reason": "Not for me" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let refunded = json_of(res).await;
    assert_eq!(refunded["subscription"]["status"], "refunded");
    assert_eq!(refunded["refund"]["status"], "succeeded");
    let res = app
        .post_json(
            "/api/payment/bank-details",
            &bank_body(),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let bank = json_of(res).await;
    assert!(bank["bankDetails"]["paymentId"]
        .as_str()
        .unwrap()
        .starts_with("acct_"));

    // A refund the bank later fails gives the author's debit back, once.
    let refund_id = app
        .find_doc("refunds", doc! {})
        .await
        .get_str("providerRefundId")
        .unwrap()
        .to_string();
    let failed = json!({ "id": "evt_refund_failed", "type": "refund.failed",
                         "data": { "object": { "id": refund_id, "object": "refund", "status": "failed" } } });
    let res = app.send_webhook(&failed, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "processed");
    let res = app.send_webhook(&failed, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "duplicate");
    assert_eq!(
        app.count_in("ledger", doc! { "kind": "refund_reversal" })
            .await,
        1
    );
    let admin = app.admin().await;
    let res = app
        .post_json(
            "/api/earning/admin/payouts",
            &json!({ "users": [author.id] }),
            Some(&admin.token),
        )
        .await;
    let paid = json_of(res).await;
    assert_eq!(paid["results"][0]["status"], "paid", "{paid}");
    assert_eq!(paid["results"][0]["amount"], 1350);
    let payout = app.find_doc("payouts", doc! {}).await;
    assert!(payout
        .get_str("providerPayoutId")
        .unwrap()
        .starts_with("tr_"));
}

#[actix_web::test]
async fn an_unknown_event_is_acknowledged_and_ignored_and_a_malformed_one_refused() {
    let app = spawn_stripe_app().await;
    let now = chrono::Utc::now().timestamp();
    let other = json!({ "id": "evt_other", "type": "customer.created", "data": { "object": { "id": "cus_1" } } });
    let res = app.send_webhook(&other, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "ignored");
    let res = app
        .send_webhook(&json!({ "type": "x" }), WEBHOOK_SECRET, now)
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    let res = app.send_webhook(&json!([1, 2]), WEBHOOK_SECRET, now).await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}

/// A reader with an incomplete subscription through Stripe: (subscription id, PaymentIntent id).
async fn pending_subscription(app: &TestApp) -> (TestUser, String, String) {
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 1500).await;
    let res = app.subscribe(&reader, plan["_id"].as_str().unwrap()).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let body = json_of(res).await;
    let sub = body["subscription"]["subscriptionId"]
        .as_str()
        .unwrap()
        .to_string();
    let payment = app
        .find_doc("payments", doc! { "subscriptionId": oid(&sub) })
        .await;
    let intent = payment.get_str("providerPaymentId").unwrap().to_string();
    (author, sub, intent)
}

#[actix_web::test]
async fn the_same_event_delivered_ten_times_at_once_is_processed_once() {
    let app = spawn_stripe_app().await;
    app.money_ready().await;
    let (author, sub, intent) = pending_subscription(&app).await;
    let now = chrono::Utc::now().timestamp();
    let event = succeeded("evt_burst", &intent);
    let answers = join_all((0..10).map(|_| app.send_webhook(&event, WEBHOOK_SECRET, now))).await;
    let mut processed = 0;
    for res in answers {
        match res.status() {
            StatusCode::OK => {
                let status = json_of(res).await["status"].clone();
                if status == "processed" {
                    processed += 1;
                } else {
                    assert_eq!(status, "duplicate");
                }
            }
            // Still being processed by another delivery: not acknowledged, so Stripe retries.
            StatusCode::CONFLICT => {
                assert_eq!(
                    assert_error(res, StatusCode::CONFLICT).await,
                    "This event is being processed by another delivery; send it again later"
                );
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(processed, 1);
    // Stripe's retry of a delivery that got 409 finds it done.
    let res = app.send_webhook(&event, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "duplicate");
    assert_eq!(app.sub_status(&sub).await, "active");
    assert_eq!(
        app.count_in("ledger", doc! { "authorId": oid(&author.id) })
            .await,
        1
    );
    assert_eq!(
        app.count_in("subscription_events", doc! { "kind": "subscribed" })
            .await,
        1
    );
    assert_eq!(
        app.count_in(
            "notifications",
            doc! { "userId": oid(&author.id), "type": "subscription" }
        )
        .await,
        1
    );
}

#[actix_web::test]
async fn an_event_whose_processing_stopped_halfway_is_processed_by_a_later_delivery() {
    let app = spawn_stripe_app().await;
    app.money_ready().await;
    let (_author, sub, intent) = pending_subscription(&app).await;
    let now = chrono::Utc::now().timestamp();
    let event = succeeded("evt_interrupted", &intent);
    // A delivery began a moment ago and is still working: the next one is not acknowledged.
    let began = |ago_ms: i64| {
        doc! { "_id": "evt_interrupted", "type": "payment_intent.succeeded", "status": "processing",
        "receivedAt": mongodb::bson::DateTime::from_millis(
            mongodb::bson::DateTime::now().timestamp_millis() - ago_ms) }
    };
    app.collection("webhook_events")
        .insert_one(began(1_000))
        .await
        .unwrap();
    let res = app.send_webhook(&event, WEBHOOK_SECRET, now).await;
    assert_error(res, StatusCode::CONFLICT).await;
    assert_eq!(app.sub_status(&sub).await, "incomplete");
    // The process that began it died (10 minutes without finishing): the retry takes it over.
    app.collection("webhook_events")
        .replace_one(doc! { "_id": "evt_interrupted" }, began(600_000))
        .await
        .unwrap();
    let res = app.send_webhook(&event, WEBHOOK_SECRET, now).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["status"], "processed");
    assert_eq!(app.sub_status(&sub).await, "active");
    let res = app.send_webhook(&event, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "duplicate");
    assert_eq!(app.count_in("ledger", doc! { "kind": "charge" }).await, 1);
}

#[actix_web::test]
async fn a_stripe_renewal_is_settled_by_its_webhook_paid_or_failed() {
    let app = spawn_stripe_app().await;
    app.money_ready().await;
    let (author, sub, intent) = pending_subscription(&app).await;
    let now = chrono::Utc::now().timestamp();
    let res = app
        .send_webhook(&succeeded("evt_first", &intent), WEBHOOK_SECRET, now)
        .await;
    assert_eq!(json_of(res).await["status"], "processed");

    // Period end: the billing job charges off-session with the saved method; Stripe answers
    // later (stripe-mock's intent waits), so the renewal is pending and access goes on.
    app.end_period(&sub).await;
    let report = app.run_billing_at(mongodb::bson::DateTime::now()).await;
    assert_eq!(
        (report.renewed, report.renewals_pending),
        (0, 1),
        "{report:?}"
    );
    let renewal = app
        .find_doc(
            "payments",
            doc! { "subscriptionId": oid(&sub), "kind": "renewal" },
        )
        .await;
    assert_eq!(renewal.get_str("status").unwrap(), "pending");
    let renewal_id = renewal.get_object_id("_id").unwrap().to_hex();
    // The renewal paid: the next period starts where the last one ended, credited once.
    let renewal_intent = renewal.get_str("providerPaymentId").unwrap();
    assert_ne!(renewal_intent, intent);
    let mut paid = succeeded("evt_renewal_paid", renewal_intent);
    paid["data"]["object"]["metadata"] = json!({ "paymentId": renewal_id });
    let res = app.send_webhook(&paid, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "processed");
    let doc = app.subscription_doc(&sub).await;
    assert_eq!(doc.get_str("status").unwrap(), "active");
    assert_eq!(
        doc.get_datetime("currentPeriodStart").unwrap(),
        renewal.get_datetime("periodStart").unwrap()
    );
    assert_eq!(
        app.count_in(
            "ledger",
            doc! { "authorId": oid(&author.id), "kind": "charge" }
        )
        .await,
        2
    );
    assert_eq!(
        app.count_in(
            "subscription_events",
            doc! { "subscriptionId": oid(&sub), "kind": "renewed" }
        )
        .await,
        1
    );

    // The next renewal fails at the bank: past_due with a grace period, nothing credited.
    app.end_period(&sub).await;
    app.run_billing_at(mongodb::bson::DateTime::now()).await;
    let second = app
        .find_doc(
            "payments",
            doc! { "subscriptionId": oid(&sub), "kind": "renewal", "status": "pending" },
        )
        .await;
    let failed = json!({
        "id": "evt_renewal_failed", "object": "event", "type": "payment_intent.payment_failed",
        "data": { "object": { "id": second.get_str("providerPaymentId").unwrap(), "object": "payment_intent",
                              "status": "requires_payment_method",
                              "last_payment_error": { "message": "Your card has insufficient funds." },
                              "metadata": { "paymentId": second.get_object_id("_id").unwrap().to_hex() } } },
    });
    let res = app.send_webhook(&failed, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "processed");
    let res = app.send_webhook(&failed, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "duplicate");
    let doc = app.subscription_doc(&sub).await;
    assert_eq!(doc.get_str("status").unwrap(), "past_due");
    assert!(doc.get_datetime("graceEndsAt").is_ok());
    assert_eq!(
        app.count_in(
            "ledger",
            doc! { "authorId": oid(&author.id), "kind": "charge" }
        )
        .await,
        2
    );
    let failed_payment = app
        .find_doc(
            "payments",
            doc! { "_id": second.get_object_id("_id").unwrap() },
        )
        .await;
    assert_eq!(failed_payment.get_str("status").unwrap(), "failed");
    assert_eq!(
        failed_payment.get_str("failureReason").unwrap(),
        "Your card has insufficient funds."
    );
}

/// Moves a document's `field` a minute (or `ms`) into the past.
async fn age(
    app: &TestApp,
    collection: &str,
    filter: mongodb::bson::Document,
    field: &str,
    ms: i64,
) {
    let past = mongodb::bson::DateTime::from_millis(
        mongodb::bson::DateTime::now().timestamp_millis() - ms,
    );
    app.collection(collection)
        .update_many(filter, doc! { "$set": { field: past } })
        .await
        .unwrap();
}

#[actix_web::test]
async fn when_stripe_is_away_retried_requests_move_money_once() {
    let proxy = DbProxy::start(&stripe_url()).await;
    let app = spawn_stripe_app_at(format!("http://127.0.0.1:{}", proxy.port)).await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let elsewhere = app.eligible_author().await;
    let plan = app.create_plan(&author, 1500).await;
    let plan_id = plan["_id"].as_str().unwrap().to_string();
    let other_plan = app.create_plan(&elsewhere, 900).await;
    let (first, second) = (app.signup().await, app.signup().await);
    // Both readers are Stripe customers already (each began paying another author).
    for reader in [&first, &second] {
        let res = app
            .subscribe(reader, other_plan["_id"].as_str().unwrap())
            .await;
        assert_eq!(res.status(), StatusCode::ACCEPTED);
    }

    // Stripe goes away while both subscribe: a clear 502, the first payment waits without an
    // answer, nothing is credited.
    proxy.set_up(false);
    for reader in [&first, &second] {
        let res = app.subscribe(reader, &plan_id).await;
        assert_eq!(
            assert_error(res, StatusCode::BAD_GATEWAY).await,
            "The payment provider could not be reached. Nothing was charged twice; please try again shortly."
        );
    }
    let waiting = |reader: &TestUser| {
        doc! { "subscriberId": oid(&reader.id), "planId": oid(&plan_id) }
    };
    assert_eq!(app.count_in("payments", waiting(&first)).await, 1);
    assert_eq!(
        app.count_in(
            "payments",
            doc! { "planId": oid(&plan_id), "providerPaymentId": { "$exists": true, "$ne": null } }
        )
        .await,
        0
    );
    // A click straight after: the first call may still be on its way, so no second call.
    let res = app.subscribe(&first, &plan_id).await;
    assert_error(res, StatusCode::CONFLICT).await;
    // Later, with Stripe still away: the call is replayed under its key and fails the same way.
    age(&app, "payments", waiting(&first), "createdAt", 60_000).await;
    let res = app.subscribe(&first, &plan_id).await;
    assert_error(res, StatusCode::BAD_GATEWAY).await;

    // Stripe is back. The first reader tries again: the same subscription, the same payment,
    // now with Stripe's PaymentIntent to confirm.
    proxy.set_up(true);
    let res = app.subscribe(&first, &plan_id).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let body = json_of(res).await;
    assert!(body["payment"]["clientSecret"]
        .as_str()
        .unwrap()
        .contains("_secret_"));
    let sub = body["subscription"]["subscriptionId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(app.count_in("payments", waiting(&first)).await, 1);
    assert_eq!(app.count_in("subscriptions", waiting(&first)).await, 1);
    // The second reader does nothing: the billing job asks Stripe again and keeps the intent,
    // so their next visit continues it.
    age(&app, "payments", waiting(&second), "updatedAt", 180_000).await;
    app.run_billing_at(mongodb::bson::DateTime::now()).await;
    let kept = app.find_doc("payments", waiting(&second)).await;
    assert!(kept
        .get_str("providerPaymentId")
        .unwrap()
        .starts_with("pi_"));
    assert_eq!(kept.get_str("status").unwrap(), "pending");
    let res = app.subscribe(&second, &plan_id).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    assert_eq!(app.count_in("payments", waiting(&second)).await, 1);

    // The first reader's payment clears.
    let intent = app
        .find_doc("payments", waiting(&first))
        .await
        .get_str("providerPaymentId")
        .unwrap()
        .to_string();
    let now = chrono::Utc::now().timestamp();
    let res = app
        .send_webhook(&succeeded("evt_after_outage", &intent), WEBHOOK_SECRET, now)
        .await;
    assert_eq!(json_of(res).await["status"], "processed");
    assert_eq!(app.sub_status(&sub).await, "active");

    // A payout while Stripe is away is held (debited, retried with its key), and the same
    // request again pays nothing more.
    let res = app
        .post_json(
            "/api/payment/bank-details",
            &bank_body(),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let admin = app.admin().await;
    let payout = json!({ "users": [author.id] });
    proxy.set_up(false);
    let res = app
        .post_json("/api/earning/admin/payouts", &payout, Some(&admin.token))
        .await;
    let held = json_of(res).await;
    assert_eq!(held["results"][0]["status"], "failed", "{held}");
    assert!(held["results"][0]["error"]
        .as_str()
        .unwrap()
        .contains("held and retried automatically"));
    let res = app
        .post_json("/api/earning/admin/payouts", &payout, Some(&admin.token))
        .await;
    let again = json_of(res).await;
    assert_eq!(again["results"][0]["status"], "skipped", "{again}");
    assert_eq!(app.count_in("payouts", doc! {}).await, 1);
    // Stripe returns; the billing job sends the held payout with the same key.
    proxy.set_up(true);
    age(&app, "payouts", doc! {}, "updatedAt", 180_000).await;
    let report = app.run_billing_at(mongodb::bson::DateTime::now()).await;
    assert_eq!(report.payouts_retried, 1, "{report:?}");
    let record = app.find_doc("payouts", doc! {}).await;
    assert_eq!(record.get_str("status").unwrap(), "paid");
    assert!(record
        .get_str("providerPayoutId")
        .unwrap()
        .starts_with("tr_"));
    let row = app.earnings_of(&admin, &author).await;
    assert_eq!(
        (row["paidOut"].clone(), row["availableBalance"].clone()),
        (json!(1350), json!(0)),
        "{row}"
    );

    // A refund while Stripe is away leaves nothing behind; asked again later it refunds once.
    proxy.set_up(false);
    let path = format!("/api/subscription/subscriptions/{sub}/refund");
    let reason = json!({ "reason": "Changed my mind" });
    let res = app.patch_json(&path, &reason, Some(&first.token)).await;
    assert_error(res, StatusCode::BAD_GATEWAY).await;
    assert_eq!(app.count_in("refunds", doc! {}).await, 0);
    assert_eq!(app.sub_status(&sub).await, "active");
    proxy.set_up(true);
    let res = app.patch_json(&path, &reason, Some(&first.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app.patch_json(&path, &reason, Some(&first.token)).await;
    assert_error(res, StatusCode::CONFLICT).await;
    assert_eq!(app.count_in("refunds", doc! {}).await, 1);
    assert_eq!(
        app.count_in(
            "ledger",
            doc! { "authorId": oid(&author.id), "kind": "refund" }
        )
        .await,
        1
    );
}

#[actix_web::test]
async fn a_refund_stripe_settles_later_is_marked_by_its_webhook_once() {
    let app = spawn_stripe_app().await;
    app.money_ready().await;
    let (author, sub, intent) = pending_subscription(&app).await;
    let now = chrono::Utc::now().timestamp();
    let res = app
        .send_webhook(&succeeded("evt_paid", &intent), WEBHOOK_SECRET, now)
        .await;
    assert_eq!(json_of(res).await["status"], "processed");
    let admin = app.admin().await;
    let res = app
        .patch_json(
            &format!("/api/subscription/subscriptions/{sub}/refund"),
            &json!({ "reason": "Duplicate account" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    // Stripe said the refund was still pending (a bank debit takes days).
    app.collection("refunds")
        .update_one(doc! {}, doc! { "$set": { "status": "pending" } })
        .await
        .unwrap();
    let refund = app.find_doc("refunds", doc! {}).await;
    let refund_id = refund.get_str("providerRefundId").unwrap();
    let settled = json!({ "id": "evt_refund_settled", "type": "refund.updated",
                          "data": { "object": { "id": refund_id, "object": "refund", "status": "succeeded" } } });
    let res = app.send_webhook(&settled, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "processed");
    let res = app.send_webhook(&settled, WEBHOOK_SECRET, now).await;
    assert_eq!(json_of(res).await["status"], "duplicate");
    let refund = app.find_doc("refunds", doc! {}).await;
    assert_eq!(refund.get_str("status").unwrap(), "succeeded");
    // The author was debited once, and nothing was given back.
    assert_eq!(
        app.count_in(
            "ledger",
            doc! { "authorId": oid(&author.id), "kind": "refund" }
        )
        .await,
        1
    );
    assert_eq!(
        app.count_in("ledger", doc! { "kind": "refund_reversal" })
            .await,
        0
    );
    let row = app.earnings_of(&admin, &author).await;
    assert_eq!(row["availableBalance"], 0, "{row}");
}
