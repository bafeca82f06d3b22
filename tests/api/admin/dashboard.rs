//! The figures the web dashboards open with: the administrators' overview and an author's own
//! earnings.

use mongodb::bson::{doc, DateTime};
use reqwest::StatusCode;
use serde_json::json;

use crate::support::content::*;
use crate::support::money::*;
use crate::support::*;

#[actix_web::test]
async fn the_overview_counts_todays_signups_posts_reports_and_what_waits_for_an_administrator() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    // An account and a post from yesterday are not today's.
    let old = app.signup().await;
    let yesterday = DateTime::from_millis(DateTime::now().timestamp_millis() - 26 * 3600 * 1000);
    app.collection("users")
        .update_one(
            doc! { "_id": oid(&old.id) },
            doc! { "$set": { "createdAt": yesterday } },
        )
        .await
        .unwrap();
    let post = publish(&app, &author, "Counted", "x").await;
    let old_post = publish(&app, &author, "Yesterday's", "x").await;
    app.collection("posts")
        .update_one(
            doc! { "_id": oid(old_post["_id"].as_str().unwrap()) },
            doc! { "$set": { "createdAt": yesterday } },
        )
        .await
        .unwrap();
    for subject in ["One", "Two"] {
        let res = app
            .post_json(
                "/api/admin/contact",
                &json!({ "name": "A", "email": unique_email(), "subject": subject, "message": "m" }),
                None,
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
    }
    let res = app
        .post_json(
            "/api/admin/reports",
            &json!({ "postId": post["_id"], "reason": "spam" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);

    let overview = get_ok(&app, "/api/admin/overview", Some(&admin.token)).await;
    // admin, author, reader today; `old` yesterday.
    assert_eq!(overview["today"]["signups"], 3, "{overview}");
    assert_eq!(overview["today"]["posts"], 1, "{overview}");
    assert_eq!(overview["today"]["reports"], 1);
    assert_eq!(overview["today"]["contactMessages"], 2);
    assert_eq!(overview["unreadContactMessages"], 2);
    assert_eq!(overview["openReports"], 1);
    assert_eq!(overview["pendingAppeals"], 0);
    assert_eq!(overview["totals"]["users"], 4);
    assert_eq!(overview["totals"]["posts"], 2);
    assert!(overview["online"]["count"].is_u64());
    assert!(overview["today"]["since"]
        .as_str()
        .unwrap()
        .ends_with("T00:00:00Z"));

    // Handling a message and reviewing the report leave nothing waiting.
    let messages = get_ok(&app, "/api/admin/contact-messages", Some(&admin.token)).await;
    let id = messages["messages"][0]["_id"].as_str().unwrap();
    let res = app
        .patch_json(
            &format!("/api/admin/contact-messages/{id}/handled"),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let reports = get_ok(&app, "/api/admin/reports", Some(&admin.token)).await;
    let report = reports["reports"][0]["_id"].as_str().unwrap();
    let res = app
        .patch_json(
            &format!("/api/admin/reports/{report}"),
            &json!({ "forwardToAuthor": false }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let overview = get_ok(&app, "/api/admin/overview", Some(&admin.token)).await;
    assert_eq!(overview["unreadContactMessages"], 1);
    assert_eq!(overview["openReports"], 0);
    assert_eq!(overview["today"]["reports"], 1);
}

#[actix_web::test]
async fn an_author_reads_their_own_balances_and_ledger_newest_first() {
    let app = spawn_app().await;
    app.money_ready().await;
    let admin = app.admin().await;
    let author = app.eligible_author().await;
    let reader = app.signup().await;
    let other = app.signup().await;

    // Nothing yet.
    let empty = get_ok(&app, "/api/earning/my-earnings", Some(&author.token)).await;
    assert_eq!(empty["earnings"], json!([]));
    assert_eq!(empty["entries"], json!([]));
    assert_eq!(empty["total"], 0);
    assert_eq!(empty["hasBankDetails"], false);
    assert_eq!(empty["mode"], "test");

    let plan = app.create_plan(&author, 2000).await;
    let plan_id = plan["_id"].as_str().unwrap();
    let first = app.subscribed(&reader, plan_id).await;
    app.subscribed(&other, plan_id).await;
    let res = app
        .patch_json(
            &format!("/api/subscription/subscriptions/{first}/refund"),
            &json!({ "reason": "Changed my mind" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .post_json(
            "/api/payment/bank-details",
            &bank_body(),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let res = app
        .post_json(
            "/api/earning/admin/payouts",
            &json!({ "users": [author.id] }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["paid"], 1);

    let mine = get_ok(&app, "/api/earning/my-earnings", Some(&author.token)).await;
    let usd = &mine["earnings"][0];
    assert_eq!(usd["currency"], "usd");
    assert_eq!(usd["gross"], 4000);
    assert_eq!(usd["fees"], 200);
    assert_eq!(usd["refunds"], 2000);
    assert_eq!(usd["paidOut"], 1800);
    assert_eq!(usd["availableBalance"], 0);
    // The same figures as the administrators' list.
    let row = app.earnings_of(&admin, &author).await;
    for key in ["gross", "fees", "refunds", "paidOut", "availableBalance"] {
        assert_eq!(usd[key], row[key], "{key}");
    }
    assert_eq!(mine["hasBankDetails"], true);
    assert_eq!(mine["total"], 4);
    let kinds: Vec<&str> = mine["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["payout", "refund", "charge", "charge"]);
    assert_eq!(mine["entries"][0]["amount"], -1800);
    assert_eq!(mine["entries"][3]["planId"], plan_id);

    // Pages of the ledger; someone else sees only their own (nothing).
    let page = get_ok(
        &app,
        "/api/earning/my-earnings?page=2&limit=3",
        Some(&author.token),
    )
    .await;
    assert_eq!(page["entries"].as_array().unwrap().len(), 1);
    assert_eq!(page["totalPages"], 2);
    let theirs = get_ok(&app, "/api/earning/my-earnings", Some(&reader.token)).await;
    assert_eq!(theirs["total"], 0);
    let res = app
        .get("/api/earning/my-earnings?limit=abc", Some(&author.token))
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
}
