//! Counts that pay people cannot be pumped and refunds cannot be looped (docs/refunds.md,
//! docs/decisions.md "Counting engagement").

use mongodb::bson::doc;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;
use crate::money_support::*;

async fn refund(app: &TestApp, sub: &str, reader: &TestUser) -> reqwest::Response {
    app.patch_json(
        &format!("/api/subscription/subscriptions/{sub}/refund"),
        &json!({ "reason": "Not for me" }),
        Some(&reader.token),
    )
    .await
}

#[actix_web::test]
async fn the_refund_loop_is_closed_once_per_plan_and_once_per_author_in_90_days() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let gold = app.create_plan(&author, 2000).await["_id"]
        .as_str()
        .unwrap()
        .to_string();

    // Subscribe, refund: fine the first time.
    let first = app.subscribed(&reader, &gold).await;
    assert_eq!(refund(&app, &first, &reader).await.status(), StatusCode::OK);

    // Another plan of the same author: refused within 90 days of the first refund, saying why.
    let res = app
        .post_json(
            "/api/subscription/plans",
            &json!({ "name": "Silver", "price": 900, "currency": "usd", "interval": "month" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let silver = json_of(res).await["plan"]["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let second = app.subscribed(&reader, &silver).await;
    let message = assert_error(refund(&app, &second, &reader).await, StatusCode::CONFLICT).await;
    assert!(
        message.starts_with("You were refunded a subscription to this author on ")
            && message.contains(
                "refunds are limited to one per author every 90 days, so the next is possible from "
            ),
        "{message}"
    );
    assert_eq!(app.sub_status(&second).await, "active");
    assert_eq!(app.count_in("refunds", doc! {}).await, 1);

    // 91 days after the first refund the other plan may be refunded.
    let old = mongodb::bson::DateTime::from_millis(
        mongodb::bson::DateTime::now().timestamp_millis() - 91 * 86_400_000,
    );
    app.collection("refunds")
        .update_many(doc! {}, doc! { "$set": { "createdAt": old } })
        .await
        .unwrap();
    assert_eq!(refund(&app, &second, &reader).await.status(), StatusCode::OK);

    // The first plan never again: subscribe to it anew, the refund is refused.
    let third = app.subscribed(&reader, &gold).await;
    let message = assert_error(refund(&app, &third, &reader).await, StatusCode::CONFLICT).await;
    assert!(
        message.starts_with("This plan was already refunded to you on ")
            && message.ends_with(
                "a plan is refunded at most once, so this subscription cannot be refunded"
            ),
        "{message}"
    );
    assert_eq!(app.sub_status(&third).await, "active");

    // Another reader is not affected.
    let other = app.signup().await;
    let theirs = app.subscribed(&other, &gold).await;
    assert_eq!(refund(&app, &theirs, &other).await.status(), StatusCode::OK);
}
