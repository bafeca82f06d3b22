//! A person's copies of their data, as they ask for and fetch them (`/api/user/export`): one
//! a day, made by the job worker (`crate::export`), listed with a download link signed for the
//! owner, fetched while the link holds.

use std::path::PathBuf;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::export::{path_of, signature, KEEP_DAYS};
use crate::persistence::data_exports::{self, DataExport};
use crate::post_view::iso;
use crate::state::AppState;

pub const MSG_ONE_PER_DAY: &str =
    "You can ask for one data export a day. Your latest one is listed below.";
pub const MSG_NO_EXPORT: &str = "Export not found";
pub const MSG_LINK_EXPIRED: &str =
    "This download link has expired. Ask for a new export from your settings page.";

/// One export as its owner sees it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportItem {
    id: String,
    /// `pending`, `running`, `ready`, `failed` or `expired`.
    state: String,
    created_at: String,
    finished_at: Option<String>,
    size: Option<i64>,
    expires_at: Option<String>,
    download_url: Option<String>,
}

fn item(state: &AppState, e: DataExport) -> ExportItem {
    let now = chrono::Utc::now();
    let expired = e.expires_at.is_some_and(|t| t.to_chrono() < now);
    let download_url = match (e.state.as_str(), e.expires_at) {
        ("ready", Some(until)) if !expired => {
            let expires = until.timestamp_millis() / 1000;
            Some(format!(
                "/api/user/export/{}/download?expires={expires}&signature={}",
                e.id.to_hex(),
                signature(state.tokens.secret_bytes(), e.id, e.user_id, expires)
            ))
        }
        _ => None,
    };
    ExportItem {
        id: e.id.to_hex(),
        state: if expired { "expired".into() } else { e.state },
        created_at: iso(e.created_at),
        finished_at: e.finished_at.map(iso),
        size: e.size,
        expires_at: e.expires_at.map(iso),
        download_url,
    }
}

/// Starts a copy of `me`'s data (one a day: a second is 429 with when to try again).
pub async fn request(state: &AppState, me: &AuthUser) -> ApiResult<ExportItem> {
    let day_ago = chrono::Utc::now() - chrono::Duration::days(1);
    if let Some(last) = data_exports::latest_since(
        &state.db,
        me.user.id,
        mongodb::bson::DateTime::from_chrono(day_ago),
    )
    .await?
    {
        let next = last.created_at.to_chrono() + chrono::Duration::days(1);
        let wait = (next - chrono::Utc::now()).num_seconds().max(1);
        return Err(ApiError::RateLimited {
            message: MSG_ONE_PER_DAY.to_string(),
            retry_after: u64::try_from(wait).unwrap_or(1),
        });
    }
    let export = DataExport {
        id: ObjectId::new(),
        user_id: me.user.id,
        state: "pending".into(),
        created_at: mongodb::bson::DateTime::now(),
        finished_at: None,
        size: None,
        expires_at: None,
        lease_until: None,
    };
    data_exports::insert(&state.db, &export).await?;
    crate::audit::record(
        state,
        me,
        crate::audit::Action::DataExportRequest,
        crate::audit::Target::id("data_export", export.id),
        serde_json::json!({}),
    )
    .await;
    tracing::info!(user_id = %me.user.id, export = %export.id, "data export requested");
    Ok(item(state, export))
}

/// `me`'s exports, newest first.
pub async fn list(state: &AppState, me: &AuthUser) -> ApiResult<Vec<ExportItem>> {
    let exports = data_exports::list_for_user(&state.db, me.user.id).await?;
    Ok(exports.into_iter().map(|e| item(state, e)).collect())
}

/// The file of `me`'s ready export `id` when the link (`expires`, `signature`) is theirs and
/// still holds, and the day it was made; the download is recorded.
pub async fn file_of(
    state: &AppState,
    me: &AuthUser,
    id: ObjectId,
    expires: i64,
    given: &str,
) -> ApiResult<(PathBuf, String)> {
    let export = data_exports::find(&state.db, id)
        .await?
        .filter(|e| e.user_id == me.user.id && e.state == "ready")
        .ok_or_else(|| ApiError::not_found(MSG_NO_EXPORT))?;
    let expected = signature(state.tokens.secret_bytes(), id, me.user.id, expires);
    let signed = !given.is_empty() && same(expected.as_bytes(), given.as_bytes());
    if !signed {
        return Err(ApiError::forbidden(MSG_LINK_EXPIRED));
    }
    let now = chrono::Utc::now().timestamp();
    let until = export.expires_at.map_or(0, |t| t.timestamp_millis() / 1000);
    if expires < now || until < now || expires > until + KEEP_DAYS * 86_400 {
        return Err(ApiError::forbidden(MSG_LINK_EXPIRED));
    }
    let path = path_of(state, id);
    if tokio::fs::metadata(&path).await.is_err() {
        return Err(ApiError::not_found(MSG_NO_EXPORT));
    }
    crate::audit::record(
        state,
        me,
        crate::audit::Action::DataExportDownload,
        crate::audit::Target::id("data_export", id),
        serde_json::json!({}),
    )
    .await;
    let day = export.created_at.to_chrono().format("%Y-%m-%d").to_string();
    Ok((path, day))
}

fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
