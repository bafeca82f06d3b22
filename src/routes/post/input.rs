//! The body of post-create and update: parsed into checked values, with images given as data
//! URLs stored in the media store. Keys the server owns (author, counters, blocked, slug...) are
//! not read from it.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Deserialize;
use serde_json::Value;

use crate::domain::blocks::{self, image_urls_mut, is_acceptable_image_source, Block};
use crate::domain::image::{
    decode_data_url_with_variants, is_data_url, is_media_path, DecodedImage, MEDIA_URL_PREFIX,
};
use crate::domain::image_variants::{meta_of, ImageMeta};
use crate::domain::post::{parse_language, Audience, PostStatus, PostType, Visibility};
use crate::domain::search::normalize;
use crate::domain::tags::{parse_tags, TagsInput};
use crate::error::{ApiError, ApiResult};
use crate::persistence::{categories, media, Db};

pub const MAX_TITLE_LEN: usize = 200;
/// Characters of a post's search text that are indexed.
pub const MAX_SEARCH_TEXT_LEN: usize = 100_000;
pub const MSG_TITLE_REQUIRED: &str = "Title is required";

/// What a client may send to create or change a post.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostBody {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub blocks: Option<Value>,
    #[serde(default)]
    pub thumbnail: Option<Value>,
    #[serde(default)]
    pub category: Option<Value>,
    #[serde(default)]
    pub tags: Option<TagsInput>,
    #[serde(default)]
    pub post_type: Option<String>,
    #[serde(default)]
    pub visibility: Option<String>,
    #[serde(default)]
    pub audience: Option<String>,
    #[serde(default)]
    pub is_featured: Option<bool>,
    #[serde(default)]
    pub is_pinned: Option<bool>,
    #[serde(default)]
    pub is_published: Option<bool>,
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub publish_at: Option<String>,
    /// Whether followers and email subscribers get the post by email when it becomes visible
    /// (yes when not given).
    #[serde(default)]
    pub email_subscribers: Option<bool>,
}

/// A title: trimmed, whitespace collapsed, 1 to 200 characters.
pub fn parse_title(raw: Option<&str>) -> ApiResult<String> {
    let title = raw
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if title.is_empty() {
        return Err(ApiError::bad_request(MSG_TITLE_REQUIRED));
    }
    if title.chars().count() > MAX_TITLE_LEN {
        return Err(ApiError::bad_request(format!(
            "Title must be at most {MAX_TITLE_LEN} characters"
        )));
    }
    Ok(title)
}

/// A category given as an id, a slug, or an object with `_id`; `Some(None)` clears it.
pub async fn parse_category(db: &Db, raw: &Value) -> ApiResult<Option<ObjectId>> {
    let key = match raw {
        Value::Null => return Ok(None),
        Value::String(s) if s.trim().is_empty() => return Ok(None),
        Value::String(s) => s.trim().to_string(),
        Value::Object(o) => match o.get("_id").or_else(|| o.get("id")) {
            Some(Value::String(s)) => s.trim().to_string(),
            _ => return Err(ApiError::bad_request("category must be a category id")),
        },
        _ => return Err(ApiError::bad_request("category must be a category id")),
    };
    let found = match ObjectId::parse_str(&key) {
        Ok(id) => categories::find_by_id(db, id).await?,
        Err(_) => categories::find_by_slug(db, &key).await?,
    };
    found
        .map(|c| Some(c.id))
        .ok_or_else(|| ApiError::bad_request("Category not found"))
}

/// A thumbnail as given: `None` for none, else an address or a data URL still to be stored.
pub fn parse_thumbnail(raw: &Value) -> ApiResult<Option<String>> {
    match raw {
        Value::Null => Ok(None),
        Value::String(s) if s.trim().is_empty() => Ok(None),
        Value::String(s) if is_acceptable_image_source(s.trim()) => Ok(Some(s.trim().to_string())),
        _ => Err(ApiError::bad_request(
            "thumbnail must be an http(s) address, a /media/ path or a base64 data URL",
        )),
    }
}

pub fn parse_post_type(raw: Option<&str>) -> ApiResult<Option<PostType>> {
    Ok(raw.map(PostType::parse).transpose()?)
}

pub fn parse_visibility(raw: Option<&str>) -> ApiResult<Option<Visibility>> {
    Ok(raw.map(Visibility::parse).transpose()?)
}

pub fn parse_lang(raw: Option<&str>) -> ApiResult<Option<String>> {
    Ok(raw.map(parse_language).transpose()?)
}

/// The status asked for: `status` wins; else `isPublished` picks published or draft; else `None`.
pub fn requested_status(body: &PostBody) -> ApiResult<Option<PostStatus>> {
    if let Some(s) = body.status.as_deref().filter(|s| !s.trim().is_empty()) {
        return Ok(Some(PostStatus::parse(s)?));
    }
    Ok(body.is_published.map(|p| {
        if p {
            PostStatus::Published
        } else {
            PostStatus::Draft
        }
    }))
}

/// `publishAt` for a scheduled post: required, in the future.
pub fn parse_publish_at(raw: Option<&str>, now: DateTime) -> ApiResult<DateTime> {
    let raw = raw
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::bad_request("publishAt is required for a scheduled post"))?;
    let at = chrono::DateTime::parse_from_rfc3339(raw)
        .map_err(|_| ApiError::bad_request("publishAt must be an ISO-8601 date and time"))?;
    let at = DateTime::from_millis(at.timestamp_millis());
    if at <= now {
        return Err(ApiError::bad_request(
            "publishAt must be in the future for a scheduled post",
        ));
    }
    Ok(at)
}

/// Records the use of an already stored file; a `/media/` address that names no stored file is
/// refused.
async fn adopt(
    db: &Db,
    dir: &std::path::Path,
    address: &str,
    post_id: ObjectId,
    owner_id: ObjectId,
) -> ApiResult<()> {
    if media::adopt(db, dir, address, post_id, owner_id).await? {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!(
            "Image {address} does not exist; upload it again"
        )))
    }
}

/// Tags from the body.
pub fn tags_of(body: &PostBody) -> ApiResult<Option<Vec<String>>> {
    Ok(body.tags.clone().map(|t| parse_tags(Some(t))).transpose()?)
}

/// Parses blocks after the upload rules (non-empty, no `blob:`) have been checked.
pub fn parse_blocks(raw: &Value) -> ApiResult<Vec<Block>> {
    Ok(blocks::parse_blocks(raw)?)
}

/// Images waiting to be stored: every data URL among the thumbnail and image blocks, decoded,
/// checked and given their resized variants (on a blocking thread) before anything is written.
pub struct PendingImages {
    thumbnail: Option<DecodedImage>,
    blocks: Vec<Option<DecodedImage>>,
}

impl PendingImages {
    pub async fn decode(thumbnail: Option<&str>, blocks: &mut [Block]) -> ApiResult<Self> {
        let thumbnail = thumbnail.filter(|t| is_data_url(t)).map(str::to_string);
        let urls: Vec<Option<String>> = image_urls_mut(blocks)
            .into_iter()
            .map(|url| url.as_str().filter(|u| is_data_url(u)).map(str::to_string))
            .collect();
        if thumbnail.is_none() && urls.iter().all(Option::is_none) {
            return Ok(PendingImages {
                thumbnail: None,
                blocks: urls.into_iter().map(|_| None).collect(),
            });
        }
        tokio::task::spawn_blocking(move || {
            let thumbnail = thumbnail
                .as_deref()
                .map(decode_data_url_with_variants)
                .transpose()?;
            let mut decoded = Vec::with_capacity(urls.len());
            for url in &urls {
                decoded.push(
                    url.as_deref()
                        .map(decode_data_url_with_variants)
                        .transpose()?,
                );
            }
            Ok(PendingImages {
                thumbnail,
                blocks: decoded,
            })
        })
        .await
        .map_err(ApiError::internal)?
    }

    /// Stores the images for the post and puts their `/media/...` addresses in place, with the
    /// size and variants of each stored picture beside its address in image blocks
    /// (`file.width`, `file.height`, `file.variants`). Returns the thumbnail's size and variants
    /// when it is a stored picture.
    pub async fn store(
        self,
        db: &Db,
        dir: &std::path::Path,
        post_id: ObjectId,
        owner_id: ObjectId,
        thumbnail: &mut Option<String>,
        blocks: &mut [Block],
    ) -> ApiResult<Option<ImageMeta>> {
        let mut thumb_meta = None;
        if let Some(image) = self.thumbnail {
            let address = media::store(db, dir, &image, post_id, owner_id).await?;
            thumb_meta = Some(stored_meta(&address, &image));
            *thumbnail = Some(address);
        } else if let Some(address) = thumbnail.as_deref().filter(|t| is_media_path(t)) {
            adopt(db, dir, address, post_id, owner_id).await?;
            thumb_meta = media::meta_of(dir, address).await;
        }
        let files = image_files_mut(blocks);
        for (file, image) in files.into_iter().zip(self.blocks) {
            let meta = if let Some(image) = image {
                let address = media::store(db, dir, &image, post_id, owner_id).await?;
                Some(stored_meta(&address, &image))
            } else if let Some(address) = file
                .get("url")
                .and_then(Value::as_str)
                .filter(|u| is_media_path(u))
                .map(str::to_string)
            {
                adopt(db, dir, &address, post_id, owner_id).await?;
                media::meta_of(dir, &address).await
            } else {
                None
            };
            if let (Some(meta), Some(file)) = (meta, file.as_object_mut()) {
                file.insert("url".into(), Value::String(meta.src.clone()));
                file.insert("width".into(), Value::from(meta.width));
                file.insert("height".into(), Value::from(meta.height));
                file.insert(
                    "variants".into(),
                    serde_json::to_value(&meta.variants).map_err(ApiError::internal)?,
                );
            }
        }
        Ok(thumb_meta)
    }
}

/// The `file` objects of the image blocks (`{"url": ...}`), in order.
fn image_files_mut(blocks: &mut [Block]) -> Vec<&mut Value> {
    blocks
        .iter_mut()
        .filter(|b| b.kind == "image")
        .filter_map(|b| b.data.get_mut("file"))
        .collect()
}

/// The size and variants of a picture just stored at `address`.
fn stored_meta(address: &str, image: &DecodedImage) -> ImageMeta {
    let name = address.strip_prefix(MEDIA_URL_PREFIX).unwrap_or(address);
    let made: Vec<_> = image.variants.iter().map(|v| (v.width, v.kind)).collect();
    meta_of(name, image.kind, image.width, image.height, &made)
}

/// The normalised text search matches: title, tags and block text.
pub fn search_text(title: &str, tags: &[String], blocks: &[Block]) -> String {
    let mut text = normalize(&format!(
        "{title} {} {}",
        tags.join(" "),
        blocks::plain_text_of(blocks)
    ));
    if text.len() > MAX_SEARCH_TEXT_LEN {
        let mut cut = MAX_SEARCH_TEXT_LEN;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

/// The search text of a post for its audience: a subscribers-only post is found by its title,
/// tags and excerpt (what everyone may see of it), never by the text of its locked blocks.
pub fn search_text_for(
    title: &str,
    tags: &[String],
    blocks: &[Block],
    audience: Audience,
) -> String {
    match audience {
        Audience::Everyone => search_text(title, tags, blocks),
        Audience::Subscribers => normalize(&format!(
            "{} {}",
            search_text(title, tags, &[]),
            normalize(&super::excerpt(blocks))
        )),
    }
}

pub fn parse_audience(raw: Option<&str>) -> ApiResult<Option<Audience>> {
    Ok(raw
        .filter(|s| !s.trim().is_empty())
        .map(Audience::parse)
        .transpose()?)
}

/// Every media address a post uses (thumbnail and image blocks).
pub fn media_in_use(thumbnail: Option<&str>, blocks: &[Block]) -> Vec<String> {
    let mut used = blocks::media_paths(blocks);
    if let Some(t) = thumbnail.filter(|t| crate::domain::image::is_media_path(t)) {
        used.push(t.to_string());
    }
    used
}
