//! Pages for the outside world, served from the read index: the app's routes with their head and
//! content filled in (`pages`), Atom and RSS feeds (`feeds`), `robots.txt` and sitemaps
//! (`sitemap`), and share images (`share`).

pub mod feeds;
pub mod pages;
pub mod series;
pub mod share;
pub mod sitemap;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use mongodb::bson::oid::ObjectId;
use sha2::{Digest, Sha256};

use crate::auth::AuthUser;
use crate::domain::image::{is_media_path, ImageKind, MEDIA_URL_PREFIX};
use crate::domain::image_variants::{planned, ImageMeta};
use crate::feeds::cards::ReadError;
use crate::pages::article::ImageSizes;
use crate::pages::model::PublicPost;
use crate::pages::view::Site;
use crate::persistence::media::meta_on_disk;
use crate::persistence::posts::{PageRequest, SortKind};
use crate::services::feed::{self, Feed};
use crate::services::posts::Access;
use crate::state::AppState;

/// The app's page shell the site's pages are drawn in (the routes themselves are in the route
/// table, [`crate::routes::table::ROUTES`], marked `site`).
pub fn configure(cfg: &mut web::ServiceConfig, dir: &Path) {
    cfg.app_data(web::Data::new(crate::pages::shell::Shell::load(dir)));
}

/// The site's address for absolute links.
pub fn site(state: &AppState) -> Site {
    Site::new(&state.settings.server.public_url)
}

/// The newest posts of a list as a guest sees them, and the list's total.
pub async fn guest_posts(
    state: &AppState,
    list: &Feed,
    limit: i64,
) -> crate::error::ApiResult<(Vec<PublicPost>, u64)> {
    let page = PageRequest {
        after: None,
        after_id: None,
        skip: 0,
        limit,
    };
    let (raw, total) = feed::serve(state, None, list, SortKind::Newest, page).await?;
    Ok((
        raw.iter()
            .filter_map(|r| PublicPost::from_json(r.get()))
            .collect(),
        total,
    ))
}

/// What the index says of a post looked up for a page or image.
pub enum Lookup {
    /// A guest may see it: the post and its JSON as the API gives it.
    Found(Box<PublicPost>, String),
    /// It exists and this viewer may see it, but a guest may not: nothing of it is shown.
    Hidden,
    /// Nobody here may see it, or there is none.
    Missing,
    /// The index cannot say (Redis away, index being built).
    Unknown,
}

/// Longest slug worth looking up.
const MAX_SLUG_LEN: usize = 200;

/// Looks a post up by slug or id in the read index.
pub async fn lookup(
    state: &AppState,
    viewer: Option<&AuthUser>,
    slug: Option<&str>,
    id: Option<ObjectId>,
) -> Lookup {
    match lookup_in_index(state, viewer, slug, id).await {
        Ok(found) => found,
        Err(e) => {
            tracing::debug!(error = %e, "read index unavailable for a page");
            Lookup::Unknown
        }
    }
}

async fn lookup_in_index(
    state: &AppState,
    viewer: Option<&AuthUser>,
    slug: Option<&str>,
    id: Option<ObjectId>,
) -> Result<Lookup, ReadError> {
    let Some(gen) = state.feeds.current() else {
        return Ok(Lookup::Unknown);
    };
    let id = match (id, slug) {
        (Some(id), _) => id,
        (None, Some(slug)) if !slug.is_empty() && slug.len() <= MAX_SLUG_LEN => {
            match state.feeds.post_id_by_slug(&gen, slug).await? {
                Some(id) => id,
                None => return Ok(Lookup::Missing),
            }
        }
        _ => return Ok(Lookup::Missing),
    };
    let Some(stored) = state.feeds.stored_posts(&gen, &[id]).await?.pop().flatten() else {
        return Ok(Lookup::Missing);
    };
    let access = Access {
        author: stored.author,
        status: &stored.status,
        visibility: &stored.visibility,
        blocked: stored.blocked,
    };
    if !access.visible_to(None) {
        return Ok(if viewer.is_some() && access.visible_to(viewer) {
            Lookup::Hidden
        } else {
            Lookup::Missing
        });
    }
    let Some(raw) = state.feeds.render_stored(&[stored]).await?.pop() else {
        return Ok(Lookup::Missing);
    };
    Ok(match PublicPost::from_json(raw.get()) {
        Some(post) => Lookup::Found(Box::new(post), raw.get().to_string()),
        None => Lookup::Missing,
    })
}

/// Sizes and variants of stored media (content-addressed, so a size never changes), read from
/// the file's header and the directory once and remembered (a picture whose variants are not
/// all there yet is looked at again next time).
pub struct MediaSizes<'a> {
    pub dir: &'a Path,
    pub caches: &'a SiteCaches,
}

/// Media sizes remembered, at most this many.
const MAX_REMEMBERED_SIZES: usize = 20_000;

/// What the site's pages keep between requests, one per server (made by `startup.rs` and given
/// to every worker as app data): the sizes of stored media and the rendered post pages.
#[derive(Default)]
pub struct SiteCaches {
    sizes: Mutex<HashMap<String, ImageMeta>>,
    rendered: Mutex<HashMap<String, std::sync::Arc<pages::Rendered>>>,
}

impl SiteCaches {
    /// The caches of the server answering `req` (fresh ones, kept by nobody, when it has none).
    pub fn of(req: &HttpRequest) -> web::Data<SiteCaches> {
        req.app_data::<web::Data<SiteCaches>>()
            .cloned()
            .unwrap_or_else(|| web::Data::new(SiteCaches::default()))
    }
}

impl ImageSizes for MediaSizes<'_> {
    fn size_of(&self, url: &str) -> Option<(u32, u32)> {
        self.meta_of(url).map(|m| (m.width, m.height))
    }

    fn meta_of(&self, url: &str) -> Option<ImageMeta> {
        if !is_media_path(url) {
            return None;
        }
        let name = url.strip_prefix(MEDIA_URL_PREFIX)?;
        if let Some(meta) = self
            .caches
            .sizes
            .lock()
            .ok()
            .and_then(|s| s.get(name).cloned())
        {
            return Some(meta);
        }
        let meta = meta_on_disk(self.dir, url)?;
        let kind = ImageKind::from_ext(name.rsplit_once('.')?.1)?;
        let complete = meta.variants.len() == planned(kind, meta.width).len();
        if complete {
            if let Ok(mut sizes) = self.caches.sizes.lock() {
                if sizes.len() >= MAX_REMEMBERED_SIZES {
                    sizes.clear();
                }
                sizes.insert(name.to_string(), meta.clone());
            }
        }
        Some(meta)
    }
}

/// The media directory.
pub fn media_dir(state: &AppState) -> PathBuf {
    state.settings.server.media_dir.clone()
}

/// A strong validator of a body.
pub fn etag_of(body: &[u8]) -> String {
    format!("\"{}\"", hex::encode(&Sha256::digest(body)[..12]))
}

/// Whether the request's `If-None-Match` names this validator.
fn matches_etag(req: &HttpRequest, etag: &str) -> bool {
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
}

/// Whether the request's `If-Modified-Since` is at or after `modified` (and it has no
/// `If-None-Match`, which wins).
fn not_modified_since(req: &HttpRequest, modified: chrono::DateTime<chrono::Utc>) -> bool {
    if req.headers().contains_key(header::IF_NONE_MATCH) {
        return false;
    }
    req.headers()
        .get(header::IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| chrono::DateTime::parse_from_rfc2822(v).ok())
        .is_some_and(|since| since.timestamp() >= modified.timestamp())
}

/// An HTTP date.
pub fn http_date(at: chrono::DateTime<chrono::Utc>) -> String {
    at.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

/// A body with its validators (`ETag`, and `Last-Modified` when given), or `304 Not Modified`
/// when the request already has it. Only `200` answers are validated.
pub fn validated(
    req: &HttpRequest,
    status: StatusCode,
    content_type: &'static str,
    cache_control: &'static str,
    body: String,
    modified: Option<chrono::DateTime<chrono::Utc>>,
) -> HttpResponse {
    let etag = etag_of(body.as_bytes());
    let mut res = if status == StatusCode::OK
        && (matches_etag(req, &etag) || modified.is_some_and(|m| not_modified_since(req, m)))
    {
        HttpResponse::NotModified().finish()
    } else {
        HttpResponse::build(status)
            .content_type(content_type)
            .body(body)
    };
    let headers = res.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    if status == StatusCode::OK {
        if let Ok(v) = HeaderValue::from_str(&etag) {
            headers.insert(header::ETAG, v);
        }
        if let Some(Ok(v)) = modified.map(|m| HeaderValue::from_str(&http_date(m))) {
            headers.insert(header::LAST_MODIFIED, v);
        }
    }
    res
}

/// Decodes a percent-encoded path segment (`None`: not UTF-8, or holding a control character).
pub fn decode_segment(raw: &str) -> Option<String> {
    let decoded = percent_encoding::percent_decode_str(raw)
        .decode_utf8()
        .ok()?
        .into_owned();
    (!decoded.chars().any(char::is_control)).then_some(decoded)
}
