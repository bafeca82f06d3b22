//! Eligibility from real metrics, the stored criteria and the administrators' switches.

use mongodb::bson::doc;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::money::*;
use crate::support::*;

async fn eligibility(app: &TestApp, admin: &TestUser, user: &TestUser) -> serde_json::Value {
    let path = format!("/api/admin/subscriptions/eligibility/{}", user.id);
    json_of(app.get(&path, Some(&admin.token)).await).await
}

#[actix_web::test]
async fn criteria_metrics_overrides_and_switches_decide_eligibility() {
    let app = spawn_app().await;
    app.money_ready().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let fan = app.signup().await;

    // Lower the criteria to what a test can reach: 1 follower, 1 post, no engagement, 0 days.
    let res = app
        .patch_json("/api/admin/subscriptions/criteria", &json!({ "minFollowers": 1, "minPosts": 1, "minEngagementRate": 0, "minAccountAgeDays": 0 }), Some(&admin.token))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["criteria"]["minFollowers"], 1);
    let before = eligibility(&app, &admin, &author).await;
    assert_eq!(before["isEligible"], false);
    assert_eq!(before["followerCount"], 0);
    // Real metrics: a follower and a published post.
    app.follow_directly(&fan, &author).await;
    crate::support::content::publish(&app, &author, "Hello", "First post").await;
    let after = eligibility(&app, &admin, &author).await;
    assert_eq!(after["isEligible"], true, "{after}");
    assert_eq!(after["followerCount"], 1);
    assert_eq!(after["postCount"], 1);
    assert_eq!(after["engagementRate"], 0.0);
    let stored = app.find_doc("users", doc! { "_id": oid(&author.id) }).await;
    assert!(
        stored.get_bool("isEligibleForSubscription").unwrap(),
        "the verdict is stored for the users list"
    );

    // A milestone override replaces one metric; a reset clears them all.
    let res = app
        .patch_json(
            &format!("/api/admin/subscriptions/user-milestone/{}", author.id),
            &json!({ "followerCount": 0 }),
            Some(&admin.token),
        )
        .await;
    let body = json_of(res).await;
    assert_eq!(body["eligibility"]["isEligible"], false, "{body}");
    assert_eq!(body["eligibility"]["followerCount"], 0);
    assert_eq!(
        body["overrideInfo"]["milestoneOverride"]["followerCount"],
        0
    );
    let res = app
        .patch_empty(
            &format!(
                "/api/admin/subscriptions/user-milestone-reset/{}",
                author.id
            ),
            Some(&admin.token),
        )
        .await;
    let body = json_of(res).await;
    assert_eq!(
        body["user"]["milestoneOverride"],
        json!({ "followerCount": null, "postCount": null, "engagementRate": null, "accountAgeDays": null })
    );
    assert_eq!(body["eligibility"]["isEligible"], true);

    // Toggle off: the administrator's decision stands over the metrics; grant false hands it back.
    let res = app
        .post_json(
            "/api/admin/subscriptions/eligibility/toggle",
            &json!({ "userId": author.id, "enable": false }),
            Some(&admin.token),
        )
        .await;
    let body = json_of(res).await;
    assert_eq!(body["user"]["bypassSubscriptionCriteria"], true);
    assert_eq!(body["eligibility"]["isEligible"], false);
    let res = app
        .post_json(
            "/api/subscription/plans",
            &json!({ "name": "Gold", "price": 900 }),
            Some(&author.token),
        )
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app
        .post_json(
            "/api/admin/subscriptions/grant",
            &json!({ "userId": author.id, "grant": false }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(json_of(res).await["eligibility"]["isEligible"], true);
    let res = app
        .patch_json(
            &format!("/api/admin/subscriptions/user-override/{}", author.id),
            &json!({ "bypassSubscriptionCriteria": true, "isEligibleForSubscription": true }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(
        json_of(res).await["eligibility"]["message"],
        "Eligible: subscription access granted by an administrator"
    );
    // The author's own check agrees.
    let res = app
        .get("/api/subscription/check-eligibility", Some(&author.token))
        .await;
    assert_eq!(json_of(res).await["isEligible"], true);
    assert!(
        app.count_in(
            "audit_log",
            doc! { "action": { "$regex": "^(eligibility|subscription)\\." } }
        )
        .await
            >= 6
    );
}

#[actix_web::test]
async fn without_stored_criteria_the_check_answers_the_seeds_message() {
    let app = spawn_app().await;
    let user = app.signup().await;
    // Removed only after startup seeded it (in the background on a slow database).
    app.money_ready().await;
    app.collection("subscription_criteria")
        .delete_many(doc! {})
        .await
        .unwrap();
    let res = app
        .get("/api/subscription/check-eligibility", Some(&user.token))
        .await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Subscription configuration not found"
    );
}
