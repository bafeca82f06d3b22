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

use std::collections::{HashMap, HashSet};

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::persistence::reports::Report;
use crate::persistence::users::{self, User};
use crate::persistence::Db;
use crate::post_view::iso;
use crate::post_view::DELETED_AUTHOR;
use crate::state::AppState;

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

/// Someone a report involves (`email` is null when the account is gone).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportPerson {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: Option<String>,
}

pub(crate) fn person(
    id: Option<ObjectId>,
    users: &HashMap<ObjectId, User>,
) -> Option<ReportPerson> {
    let id = id?;
    Some(match users.get(&id) {
        Some(u) => ReportPerson {
            id: id.to_hex(),
            name: u.name.clone(),
            email: Some(u.email.clone()),
        },
        None => ReportPerson {
            id: id.to_hex(),
            name: DELETED_AUTHOR.to_string(),
            email: None,
        },
    })
}

/// The reported post.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportedPost {
    #[serde(rename = "_id")]
    pub id: String,
    pub title: String,
    pub slug: String,
}

/// A report as administrators see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminReportView {
    #[serde(rename = "_id")]
    pub id: String,
    pub post: ReportedPost,
    pub post_id: String,
    pub post_title: String,
    /// Null when the report was not filed by a user.
    pub reporter: Option<ReportPerson>,
    /// The post's author.
    pub author: ReportPerson,
    pub reason: String,
    pub details: String,
    pub is_reviewed: bool,
    pub reviewed_at: Option<String>,
    pub forwarded_to_author: bool,
    pub forwarded_at: Option<String>,
    pub is_acknowledged: bool,
    pub acknowledged_at: Option<String>,
    pub notices_sent: i32,
    pub created_at: String,
    /// The revision of the post the reporter saw (pinned as evidence); compare it with
    /// `current` to see what changed since.
    pub revision_id: Option<String>,
    /// The post changed after the report.
    pub edited_since: bool,
    /// The post was deleted since; the revision the reporter saw is kept.
    pub post_deleted: bool,
}

/// A report as its reporter and the post's author see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportView {
    #[serde(rename = "_id")]
    pub id: String,
    pub post_id: String,
    pub post_title: String,
    pub post_slug: String,
    pub reason: String,
    pub is_reviewed: bool,
    pub forwarded_to_author: bool,
    pub is_acknowledged: bool,
    pub acknowledged_at: Option<String>,
    pub created_at: String,
}

/// `{message, report}`: a report after a change, as the caller sees it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportAnswer {
    pub message: String,
    pub report: ReportView,
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
pub fn admin_view(
    r: &Report,
    people: &HashMap<ObjectId, User>,
    edited: &HashSet<ObjectId>,
) -> AdminReportView {
    AdminReportView {
        id: r.id.to_hex(),
        post: ReportedPost {
            id: r.post_id.to_hex(),
            title: r.post_title.clone(),
            slug: r.post_slug.clone(),
        },
        post_id: r.post_id.to_hex(),
        post_title: r.post_title.clone(),
        reporter: person(r.reporter_id, people),
        author: person(Some(r.author_id), people).unwrap_or_else(|| ReportPerson {
            id: r.author_id.to_hex(),
            name: DELETED_AUTHOR.to_string(),
            email: None,
        }),
        reason: r.reason.clone(),
        details: r.details.clone(),
        is_reviewed: r.is_reviewed,
        reviewed_at: r.reviewed_at.map(iso),
        forwarded_to_author: r.forwarded_to_author,
        forwarded_at: r.forwarded_at.map(iso),
        is_acknowledged: r.is_acknowledged,
        acknowledged_at: r.acknowledged_at.map(iso),
        notices_sent: r.notices_sent,
        created_at: iso(r.created_at),
        revision_id: r.revision_id.map(|id| id.to_hex()),
        edited_since: r.revision_id.is_some_and(|id| edited.contains(&id)),
        post_deleted: r.post_deleted,
    }
}

/// Which of the reports' pinned revisions the post has changed since.
pub async fn edited_since(state: &AppState, reports: &[Report]) -> ApiResult<HashSet<ObjectId>> {
    let pairs: Vec<(ObjectId, ObjectId)> = reports
        .iter()
        .filter_map(|r| Some((r.post_id, r.revision_id?)))
        .collect();
    crate::services::revisions::edited_since(state, &pairs).await
}

/// A report as its reporter and the post's author see it: never who else is involved.
pub fn public_view(r: &Report) -> ReportView {
    ReportView {
        id: r.id.to_hex(),
        post_id: r.post_id.to_hex(),
        post_title: r.post_title.clone(),
        post_slug: r.post_slug.clone(),
        reason: r.reason.clone(),
        is_reviewed: r.is_reviewed,
        forwarded_to_author: r.forwarded_to_author,
        is_acknowledged: r.is_acknowledged,
        acknowledged_at: r.acknowledged_at.map(iso),
        created_at: iso(r.created_at),
    }
}

/// A report with its people, as administrators see it.
pub async fn admin_view_of(state: &AppState, r: &Report) -> ApiResult<AdminReportView> {
    let people = people_of(&state.db, std::slice::from_ref(r)).await?;
    let edited = edited_since(state, std::slice::from_ref(r)).await?;
    Ok(admin_view(r, &people, &edited))
}
