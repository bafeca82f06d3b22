//! Renewals, grace, expiry and reminders, driven by running the billing job at chosen times.

use mongodb::bson::{doc, DateTime};
use reqwest::StatusCode;
use serde_json::json;

use crate::support::money::*;
use crate::support::*;

const DAY: i64 = 86_400_000;

fn days_from_now(days: i64) -> DateTime {
    DateTime::from_millis(DateTime::now().timestamp_millis() + days * DAY)
}

async fn status(app: &TestApp, reader: &TestUser, author: &TestUser) -> serde_json::Value {
    let body = json!({ "userId": reader.id, "authorId": author.id });
    json_of(
        app.post_json("/api/subscription/status", &body, Some(&reader.token))
            .await,
    )
    .await
}

#[actix_web::test]
async fn a_failed_renewal_is_past_due_keeps_access_through_the_grace_then_ends() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 800).await;
    let sub = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    // The saved card starts declining; the period ends.
    app.collection("subscriptions")
        .update_one(
            doc! { "_id": oid(&sub) },
            doc! { "$set": { "paymentMethod": "pm_card_chargeDeclined" } },
        )
        .await
        .unwrap();
    app.end_period(&sub).await;
    let report = app.run_billing_at(DateTime::now()).await;
    assert_eq!(report.renewals_failed, 1, "{report:?}");
    let doc = app.subscription_doc(&sub).await;
    assert_eq!(doc.get_str("status").unwrap(), "past_due");
    let now = status(&app, &reader, &author).await;
    assert_eq!(
        now["isSubscribed"], true,
        "access continues during the grace period"
    );
    assert_eq!(now["status"], "past_due");
    // The same day nothing is charged again.
    app.run_billing_at(DateTime::now()).await;
    assert_eq!(
        app.count_in(
            "payments",
            doc! { "subscriptionId": oid(&sub), "status": "failed" }
        )
        .await,
        1
    );
    // A day later it is tried again (still declined); after the grace it ends.
    app.run_billing_at(days_from_now(1)).await;
    assert_eq!(
        app.count_in(
            "payments",
            doc! { "subscriptionId": oid(&sub), "status": "failed" }
        )
        .await,
        2
    );
    let report = app.run_billing_at(days_from_now(4)).await;
    assert_eq!(report.expired, 1, "{report:?}");
    assert_eq!(app.sub_status(&sub).await, "expired");
    assert_eq!(
        app.count_in("ledger", doc! { "authorId": oid(&author.id) })
            .await,
        1,
        "only the first charge was credited"
    );
    // Ended: the reader may subscribe again.
    let res = app.subscribe(&reader, plan["_id"].as_str().unwrap()).await;
    assert_eq!(res.status(), StatusCode::CREATED);
}

#[actix_web::test]
async fn a_past_due_subscription_that_pays_again_is_active_for_the_next_period() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let plan = app.create_plan(&author, 800).await;
    let sub = app.subscribed(&reader, plan["_id"].as_str().unwrap()).await;
    let subs = app.collection("subscriptions");
    subs.update_one(
        doc! { "_id": oid(&sub) },
        doc! { "$set": { "paymentMethod": "pm_card_chargeDeclined" } },
    )
    .await
    .unwrap();
    app.end_period(&sub).await;
    app.run_billing_at(DateTime::now()).await;
    subs.update_one(
        doc! { "_id": oid(&sub) },
        doc! { "$set": { "paymentMethod": "pm_card_visa" } },
    )
    .await
    .unwrap();
    let report = app.run_billing_at(days_from_now(1)).await;
    assert_eq!(report.renewed, 1, "{report:?}");
    let doc = app.subscription_doc(&sub).await;
    assert_eq!(doc.get_str("status").unwrap(), "active");
    assert_eq!(doc.get("graceEndsAt"), Some(&mongodb::bson::Bson::Null));
}

#[actix_web::test]
async fn cancelled_and_deleted_plan_subscriptions_keep_access_to_period_end_then_expire_unrenewed()
{
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let plan = app.create_plan(&author, 800).await;
    let plan_id = plan["_id"].as_str().unwrap().to_string();
    let (one, two) = (app.signup().await, app.signup().await);
    let cancelled = app.subscribed(&one, &plan_id).await;
    let orphaned = app.subscribed(&two, &plan_id).await;
    let res = app
        .patch_empty(
            &format!("/api/subscription/subscriptions/{cancelled}/cancel"),
            Some(&one.token),
        )
        .await;
    let body = json_of(res).await;
    assert_eq!(body["message"], "Subscription cancelled successfully");
    assert_eq!(body["subscription"]["status"], "cancelled");
    assert_eq!(body["subscription"]["hasAccess"], true);
    // Cancelling again answers the same.
    let res = app
        .patch_empty(
            &format!("/api/subscription/subscriptions/{cancelled}/cancel"),
            Some(&one.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .delete(
            &format!("/api/subscription/plans/{plan_id}"),
            Some(&author.token),
        )
        .await;
    let deleted = json_of(res).await;
    assert_eq!(deleted["plan"]["isDeleted"], true);
    // The deleted plan is gone from the public list, still in my-plans?includeDeleted=true.
    let res = app
        .get(
            &format!("/api/subscription/plans/author/{}", author.id),
            None,
        )
        .await;
    assert_eq!(json_of(res).await["count"], 0);
    let res = app
        .get(
            "/api/subscription/my-plans?includeDeleted=true",
            Some(&author.token),
        )
        .await;
    assert_eq!(json_of(res).await["count"], 1);
    let res = app
        .get("/api/subscription/my-plans", Some(&author.token))
        .await;
    assert_eq!(json_of(res).await["count"], 0);
    // New subscribers are refused; the existing ones still read until the period ends.
    let three = app.signup().await;
    let res = app.subscribe(&three, &plan_id).await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "This plan is not available for new subscribers"
    );
    app.end_period(&cancelled).await;
    app.end_period(&orphaned).await;
    let report = app.run_billing_at(DateTime::now()).await;
    assert_eq!((report.renewed, report.expired), (0, 2), "{report:?}");
    assert_eq!(app.sub_status(&cancelled).await, "expired");
    assert_eq!(app.sub_status(&orphaned).await, "expired");
    assert_eq!(
        app.count_in("payments", doc! { "kind": "renewal" }).await,
        0,
        "nothing was charged again"
    );
}

#[actix_web::test]
async fn renewal_reminders_go_once_per_period_to_readers_renewing_within_three_days() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let admin = app.admin().await;
    let plan = app.create_plan(&author, 800).await;
    let plan_id = plan["_id"].as_str().unwrap().to_string();
    let soon = app.signup().await;
    let later = app.signup().await;
    let soon_sub = app.subscribed(&soon, &plan_id).await;
    app.subscribed(&later, &plan_id).await;
    app.collection("subscriptions")
        .update_one(
            doc! { "_id": oid(&soon_sub) },
            doc! { "$set": { "currentPeriodEnd": days_from_now(2) } },
        )
        .await
        .unwrap();
    let before = app.mail_count(&soon.email);
    let res = app
        .post_empty("/api/subscription/reminders", Some(&admin.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = json_of(res).await;
    assert_eq!(body["message"], "Renewal reminders sent successfully");
    assert_eq!(body["sent"], 1, "{body}");
    let mail = app.wait_for_mail(&soon.email, before).await;
    assert!(mail.contains("renews on"), "{mail}");
    assert!(mail.contains("8.00 USD"), "{mail}");
    assert!(mail.contains("Test mode"), "{mail}");
    let again = json_of(
        app.post_empty("/api/subscription/reminders", Some(&admin.token))
            .await,
    )
    .await;
    assert_eq!(
        (again["sent"].as_i64(), again["alreadySent"].as_i64()),
        (Some(0), Some(1)),
        "{again}"
    );
    assert_eq!(app.mail_count(&soon.email), before + 1);
    assert_eq!(app.mail_count(&later.email), 0);
    assert_eq!(
        app.count_in("email_logs", doc! { "type": "renewal_reminder" })
            .await,
        1
    );
}
