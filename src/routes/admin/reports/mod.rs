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

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::services::reports::ReportView;

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

/// `{message, report}`: a report after a change, as the caller sees it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportAnswer {
    pub message: String,
    pub report: ReportView,
}
