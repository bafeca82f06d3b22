//! Plans as their author and administrators manage them, and the lists readers and authors see.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::*;

async fn ok_json(res: reqwest::Response) -> Value {
    assert_eq!(res.status(), StatusCode::OK);
    json_of(res).await
}

#[actix_web::test]
async fn plans_are_changed_paused_and_listed_and_subscribers_keep_their_price() {
    let app = spawn_app().await;
    app.money_ready().await;
    let author = app.eligible_author().await;
    let admin = app.admin().await;
    let (early, late, refused) = (app.signup().await, app.signup().await, app.signup().await);
    let plan = app.create_plan(&author, 1000).await;
    let id = plan["_id"].as_str().unwrap().to_string();
    assert_eq!(plan["status"], "active");
    assert_eq!(plan["mode"], "test");
    let first = app.subscribed(&early, &id).await;

    // The author raises the price: later subscribers pay the new one, the first keeps his.
    let body = ok_json(
        app.patch_json(
            &format!("/api/subscription/plans/{id}"),
            &json!({ "price": 1500, "benefits": ["Early access", "Monthly call"] }),
            Some(&author.token),
        )
        .await,
    )
    .await;
    assert_eq!(body["message"], "Plan updated successfully");
    assert_eq!(body["plan"]["price"], 1500);
    assert_eq!(body["plan"]["benefits"][1], "Monthly call");
    let second = app.subscribed(&late, &id).await;
    let subs = ok_json(
        app.get(
            &format!("/api/subscription/author/{}/subscriptions", author.id),
            Some(&author.token),
        )
        .await,
    )
    .await;
    assert_eq!(subs["count"], 2);
    let price_of = |sid: &str| {
        subs["subscriptions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["subscriptionId"] == sid)
            .map(|s| s["price"].clone())
            .unwrap()
    };
    assert_eq!(
        (price_of(&first), price_of(&second)),
        (json!(1000), json!(1500))
    );

    // An administrator pauses the plan: it leaves the public list and takes no one new; its
    // subscribers keep their subscriptions.
    let body = ok_json(
        app.patch_json(
            "/api/admin/subscriptions/plan/status",
            &json!({ "planId": id, "status": "inactive" }),
            Some(&admin.token),
        )
        .await,
    )
    .await;
    assert_eq!(body["plan"]["status"], "inactive");
    let public = format!("/api/subscription/plans/author/{}", author.id);
    let listed = ok_json(app.get(&public, None).await).await;
    assert_eq!(listed["count"], 0);
    let res = app.subscribe(&refused, &id).await;
    assert_eq!(
        assert_error(res, StatusCode::CONFLICT).await,
        "This plan is not available for new subscribers"
    );
    assert_eq!(app.sub_status(&first).await, "active");
    let mine = ok_json(
        app.get("/api/subscription/my-plans", Some(&author.token))
            .await,
    )
    .await;
    assert_eq!(mine["count"], 1);
    assert_eq!(mine["plans"][0]["status"], "inactive");

    // The author activates it again.
    let body = ok_json(
        app.post_json(
            &format!("/api/subscription/plans/{id}/activate"),
            &json!({}),
            Some(&author.token),
        )
        .await,
    )
    .await;
    assert_eq!(body["message"], "Plan activated successfully");
    assert_eq!(body["plan"]["status"], "active");
    let listed = ok_json(app.get(&public, None).await).await;
    assert_eq!(listed["count"], 1);
    assert_eq!(listed["plans"][0]["_id"], id.as_str());

    // The administrators' list shows every plan with its author and paging.
    let all = ok_json(
        app.get("/api/admin/subscriptions/plans", Some(&admin.token))
            .await,
    )
    .await;
    assert_eq!(
        (all["count"].clone(), all["total"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(all["plans"][0]["authorId"], author.id.as_str());
    assert_eq!(all["page"], 1);

    // A reader's own subscriptions.
    let own = ok_json(
        app.get("/api/subscription/my-subscriptions", Some(&early.token))
            .await,
    )
    .await;
    assert_eq!(own["count"], 1);
    assert_eq!(own["plans"][0]["subscriptionId"], first.as_str());
    assert_eq!(own["plans"][0]["planId"], id.as_str());
    assert_eq!(own["plans"][0]["authorId"], author.id.as_str());
    assert_eq!(own["plans"][0]["status"], "active");

    // The analytics count both subscribers and both prices.
    let stats = ok_json(
        app.get(
            &format!("/api/subscription/plans/{id}/analytics"),
            Some(&author.token),
        )
        .await,
    )
    .await;
    assert_eq!(stats["activeSubscribers"], 2, "{stats}");
    assert_eq!(stats["revenue"]["gross"], 2500, "{stats}");
}
