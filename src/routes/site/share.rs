//! `GET /og/post/{id}.png`: a post's share image (1200×630), for posts a guest may read. Made on
//! first request for each version of what it shows (title, author's name, thumbnail) and kept in
//! the media directory (`og/<id>-<version>.png`, older versions removed); an address carrying the
//! current version (`?v=`) is cached for a year.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;

use super::{etag_of, lookup, Lookup};
use crate::domain::image::{is_media_path, MEDIA_URL_PREFIX};
use crate::error::{ApiError, ApiResult};
use crate::pages::model::PublicPost;
use crate::pages::share_image;
use crate::state::AppState;

pub const MSG_NO_IMAGE: &str = "No such image";
const LONG_CACHE: &str = "public, max-age=31536000, immutable";
const SHORT_CACHE: &str = "public, max-age=300";

#[derive(Deserialize)]
pub struct ImageQuery {
    v: Option<String>,
}

/// The post of `<id>.png`.
fn post_id(file: &str) -> Option<ObjectId> {
    ObjectId::parse_str(file.strip_suffix(".png")?).ok()
}

pub async fn post_image(
    req: HttpRequest,
    state: web::Data<AppState>,
    file: web::Path<String>,
    query: web::Query<ImageQuery>,
) -> ApiResult<HttpResponse> {
    let id = post_id(&file).ok_or_else(|| ApiError::not_found(MSG_NO_IMAGE))?;
    let post = match lookup(&state, None, None, Some(id)).await {
        Lookup::Found(post, _) => post,
        Lookup::Unknown => {
            return Err(ApiError::Unavailable(anyhow::anyhow!(
                "the read index cannot say what the post is"
            )))
        }
        Lookup::Hidden | Lookup::Missing => return Err(ApiError::not_found(MSG_NO_IMAGE)),
    };
    let version = share_image::version(&post.title, &post.author.name, post.thumbnail.as_deref());
    let dir = state.settings.server.media_dir.join("og");
    let path = dir.join(format!("{}-{version}.png", id.to_hex()));
    let png = match tokio::fs::read(&path).await {
        Ok(png) => png,
        Err(_) => {
            let media = state.settings.server.media_dir.clone();
            let png = make(&media, *post).await.map_err(ApiError::internal)?;
            store(&dir, &id, &path, &png).await;
            png
        }
    };
    let current = query.v.as_deref() == Some(version.as_str());
    let etag = etag_of(version.as_bytes());
    if req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim() == etag)
    {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .content_type("image/png")
        .insert_header((header::ETAG, etag))
        .insert_header((
            header::CACHE_CONTROL,
            if current { LONG_CACHE } else { SHORT_CACHE },
        ))
        .body(png))
}

/// Draws the image: the stored thumbnail filled in, or the card.
async fn make(media: &std::path::Path, post: PublicPost) -> anyhow::Result<Vec<u8>> {
    let thumbnail = match post.thumbnail.as_deref() {
        Some(t) if is_media_path(t) => {
            let name = t.trim_start_matches(MEDIA_URL_PREFIX);
            tokio::fs::read(media.join(name)).await.ok()
        }
        _ => None,
    };
    tokio::task::spawn_blocking(move || {
        if let Some(bytes) = thumbnail {
            match share_image::render_thumbnail(&bytes) {
                Ok(png) => return Ok(png),
                Err(e) => {
                    tracing::warn!(error = %e, "a thumbnail could not be used for a share image")
                }
            }
        }
        share_image::render_card(&post.title, &post.author.name)
    })
    .await?
}

/// Keeps the image (written aside, then moved into place) and removes the post's older ones.
async fn store(dir: &std::path::Path, id: &ObjectId, path: &std::path::Path, png: &[u8]) {
    if tokio::fs::create_dir_all(dir).await.is_err() {
        return;
    }
    let prefix = format!("{}-", id.to_hex());
    if let Ok(mut entries) = tokio::fs::read_dir(dir).await {
        while let Ok(Some(entry)) = entries.next_entry().await {
            let name = entry.file_name().to_string_lossy().to_string();
            if name.starts_with(&prefix) && entry.path() != path {
                let _ = tokio::fs::remove_file(entry.path()).await;
            }
        }
    }
    let tmp = path.with_extension(format!("{}.tmp", uuid::Uuid::new_v4()));
    if tokio::fs::write(&tmp, png).await.is_ok() && tokio::fs::rename(&tmp, path).await.is_err() {
        let _ = tokio::fs::remove_file(&tmp).await;
    }
}
