//! Reports of posts (seed 001 §7): a signed-in user reports a post; administrators list and
//! review reports, optionally forwarding one to the post's author (a notification linking to
//! `/acknowledge/{reportId}`), send the author a notice by notification and email; the author
//! acknowledges. New, reviewed and acknowledged reports reach `adminRoom` live.

pub mod acknowledge;
pub mod create;
pub mod get;
pub mod list;
pub mod review;
pub mod send_notification;

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};
use crate::persistence::reports::Report;
use crate::persistence::users::{self, User};
use crate::persistence::Db;
use crate::routes::post::DELETED_AUTHOR;
use crate::routes::user::iso;

pub const MSG_NOT_FOUND: &str = "Report not found";
pub const MSG_INVALID_ID: &str = "Invalid report id";
/// Longest `details`.
pub const MAX_DETAILS_LEN: usize = 2000;

/// Why a post may be reported (`reason`).
pub const REASONS: [&str; 9] = [
    "spam",
    "harassment",
    "hate_speech",
    "violence",
    "sexual_content",
    "misinformation",
    "copyright",
    "self_harm",
    "other",
];

/// A `reason`: one of [`REASONS`], any case.
pub fn parse_reason(raw: Option<&str>) -> ApiResult<&'static str> {
    let raw = raw.map(str::trim).unwrap_or_default().to_lowercase();
    REASONS.iter().find(|r| **r == raw).copied().ok_or_else(|| {
        ApiError::bad_request(format!("reason must be one of: {}", REASONS.join(", ")))
    })
}

/// A report id from the path or body.
pub fn report_id(raw: &str) -> ApiResult<ObjectId> {
    ObjectId::parse_str(raw.trim()).map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_ID))
}

fn person(id: Option<ObjectId>, users: &HashMap<ObjectId, User>) -> Value {
    match id {
        None => Value::Null,
        Some(id) => match users.get(&id) {
            Some(u) => json!({ "_id": id.to_hex(), "name": u.name, "email": u.email }),
            None => json!({ "_id": id.to_hex(), "name": DELETED_AUTHOR, "email": null }),
        },
    }
}

/// Loads the reporters and authors of `reports`.
pub async fn people_of(db: &Db, reports: &[Report]) -> ApiResult<HashMap<ObjectId, User>> {
    let mut ids: Vec<ObjectId> = reports
        .iter()
        .flat_map(|r| [Some(r.author_id), r.reporter_id])
        .flatten()
        .collect();
    ids.sort();
    ids.dedup();
    Ok(users::find_many(db, &ids)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect())
}

/// A report as administrators see it: with the post's title, the reporter and the author.
pub fn admin_view(r: &Report, people: &HashMap<ObjectId, User>) -> Value {
    json!({
        "_id": r.id.to_hex(),
        "post": { "_id": r.post_id.to_hex(), "title": r.post_title, "slug": r.post_slug },
        "postId": r.post_id.to_hex(),
        "postTitle": r.post_title,
        "reporter": person(r.reporter_id, people),
        "author": person(Some(r.author_id), people),
        "reason": r.reason,
        "details": r.details,
        "isReviewed": r.is_reviewed,
        "reviewedAt": r.reviewed_at.map(iso),
        "forwardedToAuthor": r.forwarded_to_author,
        "forwardedAt": r.forwarded_at.map(iso),
        "isAcknowledged": r.is_acknowledged,
        "acknowledgedAt": r.acknowledged_at.map(iso),
        "noticesSent": r.notices_sent,
        "createdAt": iso(r.created_at),
    })
}

/// A report as its reporter and the post's author see it: never who else is involved.
pub fn public_view(r: &Report) -> Value {
    json!({
        "_id": r.id.to_hex(),
        "postId": r.post_id.to_hex(),
        "postTitle": r.post_title,
        "postSlug": r.post_slug,
        "reason": r.reason,
        "isReviewed": r.is_reviewed,
        "forwardedToAuthor": r.forwarded_to_author,
        "isAcknowledged": r.is_acknowledged,
        "acknowledgedAt": r.acknowledged_at.map(iso),
        "createdAt": iso(r.created_at),
    })
}

/// A report with its people, as administrators see it.
pub async fn admin_view_of(db: &Db, r: &Report) -> ApiResult<Value> {
    let people = people_of(db, std::slice::from_ref(r)).await?;
    Ok(admin_view(r, &people))
}
