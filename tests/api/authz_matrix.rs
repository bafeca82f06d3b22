//! The authorization matrix, built from the route table: every route is called as a guest, a
//! user, a blocked user and an administrator, and each answer is held to what the route's access
//! class promises. A route cannot be added to the table without an access class, so a new route
//! is in this matrix from its first day. Object-level checks follow: another user changing an id
//! reaches nothing of the owner's.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::content::{create_post, post_body, with};
use crate::helpers::*;
use pressroom::routes::openapi::{Access, ROUTES};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    Guest,
    User,
    Blocked,
    Admin,
}

/// What a role may get from a route of an access class: `Err` names the rule broken.
fn expect(access: Access, role: Role, status: StatusCode, code: &str) -> Result<(), String> {
    if status.is_server_error() {
        return Err(format!("{status} is a server error"));
    }
    match (access, role) {
        (Access::User | Access::Admin, Role::Guest) if status != StatusCode::UNAUTHORIZED => {
            Err(format!("a guest must get 401, got {status}"))
        }
        // A body the route cannot read is refused before the account is looked up; that answer
        // tells nothing and changes nothing, so it is allowed here.
        (Access::User | Access::Admin, Role::Blocked)
            if (status != StatusCode::UNAUTHORIZED || code != "account_blocked")
                && !(status == StatusCode::BAD_REQUEST && code == "validation_error") =>
        {
            Err(format!(
                "a blocked user must get 401 account_blocked, got {status} {code}"
            ))
        }
        (Access::Admin, Role::User) if status != StatusCode::FORBIDDEN => Err(format!(
            "a user must get 403 from an administrators' route, got {status}"
        )),
        (Access::Admin, Role::Admin) | (Access::User, Role::User | Role::Admin)
            if status == StatusCode::UNAUTHORIZED
                || (status == StatusCode::FORBIDDEN
                    && code == "forbidden"
                    && access == Access::Admin) =>
        {
            Err(format!(
                "a signed-in caller allowed here got {status} {code}"
            ))
        }
        (Access::Public, _) if code == "unauthenticated" => {
            Err(format!("a public route asked for a session ({status})"))
        }
        _ => Ok(()),
    }
}

/// The path with each `{param}` replaced by a fresh object id (nobody's object).
fn concrete(path: &str) -> String {
    let id = mongodb::bson::oid::ObjectId::new().to_hex();
    path.split('/')
        .map(|seg| {
            if seg.starts_with('{') {
                id.as_str()
            } else {
                seg
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Routes that end the caller's session.
const SESSION_ENDERS: [&str; 2] = ["/api/auth/logout-all", "/api/auth/logout"];

#[actix_web::test]
async fn every_route_answers_each_role_as_its_access_class_says() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let blocked = app.signup().await;
    let admin = app.admin().await;
    let res = app
        .patch_json(
            &format!("/api/admin/users/block/{}", blocked.id),
            &json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK, "blocking the user");

    let routes: Vec<_> = ROUTES.iter().collect();
    let mut broken = Vec::new();
    let mut cells = 0;
    for route in routes {
        // A route that ends the session gets a session of its own for each role.
        let (user, admin) = if SESSION_ENDERS.contains(&route.path) {
            (app.signup().await, app.admin().await)
        } else {
            (user.clone(), admin.clone())
        };
        for (role, token) in [
            (Role::Guest, None),
            (Role::Blocked, Some(&blocked.token)),
            (Role::User, Some(&user.token)),
            (Role::Admin, Some(&admin.token)),
        ] {
            let mut req = app
                .client
                .request(
                    Method::from_bytes(route.method.as_bytes()).unwrap(),
                    app.url(&concrete(route.path)),
                )
                .header("content-type", "application/json")
                .body("{}");
            if let Some(token) = token {
                req = req.bearer_auth(token);
            }
            let res = req.send().await.expect("request");
            let status = res.status();
            let body: Value = res.json().await.unwrap_or(Value::Null);
            let code = body["code"].as_str().unwrap_or("");
            cells += 1;
            if let Err(why) = expect(route.access, role, status, code) {
                broken.push(format!(
                    "{} {} as {role:?} ({:?}): {why}: {body}",
                    route.method, route.path, route.access
                ));
            }
        }
    }
    assert_eq!(cells, ROUTES.len() * 4);
    assert!(
        broken.is_empty(),
        "{} cells broken:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// Sends `method path` with an empty object body as `token`; returns the status.
async fn call(app: &TestApp, method: &str, path: &str, token: &str) -> StatusCode {
    app.client
        .request(
            Method::from_bytes(method.as_bytes()).unwrap(),
            app.url(path),
        )
        .bearer_auth(token)
        .header("content-type", "application/json")
        .body(json!({ "content": "changed", "title": "changed" }).to_string())
        .send()
        .await
        .expect("request")
        .status()
}

#[actix_web::test]
async fn another_user_changing_an_id_reaches_none_of_the_owners_objects() {
    let app = spawn_app().await;
    let owner = app.signup().await;
    let other = app.signup().await;
    let admin = app.admin().await;

    let public = create_post(&app, &owner.token, post_body("Public", "text")).await;
    let public_id = public["_id"].as_str().unwrap().to_string();
    let draft = create_post(
        &app,
        &owner.token,
        with(post_body("Draft", "text"), json!({ "status": "draft" })),
    )
    .await;
    let draft_id = draft["_id"].as_str().unwrap().to_string();
    let draft_slug = draft["slug"].as_str().unwrap().to_string();
    let res = app
        .post_json(
            &format!("/api/comment/add-comment/{public_id}"),
            &json!({ "content": "mine" }),
            Some(&owner.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let comment = json_of(res).await["comment"]["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .post_json(
            "/api/notification/admin",
            &json!({ "userId": owner.id, "content": "for the owner", "navigateTo": "/" }),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let notification = json_of(res).await["notification"]["_id"]
        .as_str()
        .unwrap()
        .to_string();

    let o = owner.id.clone();
    // (method, path, what the other user must get, what the owner gets with the same request)
    let rows: Vec<(&str, String, &[StatusCode], &[StatusCode])> = vec![
        (
            "GET",
            format!("/api/post/{draft_slug}"),
            &[StatusCode::NOT_FOUND],
            &[StatusCode::OK],
        ),
        (
            "PATCH",
            format!("/api/post/update/{draft_slug}"),
            &[StatusCode::FORBIDDEN, StatusCode::NOT_FOUND],
            &[StatusCode::OK],
        ),
        (
            "GET",
            format!("/api/post/analytics/post/{draft_id}"),
            &[StatusCode::FORBIDDEN, StatusCode::NOT_FOUND],
            &[StatusCode::OK],
        ),
        (
            "PUT",
            format!("/api/comment/edit/{comment}"),
            &[StatusCode::FORBIDDEN, StatusCode::NOT_FOUND],
            &[StatusCode::OK],
        ),
        (
            "PATCH",
            format!("/api/notification/mark-as-read/{notification}"),
            &[StatusCode::FORBIDDEN, StatusCode::NOT_FOUND],
            &[StatusCode::OK],
        ),
        (
            "GET",
            format!("/api/user/activity/{o}"),
            &[StatusCode::FORBIDDEN],
            &[StatusCode::OK],
        ),
        (
            "GET",
            format!("/api/achievement/achievements?userId={o}"),
            &[StatusCode::OK, StatusCode::FORBIDDEN],
            &[StatusCode::OK],
        ),
        (
            "DELETE",
            format!("/api/notification/{notification}"),
            &[StatusCode::FORBIDDEN, StatusCode::NOT_FOUND],
            &[StatusCode::OK],
        ),
        (
            "DELETE",
            format!("/api/comment/delete/{comment}"),
            &[StatusCode::FORBIDDEN, StatusCode::NOT_FOUND],
            &[StatusCode::OK],
        ),
        (
            "DELETE",
            format!("/api/post/delete/{draft_id}"),
            &[StatusCode::FORBIDDEN, StatusCode::NOT_FOUND],
            &[StatusCode::OK],
        ),
    ];
    let mut broken = Vec::new();
    for (method, path, other_gets, owner_gets) in &rows {
        let got = call(&app, method, path, &other.token).await;
        if !other_gets.contains(&got) {
            broken.push(format!("{method} {path} as another user: {got}"));
        }
        // The same request works for the owner, so the refusal above was about ownership.
        let got = call(&app, method, path, &owner.token).await;
        if !owner_gets.contains(&got) {
            broken.push(format!("{method} {path} as the owner: {got}"));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
