//! `GET /media/{name}`: files of the media store and their resized variants, only names the store
//! makes and only files it holds, with the content type of their format (sniffed from the bytes at upload and kept in the
//! name), `Content-Disposition: inline` (every stored file is a re-encoded image), `nosniff`, and a
//! year-long immutable cache (the name is the content's hash, so a name never changes meaning).

use actix_files::NamedFile;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};

use crate::domain::image::ImageKind;
use crate::error::{ApiError, ApiResult};
use crate::services::media;
use crate::state::AppState;

pub const MEDIA_CACHE_CONTROL: &str = "public, max-age=31536000, immutable";

#[tracing::instrument(skip(state, req))]
pub async fn serve(
    state: web::Data<AppState>,
    req: HttpRequest,
    name: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let not_found = || ApiError::not_found("File not found");
    let path = media::servable_file(&state, &name)
        .await
        .ok_or_else(not_found)?;
    let kind = name
        .rsplit_once('.')
        .and_then(|(_, ext)| ImageKind::from_ext(ext))
        .ok_or_else(not_found)?;
    let mime = actix_files::file_extension_to_mime(kind.ext());
    let file = NamedFile::open_async(&path)
        .await
        .map_err(|_| not_found())?
        .set_content_type(mime)
        .use_etag(true)
        .use_last_modified(true)
        .disable_content_disposition();
    let mut res = file.into_response(&req);
    let headers = res.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(MEDIA_CACHE_CONTROL),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("inline"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    Ok(res)
}
