//! The whole money path with the local (test-mode) provider: an author becomes eligible, sells a
//! plan, a reader subscribes, the subscription renews, is refunded and ends, the earnings show
//! the credit and the refund, bank details are stored, the author is paid once.

use mongodb::bson::doc;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::money::*;
use crate::support::*;

#[actix_web::test]
async fn eligible_author_to_payout_the_whole_lifecycle() {
    let app = spawn_app().await;
    app.money_ready().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let reader = app.signup().await;

    // A new account is not eligible, so it cannot sell.
    let res = app
        .get("/api/subscription/check-eligibility", Some(&author.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let check = json_of(res).await;
    assert_eq!(check["isEligible"], false);
    assert_eq!(check["criteria"]["minFollowers"], 10000);
    assert_eq!(check["criteria"]["minAccountAgeDays"], 30);
    assert!(
        check["message"]
            .as_str()
            .unwrap()
            .starts_with("Not eligible yet"),
        "{check}"
    );
    let plan_body =
        json!({ "name": "Gold", "price": 2000, "currency": "usd", "interval": "month" });
    let res = app
        .post_json("/api/subscription/plans", &plan_body, Some(&author.token))
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;

    // An administrator grants access; the author sells a plan.
    let res = app
        .post_json(
            "/api/admin/subscriptions/grant",
            &json!({ "userId": author.id, "grant": true }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["eligibility"]["isEligible"], true);
    let res = app
        .post_json("/api/subscription/plans", &plan_body, Some(&author.token))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let created = json_of(res).await;
    assert_eq!(created["mode"], "test");
    let plan = created["plan"].clone();
    let plan_id = plan["_id"].as_str().unwrap().to_string();
    assert_eq!(plan["status"], "active");
    assert_eq!(plan["price"], 2000);

    let res = app
        .get(
            &format!("/api/subscription/plans/author/{}", author.id),
            None,
        )
        .await;
    let listed = json_of(res).await;
    assert_eq!(listed["count"], 1);

    // The reader subscribes: charged once, active for a month, the author is told.
    let res = app.subscribe(&reader, &plan_id).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let body = json_of(res).await;
    assert_eq!(body["message"], "Subscribed successfully");
    assert_eq!(body["mode"], "test");
    assert_eq!(body["payment"]["status"], "succeeded");
    let sub = body["subscription"].clone();
    assert_eq!(sub["status"], "active");
    assert_eq!(sub["planName"], "Gold");
    assert_eq!(sub["authorId"], author.id.as_str());
    let sub_id = sub["subscriptionId"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            "/api/subscription/status",
            &json!({ "userId": reader.id, "authorId": author.id }),
            Some(&reader.token),
        )
        .await;
    let status = json_of(res).await;
    assert_eq!(status["isSubscribed"], true);
    assert_eq!(status["status"], "active");
    let notices = app
        .count_in(
            "notifications",
            doc! { "userId": oid(&author.id), "type": "subscription" },
        )
        .await;
    assert_eq!(notices, 1);

    // The period ends: the billing job renews it through the provider.
    app.end_period(&sub_id).await;
    let ended_at = app
        .subscription_doc(&sub_id)
        .await
        .get_datetime("currentPeriodEnd")
        .unwrap()
        .to_owned();
    let report = app.run_billing_at(mongodb::bson::DateTime::now()).await;
    assert_eq!(report.renewed, 1, "{report:?}");
    let renewed = app.subscription_doc(&sub_id).await;
    assert_eq!(renewed.get_str("status").unwrap(), "active");
    // The next period starts where the last one ended and lasts a month.
    let next_end = renewed
        .get_datetime("currentPeriodEnd")
        .unwrap()
        .timestamp_millis();
    let days = (next_end - ended_at.timestamp_millis()) / 86_400_000;
    assert!((28..=31).contains(&days), "{days} days");
    assert_eq!(
        renewed.get_datetime("currentPeriodStart").unwrap(),
        &ended_at
    );
    assert_eq!(
        app.count_in(
            "payments",
            doc! { "subscriptionId": oid(&sub_id), "status": "succeeded" }
        )
        .await,
        2
    );
    // Running it again renews nothing more.
    let again = app.run_billing_at(mongodb::bson::DateTime::now()).await;
    assert_eq!(again.renewed, 0);

    // Refunded within the window: access ends at once.
    let res = app
        .patch_json(
            &format!("/api/subscription/subscriptions/{sub_id}/refund"),
            &json!({ "reason": "Changed my mind" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let refunded = json_of(res).await;
    assert_eq!(refunded["message"], "Subscription refunded successfully");
    assert_eq!(refunded["subscription"]["status"], "refunded");
    assert_eq!(refunded["subscription"]["hasAccess"], false);
    assert_eq!(refunded["refund"]["amount"], 2000);
    let res = app
        .patch_json(
            &format!("/api/subscription/subscriptions/{sub_id}/refund"),
            &json!({ "reason": "Again" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "This payment has already been refunded"
    );
    let res = app
        .post_json(
            "/api/subscription/status",
            &json!({ "userId": reader.id, "authorId": author.id }),
            Some(&reader.token),
        )
        .await;
    let status = json_of(res).await;
    assert_eq!(status["isSubscribed"], false);
    assert_eq!(status["status"], "refunded");

    // The plan's analytics show the same money and the history.
    let res = app
        .get(
            &format!("/api/subscription/plans/{plan_id}/analytics"),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let stats = json_of(res).await;
    assert_eq!(
        stats["revenue"],
        json!({ "gross": 4000, "fees": 200, "refunds": 2000, "net": 1800 }),
        "{stats}"
    );
    assert_eq!(
        (
            stats["refunds"].as_i64(),
            stats["renewals"].as_i64(),
            stats["cancellations"].as_i64()
        ),
        (Some(1), Some(1), Some(0))
    );
    assert_eq!(
        (
            stats["activeSubscribers"].as_i64(),
            stats["totalSubscribers"].as_i64()
        ),
        (Some(0), Some(1))
    );
    let months = stats["monthly"].as_array().unwrap();
    assert_eq!(months.len(), 12);
    assert_eq!(months[11]["newSubscribers"], 1);
    assert_eq!(months[11]["gross"], 4000);

    // Earnings: two charges of 20.00, fee 10 %, one refunded (with its fee).
    let row = app.earnings_of(&admin, &author).await;
    assert_eq!(row["gross"], 4000, "{row}");
    assert_eq!(row["fees"], 200, "{row}");
    assert_eq!(row["refunds"], 2000, "{row}");
    assert_eq!(row["paidOut"], 0, "{row}");
    assert_eq!(row["availableBalance"], 1800, "{row}");
    assert_eq!(row["hasBankDetails"], false);

    // Without bank details the payout is skipped; with them it is paid once.
    let res = app
        .post_json(
            "/api/earning/admin/payouts",
            &json!({ "users": [author.id] }),
            Some(&admin.token),
        )
        .await;
    let skipped = json_of(res).await;
    assert_eq!(skipped["results"][0]["status"], "skipped");
    assert_eq!(skipped["results"][0]["reason"], "No bank details on file");
    let res = app
        .post_json(
            "/api/payment/bank-details",
            &bank_body(),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let bank = json_of(res).await;
    assert_eq!(bank["message"], "Bank details created successfully");
    assert_eq!(bank["bankDetails"]["accountLast4"], "6789");
    assert!(!bank.to_string().contains("000123456789"), "{bank}");
    let res = app
        .post_json(
            "/api/earning/admin/payouts",
            &json!({ "users": [author.id] }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let paid = json_of(res).await;
    assert_eq!(paid["results"][0]["status"], "paid", "{paid}");
    assert_eq!(paid["results"][0]["amount"], 1800);
    assert_eq!(paid["mode"], "test");
    // The same request again pays nothing more.
    let res = app
        .post_json(
            "/api/earning/admin/payouts",
            &json!({ "users": [author.id] }),
            Some(&admin.token),
        )
        .await;
    let again = json_of(res).await;
    assert_eq!(again["results"][0]["status"], "skipped", "{again}");
    assert_eq!(again["results"][0]["reason"], "Nothing to pay out");
    assert_eq!(
        app.count_in("payouts", doc! { "authorId": oid(&author.id) })
            .await,
        1
    );
    let row = app.earnings_of(&admin, &author).await;
    assert_eq!(row["paidOut"], 1800);
    assert_eq!(row["availableBalance"], 0);
    assert_eq!(row["hasBankDetails"], true);
}

#[actix_web::test]
async fn deleting_an_author_refunds_their_subscribers_and_keeps_the_books() {
    let app = spawn_app().await;
    app.money_ready().await;
    let admin = app.admin().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 1500).await;
    let sub = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let res = app
        .post_json(
            "/api/payment/bank-details",
            &bank_body(),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);

    let res = app
        .delete(
            &format!("/api/admin/users/{}", author.id),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);

    let doc = app.subscription_doc(&sub).await;
    assert_eq!(doc.get_str("status").unwrap(), "refunded");
    assert_eq!(
        doc.get_object_id("authorId").unwrap(),
        oid(&author.id),
        "the books keep the id"
    );
    let plan_doc = app.find_doc("plans", doc! {}).await;
    assert!(plan_doc.get_bool("isDeleted").unwrap());
    assert_eq!(app.count_in("bank_details", doc! {}).await, 0);
    assert_eq!(
        app.count_in("ledger", doc! { "authorId": oid(&author.id) })
            .await,
        2,
        "charge and refund stay"
    );
    let row = app.earnings_of(&admin, &author).await;
    assert_eq!(row["name"], "Deleted user");
    assert_eq!(row["availableBalance"], 0);
    // The reader is free to subscribe elsewhere and is not charged again.
    let res = app
        .post_json(
            "/api/subscription/status",
            &json!({ "userId": reader.id, "authorId": author.id }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(json_of(res).await["isSubscribed"], false);
}

#[actix_web::test]
async fn an_author_who_deletes_their_own_account_refunds_their_subscribers_after_the_grace_period()
{
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| {
            s.accounts.deletion_grace_seconds = 2;
            s.accounts.deletion_check_seconds = 1;
        })),
        ..Default::default()
    })
    .await;
    app.money_ready().await;
    let admin = app.admin().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 1500).await;
    let sub = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;

    let res = app
        .post_json(
            "/api/user/delete-account",
            &json!({ "password": PASSWORD }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    // During the grace period nothing of the money changes.
    assert_eq!(app.sub_status(&sub).await, "active");

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while app.count_in("users", doc! { "_id": oid(&author.id) }).await > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the account was not removed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }

    // The same rules as an administrator's removal: the subscription is refunded, the plan
    // retired, the books keep the charge and the refund under the author's id.
    let doc = app.subscription_doc(&sub).await;
    assert_eq!(doc.get_str("status").unwrap(), "refunded");
    assert_eq!(doc.get_object_id("authorId").unwrap(), oid(&author.id));
    let plan_doc = app.find_doc("plans", doc! {}).await;
    assert!(plan_doc.get_bool("isDeleted").unwrap());
    assert_eq!(
        app.count_in("ledger", doc! { "authorId": oid(&author.id) })
            .await,
        2,
        "charge and refund stay"
    );
    assert_eq!(
        app.count_in("refunds", doc! {}).await,
        1,
        "the subscriber is refunded once"
    );
    let row = app.earnings_of(&admin, &author).await;
    assert_eq!(row["name"], "Deleted user");
    assert_eq!(row["availableBalance"], 0);
    let res = app
        .post_json(
            "/api/subscription/status",
            &json!({ "userId": reader.id, "authorId": author.id }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(json_of(res).await["isSubscribed"], false);
}

#[actix_web::test]
async fn unsubscribing_from_an_author_cancels_only_that_authors_subscription() {
    let app = spawn_app().await;
    app.money_ready().await;
    let first = app.eligible_author().await;
    let second = app.eligible_author().await;
    let reader = app.signup().await;
    let plan_a = app.create_plan(&first, 1000).await;
    let plan_b = app.create_plan(&second, 1200).await;
    let sub_a = app
        .subscribed(&reader, plan_a["_id"].as_str().unwrap())
        .await;
    let sub_b = app
        .subscribed(&reader, plan_b["_id"].as_str().unwrap())
        .await;

    let res = app
        .post_json(
            "/api/subscription/unsubscribe/author",
            &json!({ "authorId": first.id, "userId": reader.id }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    assert_eq!(body["message"], "Unsubscribed successfully");
    assert_eq!(body["cancelled"], 1);
    assert_eq!(body["subscriptions"][0]["subscriptionId"], sub_a.as_str());
    assert_eq!(body["subscriptions"][0]["status"], "cancelled");
    assert_eq!(body["mode"], "test");
    // Paid time is kept: still readable until the period ends, and not renewed.
    let res = app
        .post_json(
            "/api/subscription/status",
            &json!({ "userId": reader.id, "authorId": first.id }),
            Some(&reader.token),
        )
        .await;
    let status = json_of(res).await;
    assert_eq!(
        (status["isSubscribed"].clone(), status["status"].clone()),
        (json!(true), json!("cancelled"))
    );
    assert_eq!(app.sub_status(&sub_b).await, "active");
    // Again: nothing left to cancel, still a success.
    let res = app
        .post_json(
            "/api/subscription/unsubscribe/author",
            &json!({ "authorId": first.id }),
            Some(&reader.token),
        )
        .await;
    let again = json_of(res).await;
    assert_eq!(again["message"], "Unsubscribed successfully");
    assert_eq!(again["cancelled"], 0);
    // The period ends: that subscription expires instead of renewing; the other one renews.
    app.end_period(&sub_a).await;
    app.end_period(&sub_b).await;
    let report = app.run_billing_at(mongodb::bson::DateTime::now()).await;
    assert_eq!((report.expired, report.renewed), (1, 1), "{report:?}");
    assert_eq!(app.sub_status(&sub_a).await, "expired");
    let res = app
        .post_json(
            "/api/subscription/status",
            &json!({ "userId": reader.id, "authorId": first.id }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(json_of(res).await["isSubscribed"], false);
    // Only the other author was charged again.
    assert_eq!(
        app.count_in("payments", doc! { "subscriberId": oid(&reader.id) })
            .await,
        3
    );
}

#[actix_web::test]
async fn refusals_own_plan_deleted_plan_declined_card_and_a_closed_refund_window() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let plan = app.create_plan(&author, 1000).await;
    let plan_id = plan["_id"].as_str().unwrap().to_string();

    // One's own plan.
    let res = app.subscribe(&author, &plan_id).await;
    assert_eq!(
        assert_error(res, StatusCode::BAD_REQUEST).await,
        "You cannot subscribe to your own plan"
    );
    // A declined card: 402 with the bank's words, the attempt is recorded as failed, nothing
    // is credited, and the reader may try again with another card.
    let res = app
        .post_json(
            "/api/subscription/subscribe",
            &json!({ "planId": plan_id, "paymentMethodId": "pm_card_chargeDeclined" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::PAYMENT_REQUIRED).await,
        "Your card was declined."
    );
    let failed = app
        .find_doc("subscriptions", doc! { "subscriberId": oid(&reader.id) })
        .await;
    assert_eq!(failed.get_str("status").unwrap(), "failed");
    assert_eq!(app.count_in("ledger", doc! {}).await, 0);
    let res = app
        .post_json(
            "/api/subscription/subscribe",
            &json!({ "planId": plan_id, "paymentMethodId": "pm_card_visa" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let sub = json_of(res).await["subscription"]["subscriptionId"]
        .as_str()
        .unwrap()
        .to_string();

    // A deleted plan takes no new subscribers (the existing one keeps its access).
    let res = app
        .delete(
            &format!("/api/subscription/plans/{plan_id}"),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let late = app.signup().await;
    let res = app.subscribe(&late, &plan_id).await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "This plan is not available for new subscribers"
    );
    assert_eq!(app.sub_status(&sub).await, "active");

    // The charge is 8 days old: the 7-day refund window has closed, for the reader and for an
    // administrator alike, and nothing is refunded.
    app.collection("payments")
        .update_many(
            doc! { "subscriptionId": oid(&sub) },
            doc! { "$set": { "createdAt": mongodb::bson::DateTime::from_millis(
            mongodb::bson::DateTime::now().timestamp_millis() - 8 * 86_400_000) } },
        )
        .await
        .unwrap();
    for who in [&reader, &admin] {
        let res = app
            .patch_json(
                &format!("/api/subscription/subscriptions/{sub}/refund"),
                &json!({ "reason": "Too late" }),
                Some(&who.token),
            )
            .await;
        assert_eq!(
            assert_error(res, StatusCode::CONFLICT).await,
            "The refund window has closed: a payment can be refunded within 7 days"
        );
    }
    assert_eq!(app.count_in("refunds", doc! {}).await, 0);
    assert_eq!(app.sub_status(&sub).await, "active");
}
