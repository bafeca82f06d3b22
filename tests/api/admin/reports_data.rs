//! Site analytics by date range and the Excel export (seed 001 §7: `GET /admin/analytics`,
//! `GET /admin/download-csv`).

use std::io::Cursor;

use calamine::{open_workbook_from_rs, Data, Reader, Xlsx};
use reqwest::StatusCode;
use serde_json::json;

use crate::support::content::*;
use crate::support::engagement::post_ok;
use crate::support::*;

async fn view(app: &TestApp, slug: &str, token: Option<&str>, guest: Option<&str>) {
    let body = guest.map_or(json!({}), |g| json!({ "guestId": g }));
    let path = match token {
        Some(_) => format!("/api/post/view/{slug}"),
        None => format!("/api/public/post/{slug}/view"),
    };
    let res = app.post_json(&path, &body, token).await;
    assert_eq!(res.status(), StatusCode::OK, "view of {slug}");
}

#[actix_web::test]
async fn analytics_count_visits_time_readers_and_posts_in_the_range() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let other_author = app.signup().await;
    let reader = app.signup().await;
    let popular = publish(&app, &author, "Popular", "x").await;
    let quiet = publish(&app, &other_author, "Quiet", "x").await;
    let popular_slug = popular["slug"].as_str().unwrap();
    view(&app, popular_slug, Some(&reader.token), None).await;
    view(&app, popular_slug, None, Some("guest-one")).await;
    view(
        &app,
        quiet["slug"].as_str().unwrap(),
        None,
        Some("guest-one"),
    )
    .await;
    // The author's own view is not counted.
    view(&app, popular_slug, Some(&author.token), None).await;
    post_ok(
        &app,
        &format!("/api/post/time-spent/{}", popular["_id"].as_str().unwrap()),
        &json!({ "duration": 45 }),
        Some(&reader.token),
    )
    .await;
    let res = app
        .post_json(
            "/api/public/guest/visit",
            &json!({ "guestId": "guest-one" }),
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);

    let body = get_ok(&app, "/api/admin/analytics", Some(&admin.token)).await;
    let data = &body["data"];
    let traffic = &data["traffic"];
    assert_eq!(traffic["postViews"], 3);
    assert_eq!(traffic["guestVisits"], 1);
    assert_eq!(traffic["totalVisits"], 4);
    assert_eq!(traffic["totalTimeSpent"], 45);
    assert_eq!(
        traffic["uniqueUsersCount"], 1,
        "the reader; guests are not users"
    );
    assert_eq!(
        traffic["uniqueVisitorsCount"], 2,
        "the reader and the guest"
    );
    assert_eq!(traffic["uniquePostsCount"], 2);
    assert_eq!(data["topPosts"][0]["title"], "Popular");
    assert_eq!(data["topPosts"][0]["views"], 2);
    assert_eq!(data["topPosts"][0]["timeSpent"], 45);
    assert_eq!(data["topUsers"][0]["_id"], author.id);
    assert_eq!(data["topUsers"][0]["views"], 2);
    assert_eq!(data["topUsers"][1]["_id"], other_author.id);
    // The default range is the last 30 days: one entry per day, today last.
    let series = data["series"].as_array().unwrap();
    assert_eq!(series.len(), 31);
    let today = chrono::Utc::now().date_naive().to_string();
    let last = series.last().unwrap();
    assert_eq!(last["date"], today);
    assert_eq!(last["views"], 3);
    assert_eq!(last["guestVisits"], 1);
    assert_eq!(last["visits"], 4);
    assert_eq!(last["timeSpent"], 45);
    assert_eq!(last["uniqueUsers"], 1);
    assert_eq!(series[0]["visits"], 0);

    // A range without traffic.
    let yesterday = chrono::Utc::now().date_naive().pred_opt().unwrap();
    let empty = get_ok(
        &app,
        &format!("/api/admin/analytics?startDate={yesterday}&endDate={yesterday}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(empty["data"]["traffic"]["totalVisits"], 0);
    assert_eq!(empty["data"]["series"].as_array().unwrap().len(), 1);
    assert_eq!(empty["data"]["topPosts"], json!([]));
    let today_only = get_ok(
        &app,
        &format!("/api/admin/analytics?startDate={today}&endDate={today}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(today_only["data"]["traffic"]["totalVisits"], 4);

    for (query, word) in [
        ("startDate=yesterday", "startDate"),
        ("endDate=31-12-2024", "endDate"),
        ("startDate=2024-05-02&endDate=2024-05-01", "before"),
        ("startDate=2022-01-01&endDate=2024-01-01", "year"),
    ] {
        let msg = assert_error(
            app.get(&format!("/api/admin/analytics?{query}"), Some(&admin.token))
                .await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert!(msg.contains(word), "{query}: {msg}");
    }
}

fn rows(workbook: &mut Xlsx<Cursor<Vec<u8>>>, sheet: &str) -> Vec<Vec<String>> {
    let range = workbook.worksheet_range(sheet).expect("the sheet");
    range
        .rows()
        .map(|r| {
            r.iter()
                .map(|c| match c {
                    Data::String(s) => s.clone(),
                    Data::Float(f) => f.to_string(),
                    Data::Int(i) => i.to_string(),
                    Data::Bool(b) => b.to_string(),
                    _ => String::new(),
                })
                .collect()
        })
        .collect()
}

#[actix_web::test]
async fn the_export_is_a_workbook_of_users_posts_and_engagement() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = publish(&app, &author, "Exported post", "x").await;
    let id = post["_id"].as_str().unwrap();
    publish(&app, &author, "Second post", "x").await;
    create_post(
        &app,
        &author.token,
        with(post_body("A draft", "x"), json!({ "status": "draft" })),
    )
    .await;
    for path in [
        format!("/api/post/like/{id}"),
        format!("/api/post/bookmark/{id}"),
    ] {
        post_ok(&app, &path, &json!({}), Some(&reader.token)).await;
    }
    post_ok(
        &app,
        &format!("/api/post/like/{id}"),
        &json!({}),
        Some(&admin.token),
    )
    .await;
    let res = app
        .post_json(
            &format!("/api/comment/add-comment/{id}"),
            &json!({ "content": "Nice" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    post_ok(&app, &format!("/api/post/{id}/share"), &json!({}), None).await;

    assert_error(
        app.get("/api/admin/download-csv", None).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_error(
        app.get("/api/admin/download-csv", Some(&reader.token))
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;
    let res = app.get("/api/admin/download-csv", Some(&admin.token)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let headers = res.headers().clone();
    assert_eq!(
        headers["content-type"],
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    assert_eq!(
        headers["content-disposition"],
        "attachment; filename=\"pressroom-export.xlsx\""
    );
    let bytes = res.bytes().await.unwrap().to_vec();
    let mut workbook: Xlsx<_> = open_workbook_from_rs(Cursor::new(bytes)).expect("an xlsx file");
    assert_eq!(workbook.sheet_names(), ["Users", "Posts", "Engagement"]);

    let users = rows(&mut workbook, "Users");
    assert_eq!(users[0][..3], ["ID", "Name", "Email"]);
    assert_eq!(users.len(), 1 + 3, "a header and three users");
    assert!(users.iter().any(|r| r[2] == admin.email && r[3] == "admin"));
    assert!(users.iter().all(|r| r.len() == 9));

    let posts = rows(&mut workbook, "Posts");
    assert_eq!(posts.len(), 1 + 3, "every post, the draft too");
    let exported = posts.iter().find(|r| r[0] == id).expect("the post");
    assert_eq!(exported[1], "Exported post");
    assert_eq!(exported[4], "Ada Lovelace");
    assert_eq!(exported[10], "2", "two likes");
    assert!(posts.iter().any(|r| r[5] == "draft"));

    let engagement = rows(&mut workbook, "Engagement");
    assert_eq!(
        engagement.len(),
        1 + 5,
        "2 likes, a bookmark, a comment, a share"
    );
    let kinds: Vec<&str> = engagement[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(kinds, ["like", "like", "bookmark", "comment", "share"]);
    let comment = &engagement[4];
    assert_eq!(comment[2], "Exported post");
    assert_eq!(comment[5], reader.email);
    assert_eq!(engagement[5][3], "", "a guest's share has no user");

    let log = get_ok(&app, "/api/admin/audit-log", Some(&admin.token)).await;
    assert_eq!(log["logs"][0]["action"], "data.export");
    assert_eq!(log["logs"][0]["details"]["engagement"], 5);
}
