//! A post as the outside world may see it, read from the JSON the read index serves to guests
//! (a `PostView`): the fields pages, feeds and share images need.

use serde::Deserialize;

use crate::domain::blocks::Block;
use crate::domain::image_variants::ImageMeta;
use crate::post_view::{AuthorView, CategoryRef};

/// A post as a guest sees it (a subscribers-only post locked: no blocks, its teaser only).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublicPost {
    #[serde(rename = "_id")]
    pub id: String,
    pub slug: String,
    pub title: String,
    #[serde(default)]
    pub blocks: Vec<Block>,
    #[serde(default)]
    pub thumbnail: Option<String>,
    #[serde(default)]
    pub thumbnail_image: Option<ImageMeta>,
    #[serde(default)]
    pub excerpt: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub language: String,
    #[serde(default)]
    pub locked: bool,
    #[serde(default)]
    pub visibility: String,
    #[serde(default)]
    pub status: String,
    #[serde(default)]
    pub blocked: bool,
    #[serde(default)]
    pub reading_time: i64,
    #[serde(default)]
    pub likes_count: i64,
    #[serde(default)]
    pub comments_count: i64,
    #[serde(default)]
    pub published_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// When its content last changed after publication; absent when never.
    #[serde(default)]
    pub edited_at: Option<String>,
    /// The series it is a part of.
    #[serde(default)]
    pub series_id: Option<String>,
    /// Where it stands in its series (filled in by the page's route).
    #[serde(default)]
    pub series: Option<crate::post_view::SeriesPlace>,
    pub author: AuthorView,
    #[serde(default)]
    pub category: Option<CategoryRef>,
}

impl PublicPost {
    /// Parses the JSON of a `PostView`.
    pub fn from_json(raw: &str) -> Option<Self> {
        serde_json::from_str(raw).ok()
    }

    /// When the post came out: its publication time, else its creation.
    pub fn published(&self) -> &str {
        self.published_at
            .as_deref()
            .filter(|p| !p.is_empty())
            .unwrap_or(&self.created_at)
    }

    /// When the post last changed for readers: its last edit after publication, else its
    /// publication.
    pub fn modified(&self) -> &str {
        self.edited_at
            .as_deref()
            .filter(|e| !e.is_empty())
            .unwrap_or_else(|| self.published())
    }

    /// Whether search engines may list it (public, published, not blocked).
    pub fn is_listable(&self) -> bool {
        self.visibility == "Public" && self.status == "published" && !self.blocked
    }

    /// The post's language for `<html lang>` (`en` when it has none that looks like a code).
    pub fn lang(&self) -> &str {
        lang_or_default(&self.language)
    }
}

/// A language tag as pages use it: letters, digits and `-` only, else `en`.
pub fn lang_or_default(lang: &str) -> &str {
    let ok = !lang.is_empty()
        && lang.len() <= 35
        && lang.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if ok {
        lang
    } else {
        "en"
    }
}

/// The path of a post's page.
pub fn post_path(slug: &str) -> String {
    format!("/post/{}", encode_segment(slug))
}

/// The path of an author's page.
pub fn author_path(id: &str) -> String {
    format!("/author-profile/{}", encode_segment(id))
}

/// The path of a tag's page.
pub fn tag_path(tag: &str) -> String {
    format!("/tag/{}", encode_segment(tag))
}

/// The path of a category's page.
pub fn category_path(slug: &str) -> String {
    format!("/category/{}", encode_segment(slug))
}

/// The path of a series' page.
pub fn series_path(slug: &str) -> String {
    format!("/series/{}", encode_segment(slug))
}

/// Percent-encodes one path segment (everything but unreserved characters).
pub fn encode_segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_encoded() {
        assert_eq!(tag_path("rust lang"), "/tag/rust%20lang");
        assert_eq!(tag_path("c/c++"), "/tag/c%2Fc%2B%2B");
        assert_eq!(tag_path("café"), "/tag/caf%C3%A9");
    }

    #[test]
    fn odd_languages_fall_back_to_english() {
        assert_eq!(lang_or_default("pt-BR"), "pt-BR");
        assert_eq!(lang_or_default("\"><script>"), "en");
        assert_eq!(lang_or_default(""), "en");
    }
}
