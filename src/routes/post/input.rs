//! The body of post-create and update: parsed into checked values, with images given as data
//! URLs stored in the media store. Keys the server owns (author, counters, blocked, slug...) are
//! not read from it.

use serde::Deserialize;
use serde_json::Value;

use crate::domain::blocks::{
    self, check_upload_rules, contains_blob_url, is_acceptable_image_source, Block, MSG_BLOB_URL,
    MSG_BLOCKS_REQUIRED,
};
use crate::domain::error::DomainError;
use crate::domain::post::{parse_language, Audience, PostStatus, PostType, Visibility};
use crate::domain::tags::{parse_tags, TagsInput};
use crate::error::{ApiError, ApiResult};
use crate::extract::{FieldValue, Refusal, Sent};
use crate::services::post_write::{PostInput, MSG_TITLE_REQUIRED};

pub const MAX_TITLE_LEN: usize = 200;
pub const MSG_BAD_THUMBNAIL: &str =
    "thumbnail must be an http(s) address, a /media/ path or a base64 data URL";
pub const MSG_BAD_CATEGORY: &str = "category must be a category id";

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

    /// The body read into checked values, in the order its refusals are answered: the upload
    /// rules (`blocks` required on create), the title (required on create, else kept when not
    /// sent), the blocks, the thumbnail, the tags, the category's shape, the status, the
    /// audience, the type, the visibility and the language. The category is looked up, and
    /// `publishAt` read against the time of the write, by the service.
    pub fn input(self, creating: bool) -> ApiResult<PostInput> {
        self.check_uploads(creating)?;
        let title = match (self.title.as_deref(), creating) {
            (None, false) => None,
            (raw, _) => Some(parse_title(raw)?),
        };
        let blocks = self.blocks()?;
        let thumbnail = self.thumbnail()?;
        let tags = tags_of(&self)?;
        let category = match self.category.value()? {
            None => None,
            Some(CategoryRef::Clear) => Some(None),
            Some(CategoryRef::Key(key)) => Some(Some(key.clone())),
        };
        let status = requested_status(&self)?;
        let audience = parse_audience(self.audience.as_deref())?;
        let post_type = parse_post_type(self.post_type.as_deref())?;
        let visibility = parse_visibility(self.visibility.as_deref())?;
        let language = parse_lang(self.language.as_deref())?;
        Ok(PostInput {
            title,
            blocks,
            thumbnail,
            category,
            tags,
            post_type,
            visibility,
            audience,
            language,
            status,
            publish_at: self.publish_at,
            is_featured: self.is_featured,
            is_pinned: self.is_pinned,
            email_subscribers: self.email_subscribers,
            autosave: self.autosave,
        })
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

/// A title: trimmed, whitespace collapsed, 1 to 200 characters.
fn parse_title(raw: Option<&str>) -> ApiResult<String> {
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

fn parse_post_type(raw: Option<&str>) -> ApiResult<Option<PostType>> {
    Ok(raw.map(PostType::parse).transpose()?)
}

fn parse_visibility(raw: Option<&str>) -> ApiResult<Option<Visibility>> {
    Ok(raw.map(Visibility::parse).transpose()?)
}

fn parse_lang(raw: Option<&str>) -> ApiResult<Option<String>> {
    Ok(raw.map(parse_language).transpose()?)
}

/// The status asked for: `status` wins; else `isPublished` picks published or draft; else `None`.
fn requested_status(body: &PostBody) -> ApiResult<Option<PostStatus>> {
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

/// Tags from the body.
fn tags_of(body: &PostBody) -> ApiResult<Option<Vec<String>>> {
    Ok(body.tags.clone().map(|t| parse_tags(Some(t))).transpose()?)
}

fn parse_audience(raw: Option<&str>) -> ApiResult<Option<Audience>> {
    Ok(raw
        .filter(|s| !s.trim().is_empty())
        .map(Audience::parse)
        .transpose()?)
}
