//! The body of post-create and update: parsed into checked values, with images given as data
//! URLs stored in the media store. Keys the server owns (author, counters, blocked, slug...) are
//! not read from it.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Deserialize;
use serde_json::Value;

use crate::domain::blocks::{
    self, check_upload_rules, contains_blob_url, image_urls_mut, is_acceptable_image_source, Block,
    MSG_BLOB_URL, MSG_BLOCKS_REQUIRED,
};
use crate::domain::error::DomainError;
use crate::domain::image::{
    decode_data_url_with_variants, is_data_url, is_media_path, DecodedImage, MEDIA_URL_PREFIX,
};
use crate::domain::image_variants::{meta_of, record_in_file, ImageMeta};
use crate::domain::post::{parse_language, Audience, PostStatus, PostType, Visibility};
use crate::domain::tags::{parse_tags, TagsInput};
use crate::error::{ApiError, ApiResult};
use crate::extract::{FieldValue, Refusal, Sent};
use crate::persistence::{categories, media, Db};

pub const MAX_TITLE_LEN: usize = 200;
pub const MSG_TITLE_REQUIRED: &str = "Title is required";
pub const MSG_BAD_THUMBNAIL: &str =
    "thumbnail must be an http(s) address, a /media/ path or a base64 data URL";
pub const MSG_BAD_CATEGORY: &str = "category must be a category id";
pub const MSG_CATEGORY_NOT_FOUND: &str = "Category not found";

// Keys it does not name are ignored (the editor sends keys of its own), so it is not
// `deny_unknown_fields`. `blocks`, `thumbnail` and `category` are read by their validating
// newtypes; `null` in any of them counts as not sent. (A comment, not documentation: the doc
// comment below is the body's description in the API document.)
/// What a client may send to create or change a post.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostBody {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    #[schema(value_type = Value)]
    pub blocks: Sent<BlocksValue>,
    #[serde(default)]
    #[schema(value_type = Value)]
    pub thumbnail: Sent<ThumbnailValue>,
    #[serde(default)]
    #[schema(value_type = Value)]
    pub category: Sent<CategoryRef>,
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
    /// The editor saved while the author was typing: kept as an autosave revision, at most one
    /// per `revisions.autosave_every_seconds` (an explicit save when not given).
    #[serde(default)]
    pub autosave: Option<bool>,
}

impl PostBody {
    /// The upload rules, answered before any other field: `blocks` (required when
    /// `blocks_required`, on create) is a non-empty array, and neither it nor the thumbnail holds
    /// a `blob:` address — in that order, with the spec's messages.
    pub fn check_uploads(&self, blocks_required: bool) -> ApiResult<()> {
        if self.blocks.value()?.is_none() && blocks_required {
            return Err(ApiError::bad_request(MSG_BLOCKS_REQUIRED));
        }
        self.thumbnail.value()?;
        Ok(())
    }

    /// The blocks sent, read (after the title is checked); `None` when not sent.
    pub fn blocks(&self) -> ApiResult<Option<Vec<Block>>> {
        match self.blocks.value()? {
            Some(b) => Ok(Some(b.0.clone()?)),
            None => Ok(None),
        }
    }

    /// The thumbnail sent: `None` when not sent, `Some(None)` to remove it (an empty text),
    /// else an address or a data URL still to be stored.
    pub fn thumbnail(&self) -> ApiResult<Option<Option<String>>> {
        match self.thumbnail.value()? {
            Some(t) => Ok(Some(t.0.clone()?)),
            None => Ok(None),
        }
    }

    /// The category sent, looked up: `None` when not sent, `Some(None)` to remove it.
    pub async fn category(&self, db: &Db) -> ApiResult<Option<Option<ObjectId>>> {
        match self.category.value()? {
            Some(c) => Ok(Some(c.resolve(db).await?)),
            None => Ok(None),
        }
    }
}

/// `blocks`: a non-empty array without `blob:` addresses (the upload rules, refused before any
/// other field: "Blocks are required", then [`MSG_BLOB_URL`]), holding the blocks as
/// `domain::blocks` reads them — or the message refusing one of them, answered after the title.
#[derive(Debug, Clone, PartialEq)]
pub struct BlocksValue(Result<Vec<Block>, DomainError>);

impl FieldValue for BlocksValue {
    fn read(value: Value) -> Result<Self, Refusal> {
        check_upload_rules(&value, None).map_err(|e| Refusal::new(e.to_string()))?;
        Ok(BlocksValue(blocks::parse_blocks(&value)))
    }
}

/// `thumbnail`: anything holding a `blob:` address is refused with the upload rules
/// ([`MSG_BLOB_URL`]); otherwise the picture's address — `None` for an empty text (no picture),
/// else an http(s) address, a `/media/` path or a data URL — or the message refusing it,
/// answered after the blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct ThumbnailValue(Result<Option<String>, Refusal>);

impl FieldValue for ThumbnailValue {
    fn read(value: Value) -> Result<Self, Refusal> {
        if contains_blob_url(&value) {
            return Err(Refusal::new(MSG_BLOB_URL));
        }
        Ok(ThumbnailValue(match &value {
            Value::String(s) if s.trim().is_empty() => Ok(None),
            Value::String(s) if is_acceptable_image_source(s.trim()) => {
                Ok(Some(s.trim().to_string()))
            }
            _ => Err(Refusal::new(MSG_BAD_THUMBNAIL)),
        }))
    }
}

/// `category`: an id or a slug, or an object carrying it as `_id` (or `id`); an empty text
/// removes the category. Another value is refused with [`MSG_BAD_CATEGORY`].
#[derive(Debug, Clone, PartialEq)]
pub enum CategoryRef {
    /// No category.
    Clear,
    /// The id or slug of a category, still to be looked up.
    Key(String),
}

impl FieldValue for CategoryRef {
    fn read(value: Value) -> Result<Self, Refusal> {
        match value {
            Value::String(s) if s.trim().is_empty() => Ok(CategoryRef::Clear),
            Value::String(s) => Ok(CategoryRef::Key(s.trim().to_string())),
            Value::Object(o) => match o.get("_id").or_else(|| o.get("id")) {
                Some(Value::String(s)) => Ok(CategoryRef::Key(s.trim().to_string())),
                _ => Err(Refusal::new(MSG_BAD_CATEGORY)),
            },
            _ => Err(Refusal::new(MSG_BAD_CATEGORY)),
        }
    }
}

crate::field_value!(BlocksValue, ThumbnailValue, CategoryRef);

impl CategoryRef {
    /// The category named (by id, else by slug); "Category not found" when there is none.
    pub async fn resolve(&self, db: &Db) -> ApiResult<Option<ObjectId>> {
        let key = match self {
            CategoryRef::Clear => return Ok(None),
            CategoryRef::Key(key) => key,
        };
        let found = match ObjectId::parse_str(key) {
            Ok(id) => categories::find_by_id(db, id).await?,
            Err(_) => categories::find_by_slug(db, key).await?,
        };
        found
            .map(|c| Some(c.id))
            .ok_or_else(|| ApiError::bad_request(MSG_CATEGORY_NOT_FOUND))
    }
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
                record_in_file(file, &meta).map_err(ApiError::internal)?;
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

pub fn parse_audience(raw: Option<&str>) -> ApiResult<Option<Audience>> {
    Ok(raw
        .filter(|s| !s.trim().is_empty())
        .map(Audience::parse)
        .transpose()?)
}
