//! `GET /api/openapi.json`: the OpenAPI 3.1 document of every route. The route list below is kept
//! beside the route table in `mod.rs`; a test fails when a route is added there and not here.

use std::collections::BTreeMap;

use actix_web::HttpResponse;
use serde_json::{json, Value};

/// Every (method, path) the server answers, as registered in [`super::configure`].
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/health"),
    ("GET", "/api/follow/follower-locations"),
    ("POST", "/api/auth/signup"),
    ("POST", "/api/auth/login"),
    ("POST", "/api/auth/google-login"),
    ("POST", "/api/auth/send-verify-otp"),
    ("POST", "/api/auth/verify-email"),
    ("POST", "/api/auth/send-reset-otp"),
    ("POST", "/api/auth/verify-reset-otp"),
    ("POST", "/api/auth/reset-password"),
    ("GET", "/api/auth/check"),
    ("POST", "/api/auth/logout"),
    ("POST", "/api/auth/logout-all"),
    ("POST", "/api/auth/change-password"),
    ("GET", "/api/user/get-user"),
    ("PATCH", "/api/user/update-user"),
    ("GET", "/api/user/get-single-user/{id}"),
    ("POST", "/api/user/consent"),
    ("GET", "/api/user/online"),
    ("GET", "/api/user/ip-location"),
    ("POST", "/api/user/track-ip-location"),
    ("POST", "/api/user/save-location"),
    ("GET", "/api/user/locations"),
    ("GET", "/api/user/feedback/check"),
    ("POST", "/api/user/feedback/submit"),
    ("GET", "/api/user/feedback/all"),
    ("POST", "/api/user/feedback/manual/{userId}"),
    ("DELETE", "/api/user/activity/clear"),
    ("DELETE", "/api/user/activity/clear-old"),
    ("GET", "/api/user/activity/{id}"),
    ("GET", "/api/user/get-all-user"),
    ("DELETE", "/api/user/delete-user"),
    ("PATCH", "/api/user/toggle-block/{id}"),
    ("PATCH", "/api/user/toggle-role/{id}"),
    ("POST", "/api/category"),
    ("POST", "/api/category/"),
    ("GET", "/api/category/all-category"),
    ("GET", "/api/category/user-selected"),
    ("GET", "/api/category/check-slug"),
    ("POST", "/api/category/seed"),
    ("POST", "/api/category/users/{userId}/categories"),
    ("PATCH", "/api/category/{id}"),
    ("DELETE", "/api/category/{id}"),
    ("POST", "/api/post/post-create"),
    ("PATCH", "/api/post/update/{slug}"),
    ("DELETE", "/api/post/delete/{postId}"),
    ("POST", "/api/post/appeal/{postId}"),
    ("GET", "/api/post/public/posts"),
    ("GET", "/api/post/public/{slug}"),
    ("GET", "/api/post/latest-post/latest"),
    ("GET", "/api/post/trending-post/trending"),
    ("GET", "/api/post/search-post/search"),
    ("GET", "/api/post/search-users"),
    ("GET", "/api/post/all-post"),
    ("GET", "/api/post/following"),
    ("GET", "/api/post/user/{userId}/posts"),
    ("GET", "/api/post/count/all"),
    ("GET", "/api/post/count/my"),
    ("GET", "/api/post/count/following"),
    ("POST", "/api/post/like/{postId}"),
    ("POST", "/api/post/bookmark/{postId}"),
    ("GET", "/api/post/bookmark-status/{postId}"),
    ("GET", "/api/post/get-post/bookmarks"),
    ("POST", "/api/post/view/{slug}"),
    ("POST", "/api/post/time-spent/{postId}"),
    ("POST", "/api/post/vote"),
    ("GET", "/api/post/suggested-post/suggested"),
    ("GET", "/api/post/analytics/post/{id}"),
    ("GET", "/api/post/analytics/user-engagement"),
    ("POST", "/api/post/{postId}/share"),
    ("GET", "/api/post/{slug}"),
    ("GET", "/api/public/posts"),
    ("GET", "/api/public/post/{slug}"),
    ("GET", "/api/public/search-posts"),
    ("POST", "/api/public/guest/visit"),
    ("POST", "/api/public/post/{slug}/view"),
    ("POST", "/api/comment/add-comment/{postId}"),
    ("GET", "/api/comment/all-comments/{postId}"),
    ("POST", "/api/comment/reaction/{commentId}"),
    ("PUT", "/api/comment/edit/{commentId}"),
    ("PUT", "/api/comment/block/{commentId}"),
    ("DELETE", "/api/comment/delete/{commentId}"),
    ("POST", "/api/follow/unfollow/{userId}"),
    ("GET", "/api/follow/followers"),
    ("GET", "/api/follow/following"),
    ("GET", "/api/follow/status/{userId}"),
    ("POST", "/api/follow/{userId}"),
    ("POST", "/api/block/block-user/{id}"),
    ("POST", "/api/block/unblock"),
    ("GET", "/api/block/list"),
    ("GET", "/api/achievement/achievements"),
    ("POST", "/api/achievement/achievements/calculate"),
    ("GET", "/api/admin/subscriptions/plans"),
    ("POST", "/api/admin/subscriptions/eligibility/toggle"),
    ("PATCH", "/api/admin/subscriptions/criteria"),
    ("GET", "/api/admin/subscriptions/eligibility/{userId}"),
    ("PATCH", "/api/admin/subscriptions/plan/status"),
    ("POST", "/api/admin/subscriptions/grant"),
    ("PATCH", "/api/admin/subscriptions/user-override/{userId}"),
    ("PATCH", "/api/admin/subscriptions/user-milestone/{userId}"),
    (
        "PATCH",
        "/api/admin/subscriptions/user-milestone-reset/{userId}",
    ),
    ("GET", "/api/admin/users"),
    ("PATCH", "/api/admin/users/block/{id}"),
    ("PATCH", "/api/admin/users/role/{id}"),
    ("DELETE", "/api/admin/users/{id}"),
    ("GET", "/api/admin/posts"),
    ("PATCH", "/api/admin/posts/block/{id}"),
    ("DELETE", "/api/admin/posts/{id}"),
    ("GET", "/api/admin/audit-log"),
    ("GET", "/api/admin/overview"),
    ("POST", "/api/admin/contact"),
    ("GET", "/api/admin/contact-messages"),
    ("PATCH", "/api/admin/contact-messages/{id}/handled"),
    ("POST", "/api/admin/reply-contact/{id}"),
    ("POST", "/api/admin/reports"),
    ("GET", "/api/admin/reports"),
    ("PATCH", "/api/admin/reports/{id}"),
    ("GET", "/api/admin/reports/{id}"),
    ("POST", "/api/admin/replies/send-notification"),
    ("POST", "/api/admin/acknowledge-report/{id}"),
    ("GET", "/api/admin/analytics"),
    ("GET", "/api/admin/download-csv"),
    ("GET", "/api/admin/email-status"),
    ("GET", "/api/admin/all-email-statuses"),
    ("POST", "/api/admin/retry-failed-emails"),
    ("POST", "/api/admin/reading-time"),
    ("GET", "/api/admin/reading-details/{postId}"),
    ("GET", "/api/notification/notifications"),
    ("GET", "/api/notification/unread-count"),
    ("PATCH", "/api/notification/mark-as-read/{id}"),
    ("PATCH", "/api/notification/mark-as-read"),
    ("PATCH", "/api/notification/mark-as-read/"),
    ("PATCH", "/api/notification/mark-all-as-read"),
    ("POST", "/api/notification/admin"),
    ("POST", "/api/notification/broadcast"),
    ("POST", "/api/notification/reply"),
    ("GET", "/api/notification/user/{userId}"),
    ("GET", "/api/notification/user"),
    ("GET", "/api/notification/user/"),
    ("DELETE", "/api/notification"),
    ("DELETE", "/api/notification/"),
    ("DELETE", "/api/notification/{id}"),
    ("GET", "/api/bannerNotification/get-Notification"),
    ("GET", "/api/bannerNotification/dismissed/{id}"),
    ("POST", "/api/bannerNotification/create"),
    ("PATCH", "/api/bannerNotification/dismiss/{id}"),
    ("PATCH", "/api/bannerNotification/deactivate/{id}"),
    ("DELETE", "/api/bannerNotification/delete-all"),
    ("GET", "/api/dailyMail/daily-post-report"),
    ("GET", "/api/dailyMail/unsubscribe"),
    ("POST", "/api/dailyMail/unsubscribe"),
    ("POST", "/api/subscription/plans"),
    ("GET", "/api/subscription/plans/author/{authorId}"),
    ("PATCH", "/api/subscription/plans/{id}"),
    ("DELETE", "/api/subscription/plans/{id}"),
    ("POST", "/api/subscription/plans/{id}/activate"),
    ("GET", "/api/subscription/plans/{id}/analytics"),
    ("POST", "/api/subscription/subscribe"),
    ("PATCH", "/api/subscription/subscriptions/{id}/cancel"),
    ("PATCH", "/api/subscription/subscriptions/{id}/refund"),
    ("POST", "/api/subscription/status"),
    ("POST", "/api/subscription/reminders"),
    ("GET", "/api/subscription/my-plans"),
    ("POST", "/api/subscription/unsubscribe/author"),
    ("GET", "/api/subscription/author/{authorId}/subscriptions"),
    ("GET", "/api/subscription/my-subscriptions"),
    ("GET", "/api/subscription/check-eligibility"),
    ("GET", "/api/earning/admin/earnings"),
    ("POST", "/api/earning/admin/payouts"),
    ("GET", "/api/earning/my-earnings"),
    ("POST", "/api/payment/bank-details"),
    ("GET", "/api/payment/bank-details"),
    ("PATCH", "/api/payment/bank-details/{id}"),
    ("DELETE", "/api/payment/bank-details/{id}"),
    ("POST", "/api/payment/webhook"),
    ("GET", "/api/geojson/india-border"),
    ("GET", "/api/geojson/world"),
    ("GET", "/api/config/public"),
    ("GET", "/media/{name}"),
    ("GET", "/api/openapi.json"),
];

fn tag(path: &str) -> &str {
    let rest = path
        .strip_prefix("/api/")
        .unwrap_or(path.trim_start_matches('/'));
    rest.split('/').next().unwrap_or("")
}

fn parameters(path: &str) -> Vec<Value> {
    path.split('/')
        .filter_map(|seg| seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(|name| json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string" } }))
        .collect()
}

/// Builds the document.
pub fn document() -> Value {
    let mut paths: BTreeMap<String, serde_json::Map<String, Value>> = BTreeMap::new();
    for (method, path) in ROUTES {
        let key = if path.len() > 1 {
            path.trim_end_matches('/')
        } else {
            path
        };
        let key = if key.is_empty() { "/" } else { key };
        let operation = json!({
            "operationId": format!("{} {}", method, path),
            "tags": [tag(path)],
            "parameters": parameters(path),
            "responses": {
                "200": { "description": "Success (201 for creations)", "content": { "application/json": {} } },
                "default": { "description": "Error", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
            }
        });
        paths
            .entry(key.to_string())
            .or_default()
            .entry(method.to_lowercase())
            .or_insert(operation);
    }
    json!({
        "openapi": "3.1.0",
        "info": { "title": "Pressroom API", "version": env!("CARGO_PKG_VERSION") },
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
                "cookie": { "type": "apiKey", "in": "cookie", "name": "jwt" }
            },
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["message", "code"],
                    "properties": { "message": { "type": "string" }, "code": { "type": "string" } }
                }
            }
        }
    })
}

pub async fn openapi() -> HttpResponse {
    HttpResponse::Ok().json(document())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_route_is_listed() {
        let table = include_str!("mod.rs");
        let registered: usize = [
            "web::get()",
            "web::post()",
            "web::patch()",
            "web::put()",
            "web::delete()",
        ]
        .iter()
        .map(|m| table.matches(m).count())
        .sum();
        assert_eq!(
            ROUTES.len(),
            registered,
            "routes in mod.rs and in openapi.rs differ"
        );
    }

    #[test]
    fn the_document_names_path_parameters() {
        let doc = document();
        let op = &doc["paths"]["/api/post/like/{postId}"]["post"];
        assert_eq!(op["parameters"][0]["name"], "postId");
        assert_eq!(op["tags"][0], "post");
    }
}
