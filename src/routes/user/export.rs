//! `POST /api/user/export` → 202 {message, export}: starts a copy of the caller's data in the
//! job worker (one per user per day; a second one the same day is a 429 with `Retry-After`).
//! `GET /api/user/export` → {exports}: the caller's exports with their state and, when ready, a
//! `downloadUrl` signed for the owner and valid for seven days.
//! `GET /api/user/export/{id}/download?expires&signature` → the ZIP, for its owner only.

use actix_web::http::header::{ContentDisposition, DispositionParam, DispositionType};
use actix_web::{web, HttpRequest, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::export::{path_of, signature, KEEP_DAYS};
use crate::persistence::data_exports::{self, DataExport};
use crate::post_view::iso;
use crate::state::AppState;

pub const MSG_STARTED: &str = "Your data export has started. We will email you when it is ready.";
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

#[derive(Serialize, utoipa::ToSchema)]
pub struct ExportsAnswer {
    exports: Vec<ExportItem>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ExportStartedAnswer {
    message: &'static str,
    export: ExportItem,
}

#[derive(Deserialize, utoipa::IntoParams)]
pub struct DownloadQuery {
    #[serde(default)]
    expires: i64,
    #[serde(default)]
    signature: String,
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

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn start(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
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
        &state,
        &me,
        crate::audit::Action::DataExportRequest,
        crate::audit::Target::id("data_export", export.id),
        serde_json::json!({}),
    )
    .await;
    tracing::info!(user_id = %me.user.id, export = %export.id, "data export requested");
    Ok(HttpResponse::Accepted().json(ExportStartedAnswer {
        message: MSG_STARTED,
        export: item(&state, export),
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let exports = data_exports::list_for_user(&state.db, me.user.id).await?;
    Ok(HttpResponse::Ok().json(ExportsAnswer {
        exports: exports.into_iter().map(|e| item(&state, e)).collect(),
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn download(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    path: web::Path<String>,
    query: web::Query<DownloadQuery>,
) -> ApiResult<HttpResponse> {
    let id = ObjectId::parse_str(path.as_str()).map_err(|_| ApiError::not_found(MSG_NO_EXPORT))?;
    let export = data_exports::find(&state.db, id)
        .await?
        .filter(|e| e.user_id == me.user.id && e.state == "ready")
        .ok_or_else(|| ApiError::not_found(MSG_NO_EXPORT))?;
    let expected = signature(state.tokens.secret_bytes(), id, me.user.id, query.expires);
    let signed =
        !query.signature.is_empty() && same(expected.as_bytes(), query.signature.as_bytes());
    if !signed {
        return Err(ApiError::forbidden(MSG_LINK_EXPIRED));
    }
    let now = chrono::Utc::now().timestamp();
    let until = export.expires_at.map_or(0, |t| t.timestamp_millis() / 1000);
    if query.expires < now || until < now || query.expires > until + KEEP_DAYS * 86_400 {
        return Err(ApiError::forbidden(MSG_LINK_EXPIRED));
    }
    let file = actix_files::NamedFile::open_async(path_of(&state, id))
        .await
        .map_err(|_| ApiError::not_found(MSG_NO_EXPORT))?;
    crate::audit::record(
        &state,
        &me,
        crate::audit::Action::DataExportDownload,
        crate::audit::Target::id("data_export", id),
        serde_json::json!({}),
    )
    .await;
    let day = export.created_at.to_chrono().format("%Y-%m-%d");
    Ok(file
        .set_content_type(
            "application/zip"
                .parse::<actix_web::mime::Mime>()
                .unwrap_or(actix_web::mime::APPLICATION_OCTET_STREAM),
        )
        .set_content_disposition(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(format!(
                "pressroom-data-{day}.zip"
            ))],
        })
        .into_response(&req))
}

fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
