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
use crate::services::data_export::{self, ExportItem, MSG_NO_EXPORT};
use crate::state::AppState;

pub const MSG_STARTED: &str = "Your data export has started. We will email you when it is ready.";

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

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn start(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let export = data_export::request(&state, &me).await?;
    Ok(HttpResponse::Accepted().json(ExportStartedAnswer {
        message: MSG_STARTED,
        export,
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let exports = data_export::list(&state, &me).await?;
    Ok(HttpResponse::Ok().json(ExportsAnswer { exports }))
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
    let (path, day) =
        data_export::file_of(&state, &me, id, query.expires, &query.signature).await?;
    let file = actix_files::NamedFile::open_async(path)
        .await
        .map_err(|_| ApiError::not_found(MSG_NO_EXPORT))?;
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
