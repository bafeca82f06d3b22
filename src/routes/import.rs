//! Imports of a writer's archive (`services::import`): `POST /api/import` (a multipart upload of
//! `source` and `file`, or JSON `{source: "feed", url}`) → 202 {id, status}; `GET /api/import`;
//! `GET /api/import/{id}`; `POST /api/import/{id}/confirm` {keepStatus, comments};
//! `POST /api/import/{id}/cancel`; `DELETE /api/import/{id}/posts`.

use actix_multipart::Multipart;
use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use mongodb::bson::oid::ObjectId;
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{parse_json, ApiJson};
use crate::services::import::{
    self, folder_of, upload_of, ImportView, Source, MSG_EMPTY_FILE, MSG_FEED_URL,
    MSG_FILE_REQUIRED, MSG_UNKNOWN_SOURCE,
};
use crate::state::AppState;

/// `{source: "feed", url}`: a feed to import (uploads come as `multipart/form-data` with
/// `source` and `file` instead).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImportFeedBody {
    source: String,
    #[serde(default)]
    url: Option<String>,
}

/// `{keepStatus, comments}`: keep each post's published state (otherwise everything arrives as
/// a draft), and import the comments or skip them (`import` or `skip`, the default).
#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConfirmImportBody {
    #[serde(default)]
    keep_status: Option<bool>,
    #[serde(default)]
    comments: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ImportStartedAnswer {
    id: String,
    status: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ImportsAnswer {
    imports: Vec<ImportView>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ImportPostsRemovedAnswer {
    removed: u64,
}

fn started(view: ImportView) -> HttpResponse {
    HttpResponse::Accepted().json(ImportStartedAnswer {
        id: view.id,
        status: view.status,
    })
}

fn too_large(limit: u64) -> ApiError {
    ApiError::PayloadTooLarge(format!(
        "The file is larger than the {} MB an import can be.",
        limit / (1024 * 1024)
    ))
}

/// What a multipart upload held.
struct Upload {
    source: Option<String>,
    file_name: Option<String>,
    size: u64,
}

/// Streams the upload's `file` into `folder` (at most `limit` bytes) and reads its `source`.
async fn receive(mut parts: Multipart, folder: &std::path::Path, limit: u64) -> ApiResult<Upload> {
    let mut upload = Upload {
        source: None,
        file_name: None,
        size: 0,
    };
    let unreadable = |_| ApiError::bad_request("The upload could not be read; send it again.");
    while let Some(field) = parts.next().await {
        let mut field = field.map_err(unreadable)?;
        let name = field.name().unwrap_or_default().to_string();
        match name.as_str() {
            "source" => {
                let mut text = Vec::new();
                while let Some(chunk) = field.next().await {
                    text.extend_from_slice(&chunk.map_err(unreadable)?);
                    if text.len() > 100 {
                        return Err(ApiError::bad_request(MSG_UNKNOWN_SOURCE));
                    }
                }
                upload.source = Some(String::from_utf8_lossy(&text).into_owned());
            }
            "file" if upload.file_name.is_none() => {
                let file_name = field
                    .content_disposition()
                    .and_then(|d| d.get_filename())
                    .map(|n| n.chars().take(200).collect::<String>())
                    .unwrap_or_else(|| "upload".to_string());
                tokio::fs::create_dir_all(folder)
                    .await
                    .map_err(ApiError::internal)?;
                let mut out = tokio::fs::File::create(upload_of(folder))
                    .await
                    .map_err(ApiError::internal)?;
                while let Some(chunk) = field.next().await {
                    let chunk = chunk.map_err(unreadable)?;
                    upload.size += chunk.len() as u64;
                    if upload.size > limit {
                        return Err(too_large(limit));
                    }
                    out.write_all(&chunk).await.map_err(ApiError::internal)?;
                }
                out.flush().await.map_err(ApiError::internal)?;
                upload.file_name = Some(file_name);
            }
            // Other fields are read past.
            _ => while field.next().await.is_some() {},
        }
    }
    Ok(upload)
}

/// `POST /api/import`.
pub async fn start(
    state: web::Data<AppState>,
    me: AuthUser,
    req: HttpRequest,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let is_multipart = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("multipart/form-data"));
    if !is_multipart {
        // The same reading as every JSON body: the body limit, an object, a named field.
        let body = <ApiJson<ImportFeedBody> as actix_web::FromRequest>::from_request(
            &req,
            &mut payload.into_inner(),
        )
        .await?
        .into_inner();
        return match Source::parse(&body.source) {
            Some(Source::Feed) => {
                let url = body
                    .url
                    .ok_or_else(|| ApiError::bad_request(MSG_FEED_URL))?;
                Ok(started(import::start_feed(&state, &me, &url).await?))
            }
            Some(_) => Err(ApiError::bad_request(
                "Archives are uploaded as multipart/form-data with the fields source and file.",
            )),
            None => Err(ApiError::bad_request(MSG_UNKNOWN_SOURCE)),
        };
    }
    import::check_none_running(&state, &me).await?;
    let limit = state.settings.import.max_upload_bytes;
    let declared = req
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit + 64 * 1024) {
        return Err(too_large(limit));
    }
    let id = ObjectId::new();
    let folder = folder_of(&state, id);
    let parts = Multipart::new(req.headers(), payload.into_inner());
    let checked = match receive(parts, &folder, limit).await {
        Ok(upload) => check_upload(upload),
        Err(e) => Err(e),
    };
    let (source, file_name) = match checked {
        Ok(found) => found,
        Err(e) => {
            import::remove_folder(&state, id).await;
            return Err(e);
        }
    };
    match import::start_upload(&state, &me, id, source, file_name).await {
        Ok(view) => Ok(started(view)),
        Err(e) => {
            import::remove_folder(&state, id).await;
            Err(e)
        }
    }
}

fn check_upload(upload: Upload) -> ApiResult<(Source, Option<String>)> {
    let source = upload
        .source
        .as_deref()
        .and_then(Source::parse)
        .filter(|s| *s != Source::Feed)
        .ok_or_else(|| ApiError::bad_request(MSG_UNKNOWN_SOURCE))?;
    if upload.file_name.is_none() {
        return Err(ApiError::bad_request(MSG_FILE_REQUIRED));
    }
    if upload.size == 0 {
        return Err(ApiError::bad_request(MSG_EMPTY_FILE));
    }
    Ok((source, upload.file_name))
}

/// `GET /api/import`.
pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(ImportsAnswer {
        imports: import::list(&state, &me).await?,
    }))
}

/// `GET /api/import/{id}`.
pub async fn get(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "import id")?;
    Ok(HttpResponse::Ok().json(import::get(&state, &me, id).await?))
}

/// `POST /api/import/{id}/confirm`.
pub async fn confirm(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "import id")?;
    let body: ConfirmImportBody = if body.iter().all(u8::is_ascii_whitespace) {
        ConfirmImportBody::default()
    } else {
        parse_json(&body)?
    };
    let view = import::confirm(
        &state,
        &me,
        id,
        body.keep_status.unwrap_or(false),
        body.comments.as_deref(),
    )
    .await?;
    Ok(started(view))
}

/// `POST /api/import/{id}/cancel`.
pub async fn cancel(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "import id")?;
    let view = import::cancel(&state, &me, id).await?;
    Ok(HttpResponse::Ok().json(ImportStartedAnswer {
        id: view.id,
        status: view.status,
    }))
}

/// `DELETE /api/import/{id}/posts`.
pub async fn remove_posts(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "import id")?;
    let removed = import::remove_posts(&state, &me, id).await?;
    Ok(HttpResponse::Ok().json(ImportPostsRemovedAnswer { removed }))
}
