//! The authorization matrix, built from the route table: every route is called as a guest, a
//! user, a blocked user and an administrator, and each answer is held to what the route's access
//! class promises. A route cannot be added to the table without an access class, so a new route
//! is in this matrix from its first day. The object matrix follows: every route whose path names
//! an object (a route added with an id in its path fails the test until it has a row) is called
//! on real objects of each kind by a guest, a blocked user, the object's owner, another user and
//! an administrator, each with the status the row expects.
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::content::{create_post, post_body, set_blocked, with};
use crate::support::money::*;
use crate::support::*;
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

/// The kinds of object a route can act on by its id.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// A published, public post.
    Post,
    Draft,
    /// A published post with `visibility: Private`.
    PrivatePost,
    /// A published post an administrator blocked.
    BlockedPost,
    /// A comment by the owner, on the owner's post.
    Comment,
    /// A notification an administrator sent to the owner.
    Notification,
    /// A category the owner created.
    Category,
    Plan,
    /// The owner's subscription to another author's plan.
    Subscription,
    BankDetails,
    /// A report filed by a third user about the owner's post (the owner is the post's author).
    Report,
    /// The owner's pending appeal against the block of their post.
    Appeal,
    /// A contact message from a guest: nobody signed in owns it.
    ContactMessage,
    /// An administrator's banner: nobody else owns it.
    Banner,
    /// The owner's account itself (routes that take a user id).
    Account,
    /// One sign-in session of the owner (another than the one making the requests).
    LoginSession,
    /// A ready data export of the owner's (the requests carry no signature).
    Export,
    /// A paid tip another reader gave for the owner's post (the owner is the writer).
    TipReceived,
    /// A paid tip the owner gave for another writer's post (the owner is the reader).
    TipSent,
    /// One of the owner's passkeys (stored the way the API stores it; no key is used here).
    Passkey,
    /// One of the owner's personal API keys.
    ApiKey,
    /// One of the owner's push devices (stored the way the API stores it).
    PushDevice,
    /// A series of the owner's (no parts).
    Series,
    /// An import of the owner's waiting in its preview (stored the way the worker leaves it).
    Import,
    /// One of the owner's webhook endpoints (stored the way the API stores it).
    Webhook,
    /// A delivery to one of the owner's webhook endpoints.
    WebhookDelivery,
}

/// An object made for one row: the values its path takes and who owns it (none for kinds
/// nobody signed in owns).
struct Obj {
    id: String,
    slug: String,
    owner: Option<TestUser>,
}

/// Not applicable: the column has no caller for this kind (nobody owns a contact message).
const NA: &[u16] = &[];

/// One row of the object matrix: a route (its pattern in the route table, with an optional
/// query), the kind of object its id names, a body, and the statuses each caller may get:
/// `[guest, blocked user, owner, another user, administrator]`. The guest, the blocked user, the
/// owner and the other user act on one object; the administrator on a second one of the same
/// kind (so that an administrator's deletion does not stand in the owner's way).
struct Row {
    method: &'static str,
    path: &'static str,
    kind: Kind,
    body: &'static str,
    expect: Expect,
}

const COLUMNS: [&str; 5] = [
    "guest",
    "blocked user",
    "owner",
    "another user",
    "administrator",
];

const fn row(
    method: &'static str,
    path: &'static str,
    kind: Kind,
    body: &'static str,
    expect: Expect,
) -> Row {
    Row {
        method,
        path,
        kind,
        body,
        expect,
    }
}

/// What each caller of a row may get: `[guest, blocked user, owner, another user, administrator]`.
type Expect = [&'static [u16]; 5];

/// An administrators' route acting on an object: 401 without a session or for a blocked
/// account, 403 for the owner and anyone else, `ok` for an administrator.
const fn admin_only(ok: &'static [u16]) -> Expect {
    [&[401], &[401], &[403], &[403], ok]
}

/// The same, for a kind nobody signed in owns.
const fn admin_only_unowned(ok: &'static [u16]) -> Expect {
    [&[401], &[401], NA, &[403], ok]
}

/// A route any signed-in reader may use on someone's object: 401 without a session or for a
/// blocked account, `ok` for everyone else.
const fn signed_in(ok: &'static [u16]) -> Expect {
    [&[401], &[401], ok, ok, ok]
}

/// The owner and administrators only: 401 without a session or for a blocked account, `other`
/// for anyone else (403, or 404 where the object's existence must not leak).
const fn owner_or_admin(other: &'static [u16]) -> Expect {
    [&[401], &[401], &[200], other, &[200]]
}

/// A public read: everyone gets `ok`. A route where a session is optional answers a blocked
/// account's request as a guest's (the refused session is not read).
const fn public_read(ok: &'static [u16]) -> Expect {
    [ok, ok, ok, ok, ok]
}

use Kind::*;

/// Every route of the table whose path names an object, with the kinds of object it is tried on.
/// Columns: `[guest, blocked user, owner, another user, administrator]`. Routes where a session is
/// optional answer a blocked account as a guest (its session is refused, not read).
#[rustfmt::skip]
const OBJECT_ROWS: &[Row] = &[
    // Posts: public, draft, private and blocked. Hidden posts are 404 for whoever may not read
    // them; someone who may read a post but not change it gets 403.
    row("GET", "/api/post/{slug}", Post, "{}", public_read(&[200])),
    row("GET", "/api/post/{slug}", Draft, "{}", [&[404], &[404], &[200], &[404], &[404]]),
    row("GET", "/api/post/{slug}", PrivatePost, "{}", [&[404], &[404], &[200], &[404], &[200]]),
    row("GET", "/api/post/{slug}", BlockedPost, "{}", [&[404], &[404], &[200], &[404], &[200]]),
    row("GET", "/api/post/public/{slug}", Post, "{}", public_read(&[200])),
    // The site's public feed of an author (an account), for anyone.
    row("GET", "/author-profile/{id}/{file:(?:feed|rss)\\.xml}", Account, "{}", public_read(&[200])),
    row("GET", "/api/post/public/{slug}", Draft, "{}", [&[404], &[404], &[200], &[404], &[404]]),
    row("GET", "/api/public/post/{slug}", Post, "{}", public_read(&[200])),
    row("GET", "/api/public/post/{slug}", PrivatePost, "{}", [&[404], &[404], &[200], &[404], &[200]]),
    row("POST", "/api/public/post/{slug}/view", Post, "{}", public_read(&[200])),
    row("POST", "/api/post/view/{slug}", Post, "{}", public_read(&[200])),
    row("POST", "/api/post/time-spent/{postId}", Post, r#"{"duration": 30}"#, [&[200], &[200], &[200], &[200], &[200]]),
    row("POST", "/api/post/{postId}/share", Post, "{}", public_read(&[200])),
    row("GET", "/api/comment/all-comments/{postId}", Post, "{}", public_read(&[200])),
    row("POST", "/api/post/like/{postId}", Post, "{}", signed_in(&[200])),
    row("POST", "/api/post/bookmark/{postId}", Post, "{}", signed_in(&[200])),
    row("GET", "/api/post/bookmark-status/{postId}", Post, "{}", signed_in(&[200])),
    row("POST", "/api/comment/add-comment/{postId}", Post, r#"{"content": "A comment"}"#, signed_in(&[201])),
    row("POST", "/api/post/like/{postId}", Draft, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    row("PATCH", "/api/post/update/{slug}", Post, r#"{"title": "Changed"}"#, owner_or_admin(&[403])),
    row("PATCH", "/api/post/update/{slug}", Draft, r#"{"title": "Changed"}"#, owner_or_admin(&[404])),
    row("PATCH", "/api/post/update/{slug}", PrivatePost, r#"{"title": "Changed"}"#, owner_or_admin(&[404])),
    row("GET", "/api/post/analytics/post/{id}", Post, "{}", owner_or_admin(&[403])),
    row("GET", "/api/post/analytics/post/{id}", Draft, "{}", owner_or_admin(&[403, 404])),
    row("GET", "/api/post/delivery/{id}", Post, "{}", owner_or_admin(&[403])),
    // Revisions: the author and administrators (a revision id that is the post's own id is no
    // revision: 404 for them, 403 for the others, who may not know more).
    row("GET", "/api/post/{id}/revisions", Post, "{}", owner_or_admin(&[403])),
    row("GET", "/api/post/{id}/revisions", Draft, "{}", owner_or_admin(&[404])),
    row("GET", "/api/post/{id}/revisions/compare?from=current&to=current", Post, "{}", owner_or_admin(&[403])),
    row("GET", "/api/post/{id}/revisions/{revisionId}", Post, "{}", [&[401], &[401], &[404], &[403], &[404]]),
    row("POST", "/api/post/{id}/revisions/{revisionId}/restore", Post, "{}", [&[401], &[401], &[404], &[403], &[404]]),
    // Series: read by anyone, changed by their writer and administrators.
    row("GET", "/api/series/{series}", Series, "{}", public_read(&[200])),
    row("PATCH", "/api/series/{series}", Series, r#"{"description": "Changed"}"#, owner_or_admin(&[403])),
    row("PUT", "/api/series/{series}/posts", Series, r#"{"postIds": []}"#, owner_or_admin(&[403])),
    row("POST", "/api/series/{series}/posts", Series, r#"{"postId": "64b7f0000000000000000001"}"#, [&[401], &[401], &[404], &[403], &[404]]),
    row("DELETE", "/api/series/{series}/posts/{postId}", Series, "{}", [&[401], &[401], &[404], &[403], &[404]]),
    row("POST", "/api/series/{series}/follow", Series, "{}", [&[401], &[401], &[400], &[200], &[200]]),
    row("DELETE", "/api/series/{series}/follow", Series, "{}", signed_in(&[200])),
    // Alerts of a follow: nobody here follows the series (its writer cannot), so all get 404.
    row("PUT", "/api/series/{series}/follow/alerts", Series, r#"{"mode": "digest"}"#, [&[401], &[401], &[404], &[404], &[404]]),
    row("DELETE", "/api/series/{series}", Series, "{}", owner_or_admin(&[403])),
    // Imports: their writer only (everyone else is told there is no such import).
    row("GET", "/api/import/{id}", Import, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    row("DELETE", "/api/import/{id}/posts", Import, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    row("POST", "/api/import/{id}/confirm", Import, "{}", [&[401], &[401], &[202], &[404], &[404]]),
    row("POST", "/api/import/{id}/cancel", Import, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    row("POST", "/api/post/appeal/{postId}", BlockedPost, r#"{"message": "Please look again"}"#, [&[401], &[401], &[201], &[404], &[403]]),
    row("PATCH", "/api/admin/posts/block/{id}", Post, "{}", admin_only(&[200])),
    row("GET", "/api/admin/reading-details/{postId}", Post, "{}", admin_only(&[200])),
    // A job id nobody owns (a banner's id is no job's: the administrator gets its 404).
    row("GET", "/api/admin/jobs/{id}", Banner, "{}", admin_only_unowned(&[404])),
    row("DELETE", "/api/admin/posts/{id}", Post, "{}", admin_only(&[200])),
    row("DELETE", "/api/post/delete/{postId}", Post, "{}", owner_or_admin(&[403])),
    row("DELETE", "/api/post/delete/{postId}", Draft, "{}", owner_or_admin(&[404])),
    // Comments.
    row("POST", "/api/comment/reaction/{commentId}", Comment, "{}", signed_in(&[200])),
    row("PUT", "/api/comment/edit/{commentId}", Comment, r#"{"content": "Changed"}"#, [&[401], &[401], &[200], &[403], &[403]]),
    row("PUT", "/api/comment/block/{commentId}", Comment, r#"{"blocked": true}"#, owner_or_admin(&[403])),
    row("DELETE", "/api/comment/delete/{commentId}", Comment, "{}", owner_or_admin(&[403])),
    // Notifications: only their recipient (administrators are among the others).
    row("PATCH", "/api/notification/mark-as-read/{id}", Notification, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    row("DELETE", "/api/notification/{id}", Notification, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    // Categories.
    row("PATCH", "/api/category/{id}", Category, r#"{"description": "Changed"}"#, owner_or_admin(&[403])),
    row("DELETE", "/api/category/{id}", Category, "{}", owner_or_admin(&[403])),
    // Money (tests/api/money/access.rs adds the plan's author and subscribers as callers).
    row("PATCH", "/api/subscription/plans/{id}", Plan, r#"{"description": "More"}"#, owner_or_admin(&[403])),
    row("POST", "/api/subscription/plans/{id}/activate", Plan, "{}", owner_or_admin(&[403])),
    row("GET", "/api/subscription/plans/{id}/analytics", Plan, "{}", owner_or_admin(&[403])),
    row("DELETE", "/api/subscription/plans/{id}", Plan, "{}", owner_or_admin(&[403])),
    row("PATCH", "/api/subscription/subscriptions/{id}/cancel", Subscription, "{}", owner_or_admin(&[404])),
    row("PATCH", "/api/subscription/subscriptions/{id}/refund", Subscription, r#"{"reason": "Duplicate"}"#, owner_or_admin(&[404])),
    row("PATCH", "/api/payment/bank-details/{id}", BankDetails, r#"{"bankName": "Second Bank"}"#, owner_or_admin(&[403])),
    row("DELETE", "/api/payment/bank-details/{id}", BankDetails, "{}", owner_or_admin(&[403])),
    // Tips: the post's writer (or an administrator) hides a supporter's message; the reader who
    // tipped (or an administrator) refunds; others do not learn the tip exists.
    row("GET", "/api/post/{id}/supporters", Post, "{}", public_read(&[200])),
    row("GET", "/api/tips/options/{postId}", Post, "{}", public_read(&[200])),
    row("PATCH", "/api/tips/{id}", TipReceived, r#"{"hidden": true}"#, owner_or_admin(&[404])),
    row("POST", "/api/tips/{id}/refund", TipSent, r#"{"reason": "Duplicate"}"#, owner_or_admin(&[404])),
    // Reports: the reported post's author reads and acknowledges; administrators review.
    row("GET", "/api/admin/reports/{id}", Report, "{}", owner_or_admin(&[403])),
    row("POST", "/api/admin/acknowledge-report/{id}", Report, "{}", [&[401], &[401], &[200], &[403], &[403]]),
    row("PATCH", "/api/admin/reports/{id}", Report, r#"{"forwardToAuthor": false}"#, admin_only(&[200])),
    // Appeals: administrators read and decide them (the appealing author uses the post's route).
    row("GET", "/api/admin/appeals/{id}", Appeal, "{}", admin_only(&[200])),
    row("PATCH", "/api/admin/appeals/{id}", Appeal, r#"{"decision": "reject"}"#, admin_only(&[200])),
    // Contact messages: administrators only.
    row("PATCH", "/api/admin/contact-messages/{id}/handled", ContactMessage, "{}", admin_only_unowned(&[200])),
    row("POST", "/api/admin/reply-contact/{id}", ContactMessage, r#"{"subject": "Re: Question", "message": "Thank you"}"#, admin_only_unowned(&[200])),
    // Banners: every signed-in reader dismisses; administrators manage them.
    row("GET", "/api/bannerNotification/dismissed/{id}", Banner, "{}", [&[401], &[401], NA, &[200], &[403]]),
    row("PATCH", "/api/bannerNotification/dismiss/{id}", Banner, "{}", [&[401], &[401], NA, &[200], &[200]]),
    row("PATCH", "/api/bannerNotification/deactivate/{id}", Banner, "{}", admin_only_unowned(&[200])),
    // Sign-in sessions: only their own user sees or ends them (404 for anyone else).
    row("DELETE", "/api/auth/sessions/{id}", LoginSession, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    // Passkeys: only their own user renames or removes them (404 for anyone else).
    row("PATCH", "/api/auth/passkeys/{id}", Passkey, r#"{"name": "Renamed"}"#, [&[401], &[401], &[200], &[404], &[404]]),
    row("DELETE", "/api/auth/passkeys/{id}", Passkey, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    // API keys: only their owner revokes them (404 for anyone else).
    row("DELETE", "/api/keys/{id}", ApiKey, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    // Push devices: only their owner removes them (404 for anyone else).
    row("DELETE", "/api/push/subscriptions/{id}", PushDevice, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    // Webhook endpoints and their deliveries: only their owner (404 for anyone else).
    row("PATCH", "/api/webhooks/{id}", Webhook, r#"{"description": "Renamed"}"#, [&[401], &[401], &[200], &[404], &[404]]),
    row("POST", "/api/webhooks/{id}/test", Webhook, "{}", [&[401], &[401], &[202], &[404], &[404]]),
    row("POST", "/api/webhooks/{id}/rotate-secret", Webhook, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    row("GET", "/api/webhooks/{id}/deliveries", Webhook, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    row("DELETE", "/api/webhooks/{id}", Webhook, "{}", [&[401], &[401], &[200], &[404], &[404]]),
    row("POST", "/api/webhooks/deliveries/{id}/resend", WebhookDelivery, "{}", [&[401], &[401], &[202], &[404], &[404]]),
    // Data exports: only their owner, and only with the link's signature (403 without it).
    row("GET", "/api/user/export/{id}/download", Export, "{}", [&[401], &[401], &[403], &[404], &[404]]),
    // Accounts: the owner is the account itself.
    row("GET", "/api/user/get-single-user/{id}", Account, "{}", public_read(&[200])),
    row("GET", "/api/post/user/{userId}/posts", Account, "{}", public_read(&[200])),
    row("GET", "/api/subscription/plans/author/{authorId}", Account, "{}", public_read(&[200])),
    row("GET", "/api/user/activity/{id}", Account, "{}", owner_or_admin(&[403])),
    row("GET", "/api/payment/bank-details?userId={id}", Account, "{}", owner_or_admin(&[403])),
    row("GET", "/api/achievement/achievements?userId={id}", Account, "{}", [&[401], &[401], &[200], &[200, 403], &[200]]),
    row("GET", "/api/subscription/author/{authorId}/subscriptions", Account, "{}", owner_or_admin(&[403])),
    row("POST", "/api/category/users/{userId}/categories", Account, r#"{"categoryIds": []}"#, [&[401], &[401], &[200], &[403], &[403]]),
    row("POST", "/api/follow/{userId}", Account, "{}", [&[401], &[401], &[400], &[200, 201], &[200, 201]]),
    row("GET", "/api/follow/status/{userId}", Account, "{}", [&[401], &[401], &[200, 400], &[200], &[200]]),
    // Alerts are kept with a follow: oneself is never followed (404); the others follow the
    // account once the follow row above ran (200), else 404.
    row("PUT", "/api/follow/alerts/{authorId}", Account, r#"{"mode": "digest"}"#, [&[401], &[401], &[404], &[200, 404], &[200, 404]]),
    // Anyone may ask; the limit per address may answer 429 after the first few.
    row("POST", "/api/newsletter/{authorId}/subscribe", Account, r#"{"email": "reader@example.com"}"#, [&[200, 429], &[200, 429], &[200, 429], &[200, 429], &[200, 429]]),
    row("POST", "/api/follow/unfollow/{userId}", Account, "{}", [&[401], &[401], &[400], &[200, 404], &[200, 404]]),
    row("POST", "/api/block/block-user/{id}", Account, "{}", [&[401], &[401], &[400], &[200, 201], &[200, 201]]),
    row("POST", "/api/user/feedback/manual/{userId}", Account, "{}", admin_only(&[200])),
    row("GET", "/api/notification/user/{userId}", Account, "{}", admin_only(&[200])),
    row("GET", "/api/admin/subscriptions/eligibility/{userId}", Account, "{}", admin_only(&[200])),
    row("PATCH", "/api/admin/subscriptions/user-override/{userId}", Account, r#"{"bypassSubscriptionCriteria": true}"#, admin_only(&[200])),
    row("PATCH", "/api/admin/subscriptions/user-milestone/{userId}", Account, r#"{"postCount": 3}"#, admin_only(&[200])),
    row("PATCH", "/api/admin/subscriptions/user-milestone-reset/{userId}", Account, "{}", admin_only(&[200])),
    row("PATCH", "/api/user/toggle-block/{id}", Account, "{}", admin_only(&[200])),
    row("PATCH", "/api/user/toggle-role/{id}", Account, "{}", admin_only(&[200])),
    row("PATCH", "/api/admin/users/block/{id}", Account, "{}", admin_only(&[200])),
    row("PATCH", "/api/admin/users/role/{id}", Account, "{}", admin_only(&[200])),
    row("DELETE", "/api/admin/users/{id}", Account, "{}", admin_only(&[200])),
];

/// Routes with an id in their path that name no owned object, and why.
const NOT_OBJECTS: &[(&str, &str)] = &[
    (
        "/sitemap-{kind:[a-z]+}-{n:[0-9]{1,9}}.xml",
        "a page of the public sitemap, named by its number (tests/site, tests/api/content/pages.rs)",
    ),
    (
        "/tag/{tag}/{file:(?:feed|rss)\\.xml}",
        "a tag is a word, not an object anyone owns (tests/api/content/pages.rs)",
    ),
    (
        "/category/{slug}/{file:(?:feed|rss)\\.xml}",
        "the public feed of a category, by its name (tests/api/content/pages.rs)",
    ),
    (
        "/series/{slug}/{file:(?:feed|rss)\\.xml}",
        "the public feed of a series, by its slug (tests/api/content/series.rs)",
    ),
    (
        "/feeds/private/{reader}/{author}/{file}",
        "a subscriber's own feed, opened by the signed token in its address (tests/api/content/pages.rs)",
    ),
    (
        "/og/post/{file}",
        "the share image of a public post, by the post's id and version (tests/api/content/pages.rs)",
    ),
    (
        "/media/{name}",
        "uploaded images, public by their unguessable name (tests/api/platform/hardening.rs)",
    ),
    (
        "/api/subscription/private-feed/{authorId}",
        "the caller's own feed of an author, given by their own subscription (tests/api/content/pages.rs)",
    ),
    (
        "/api/subscription/private-feed/{authorId}/reset",
        "the caller's own feed of an author, given by their own subscription (tests/api/content/pages.rs)",
    ),
];

/// A row's route pattern without its query (a `?` after the last parameter: a pattern's own
/// `(?:…)` is inside it).
fn pattern_of(path: &str) -> &str {
    match (path.rfind('?'), path.rfind('}')) {
        (Some(q), Some(p)) if q > p => &path[..q],
        (Some(q), None) => &path[..q],
        _ => path,
    }
}

/// The path of a row with each `{param}` filled from the object (a feed's `{file:…}` pattern
/// takes `feed.xml`).
fn fill(path: &str, obj: &Obj) -> String {
    fill_params(path, |name| match name {
        "slug" => obj.slug.clone(),
        "file" => "feed.xml".to_string(),
        _ => obj.id.clone(),
    })
}

/// The people of the object matrix.
struct Cast {
    owner: TestUser,
    second_owner: TestUser,
    reporter: TestUser,
    admin: TestUser,
}

fn id_in(body: &Value, pointer: &str) -> String {
    body.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no {pointer} in {body}"))
        .to_string()
}

/// Creates something with a POST and returns the id found at `pointer` in the answer.
async fn created(
    app: &TestApp,
    path: &str,
    body: Value,
    by: Option<&TestUser>,
    pointer: &str,
) -> String {
    let res = app
        .post_json(path, &body, by.map(|u| u.token.as_str()))
        .await;
    id_in(&json_of(res).await, pointer)
}

/// Makes a fresh object of a kind, owned (where someone owns it) by `owner`.
async fn make(app: &TestApp, cast: &Cast, kind: Kind, owner: &TestUser) -> Obj {
    let post = |extra: Value| with(post_body("Matrix post", "text"), extra);
    let of_post = |p: Value| Obj {
        id: id_in(&p, "/_id"),
        slug: id_in(&p, "/slug"),
        owner: Some(owner.clone()),
    };
    let just = |id: String, owner: Option<TestUser>| Obj {
        id,
        slug: String::new(),
        owner,
    };
    match kind {
        Post => of_post(create_post(app, &owner.token, post(json!({}))).await),
        Draft => of_post(create_post(app, &owner.token, post(json!({ "status": "draft" }))).await),
        PrivatePost => {
            of_post(create_post(app, &owner.token, post(json!({ "visibility": "Private" }))).await)
        }
        BlockedPost => {
            let obj = of_post(create_post(app, &owner.token, post(json!({}))).await);
            set_blocked(app, &obj.id, true).await;
            obj
        }
        Comment => {
            let p = create_post(app, &owner.token, post(json!({}))).await;
            let path = format!("/api/comment/add-comment/{}", id_in(&p, "/_id"));
            let body = json!({ "content": "mine" });
            let id = created(app, &path, body, Some(owner), "/comment/_id").await;
            just(id, Some(owner.clone()))
        }
        Notification => {
            let body = json!({ "userId": owner.id, "content": "for the owner", "navigateTo": "/" });
            let (path, at) = ("/api/notification/admin", "/notification/_id");
            let id = created(app, path, body, Some(&cast.admin), at).await;
            just(id, Some(owner.clone()))
        }
        Category => {
            let n = mongodb::bson::oid::ObjectId::new().to_hex();
            let body = json!({ "name": format!("Matrix {n}"), "slug": format!("matrix-{n}") });
            let id = created(app, "/api/category", body, Some(owner), "/category/_id").await;
            just(id, Some(owner.clone()))
        }
        Plan => {
            let plan = app.create_plan(owner, 1200).await;
            just(id_in(&plan, "/_id"), Some(owner.clone()))
        }
        Subscription => {
            let seller = app.eligible_author().await;
            let plan = app.create_plan(&seller, 1200).await;
            let id = app.subscribed(owner, &id_in(&plan, "/_id")).await;
            just(id, Some(owner.clone()))
        }
        BankDetails => {
            // One set of bank details per account: a fresh account each time.
            let holder = app.signup().await;
            let (path, at) = ("/api/payment/bank-details", "/bankDetails/paymentId");
            let id = created(app, path, bank_body(), Some(&holder), at).await;
            just(id, Some(holder))
        }
        Report => {
            let p = create_post(app, &owner.token, post(json!({}))).await;
            let body =
                json!({ "postId": id_in(&p, "/_id"), "reason": "spam", "details": "Matrix" });
            let (path, at) = ("/api/admin/reports", "/report/_id");
            let id = created(app, path, body, Some(&cast.reporter), at).await;
            just(id, Some(owner.clone()))
        }
        Appeal => {
            let p = create_post(app, &owner.token, post(json!({}))).await;
            let post_id = id_in(&p, "/_id");
            set_blocked(app, &post_id, true).await;
            let path = format!("/api/post/appeal/{post_id}");
            let body = json!({ "message": "Please look again" });
            just(
                created(app, &path, body, Some(owner), "/appeal/_id").await,
                Some(owner.clone()),
            )
        }
        ContactMessage => {
            let body = json!({ "name": "A Reader", "email": unique_email(), "subject": "Question",
                               "message": "Hello" });
            just(
                created(app, "/api/admin/contact", body, None, "/id").await,
                None,
            )
        }
        Banner => {
            let body = json!({ "title": "Notice", "message": "Maintenance tonight" });
            let path = "/api/bannerNotification/create";
            just(
                created(app, path, body, Some(&cast.admin), "/notification/_id").await,
                None,
            )
        }
        TipReceived => {
            let p = create_post(app, &owner.token, post(json!({}))).await;
            let body = json!({ "postId": id_in(&p, "/_id"), "amount": 300, "currency": "usd" });
            let id = created(app, "/api/tips", body, Some(&cast.reporter), "/tip/id").await;
            just(id, Some(owner.clone()))
        }
        TipSent => {
            let writer = app.eligible_author().await;
            let p = create_post(app, &writer.token, post(json!({}))).await;
            let body = json!({ "postId": id_in(&p, "/_id"), "amount": 300, "currency": "usd" });
            let id = created(app, "/api/tips", body, Some(owner), "/tip/id").await;
            just(id, Some(owner.clone()))
        }
        // The owner's own account; an administrator's actions (block, role, deletion) fall on
        // a fresh account.
        Account => just(owner.id.clone(), Some(owner.clone())),
        LoginSession => {
            let res = app.login(&owner.email, PASSWORD).await;
            let token = json_of(res).await["token"].as_str().unwrap().to_string();
            let list = json_of(app.get("/api/auth/sessions", Some(&token)).await).await;
            let id = list["sessions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["current"] == true)
                .unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string();
            just(id, Some(owner.clone()))
        }
        Passkey => {
            let id = mongodb::bson::oid::ObjectId::new();
            let now = mongodb::bson::DateTime::now();
            let owner_id = mongodb::bson::oid::ObjectId::parse_str(&owner.id).unwrap();
            app.db
                .database()
                .collection::<mongodb::bson::Document>("passkeys")
                .insert_one(mongodb::bson::doc! {
                    "_id": id, "userId": owner_id, "credentialId": id.to_hex(),
                    "userHandle": "", "name": "Laptop", "staticState": "", "dynamicState": "",
                    "signCount": 0_i64, "transports": [], "backedUp": false, "createdAt": now,
                })
                .await
                .unwrap();
            just(id.to_hex(), Some(owner.clone()))
        }
        Series => {
            let n = mongodb::bson::oid::ObjectId::new().to_hex();
            let body = json!({ "title": format!("Matrix series {n}") });
            just(
                created(app, "/api/series", body, Some(owner), "/series/_id").await,
                Some(owner.clone()),
            )
        }
        ApiKey => {
            let body = json!({ "name": "Matrix", "scopes": ["read:posts"] });
            just(
                created(app, "/api/keys", body, Some(owner), "/id").await,
                Some(owner.clone()),
            )
        }
        Import => {
            let id = mongodb::bson::oid::ObjectId::new();
            let owner_id = mongodb::bson::oid::ObjectId::parse_str(&owner.id).unwrap();
            let now = mongodb::bson::DateTime::now();
            app.db
                .database()
                .collection::<mongodb::bson::Document>("imports")
                .insert_one(mongodb::bson::doc! {
                    "_id": id, "ownerId": owner_id, "source": "wordpress", "status": "preview",
                    "fileName": "export.xml", "createdAt": now, "updatedAt": now,
                })
                .await
                .unwrap();
            just(id.to_hex(), Some(owner.clone()))
        }
        PushDevice => {
            let id = mongodb::bson::oid::ObjectId::new();
            let owner_id = mongodb::bson::oid::ObjectId::parse_str(&owner.id).unwrap();
            app.db
                .database()
                .collection::<mongodb::bson::Document>("push_subscriptions")
                .insert_one(mongodb::bson::doc! {
                    "_id": id, "userId": owner_id,
                    "endpoint": format!("https://push.example.com/{}", id.to_hex()),
                    "p256dh": "", "auth": "", "label": "Phone",
                    "createdAt": mongodb::bson::DateTime::now(),
                })
                .await
                .unwrap();
            just(id.to_hex(), Some(owner.clone()))
        }
        Webhook | WebhookDelivery => {
            let endpoint = mongodb::bson::oid::ObjectId::new();
            let owner_id = mongodb::bson::oid::ObjectId::parse_str(&owner.id).unwrap();
            let now = mongodb::bson::DateTime::now();
            let db = app.db.database();
            db.collection::<mongodb::bson::Document>("webhook_endpoints")
                .insert_one(mongodb::bson::doc! {
                    "_id": endpoint, "ownerId": owner_id, "site": false,
                    "url": "https://hooks.example.com/in", "events": ["post.published"],
                    "description": "", "secrets": [], "disabled": true, "createdAt": now,
                })
                .await
                .unwrap();
            let delivery = mongodb::bson::oid::ObjectId::new();
            db.collection::<mongodb::bson::Document>("webhook_deliveries")
                .insert_one(mongodb::bson::doc! {
                    "_id": delivery, "messageId": "msg_matrix", "endpointId": endpoint,
                    "ownerId": owner_id, "eventType": "post.published", "body": "{}",
                    "status": "failed", "attempt": 1, "nextAttemptAt": now, "attempts": [],
                    "createdAt": now,
                })
                .await
                .unwrap();
            let id = if kind == Webhook { endpoint } else { delivery };
            just(id.to_hex(), Some(owner.clone()))
        }
        Export => {
            // One export a day per account: a fresh account each time.
            let holder = app.signup().await;
            let res = app
                .post_json("/api/user/export", &json!({}), Some(&holder.token))
                .await;
            let id = json_of(res).await["export"]["id"]
                .as_str()
                .unwrap()
                .to_string();
            let oid = mongodb::bson::oid::ObjectId::parse_str(&id).unwrap();
            let later = mongodb::bson::DateTime::from_millis(
                mongodb::bson::DateTime::now().timestamp_millis() + 86_400_000,
            );
            app.db
                .database()
                .collection::<mongodb::bson::Document>("data_exports")
                .update_one(
                    mongodb::bson::doc! { "_id": oid },
                    mongodb::bson::doc! { "$set": { "state": "ready", "expiresAt": later } },
                )
                .await
                .unwrap();
            just(id, Some(holder))
        }
    }
}

#[actix_web::test]
async fn every_route_on_an_object_answers_its_owner_others_and_administrators() {
    let app = spawn_app().await;
    app.money_ready().await;
    let cast = Cast {
        owner: app.eligible_author().await,
        second_owner: app.eligible_author().await,
        reporter: app.signup().await,
        admin: app.admin().await,
    };
    let other = app.signup().await;
    let blocked = app.signup().await;
    let res = app
        .patch_json(
            &format!("/api/admin/users/block/{}", blocked.id),
            &json!({}),
            Some(&cast.admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK, "blocking the user");

    // Every route of the table with an id in its path has a row, or a reason not to.
    let missing: Vec<String> = ROUTES
        .iter()
        .filter(|r| r.path.contains('{'))
        .filter(|r| {
            !OBJECT_ROWS
                .iter()
                .any(|row| row.method == r.method && pattern_of(row.path) == r.path)
                && !NOT_OBJECTS.iter().any(|(p, _)| *p == r.path)
        })
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(
        missing.is_empty(),
        "routes without an object row:\n{}",
        missing.join("\n")
    );
    // The kinds the matrix must cover.
    #[rustfmt::skip]
    let kinds = [Post, Draft, PrivatePost, Comment, Notification, Category, Plan, Subscription, BankDetails, Report, ContactMessage];
    for kind in kinds {
        assert!(
            OBJECT_ROWS.iter().any(|r| r.kind == kind),
            "no row for {kind:?}"
        );
    }

    let mut broken = Vec::new();
    let mut cells = 0;
    for row in OBJECT_ROWS {
        let a = make(&app, &cast, row.kind, &cast.owner).await;
        let b = if row.kind == Account {
            let fresh = app.signup().await;
            Obj {
                id: fresh.id.clone(),
                slug: String::new(),
                owner: Some(fresh),
            }
        } else {
            make(&app, &cast, row.kind, &cast.second_owner).await
        };
        let owner_token = a.owner.as_ref().map(|o| o.token.clone());
        let callers: [(Option<String>, &Obj); 5] = [
            (None, &a),
            (Some(blocked.token.clone()), &a),
            (owner_token, &a),
            (Some(other.token.clone()), &a),
            (Some(cast.admin.token.clone()), &b),
        ];
        // The other user tries before the owner, so that an owner's deletion cannot explain
        // the other's refusal.
        for column in [0, 1, 3, 2, 4] {
            let ((token, obj), allowed) = (&callers[column], row.expect[column]);
            if allowed.is_empty() {
                continue;
            }
            let path = fill(row.path, obj);
            let mut req = app
                .client
                .request(
                    Method::from_bytes(row.method.as_bytes()).unwrap(),
                    app.url(&path),
                )
                .header("content-type", "application/json")
                .body(row.body);
            if let Some(token) = token {
                req = req.bearer_auth(token);
            } else if column == 2 {
                broken.push(format!(
                    "{} {} {:?}: nobody owns it",
                    row.method, row.path, row.kind
                ));
                continue;
            }
            let res = req.send().await.expect("request");
            let status = res.status().as_u16();
            let text = res.text().await.unwrap_or_default();
            cells += 1;
            if !allowed.contains(&status) {
                broken.push(format!(
                    "{} {} on {:?} as {}: {status} (expected {allowed:?}) {}",
                    row.method,
                    row.path,
                    row.kind,
                    COLUMNS[column],
                    text.chars().take(160).collect::<String>()
                ));
            }
        }
    }
    eprintln!("object matrix: {} rows, {cells} cells", OBJECT_ROWS.len());
    assert!(
        broken.is_empty(),
        "{} cells broken:\n{}",
        broken.len(),
        broken.join("\n")
    );
}
