//! How a post is shown to clients, the same from every source: a list page built from the read
//! index (stored cards) and one built from the database give byte-for-byte the same fields.
//!
//! A `PostView` is the post's own fields (`CardView`, which the read index stores as JSON per
//! post) plus its author and category as they are now (`AuthorView`, `CategoryRef`, looked up by
//! id when the page is shown, so a renamed author or category shows its new name everywhere).

use mongodb::bson::DateTime;
use serde::{Deserialize, Serialize};

use crate::domain::blocks::Block;
use crate::domain::image_variants::ImageMeta;
use crate::domain::post::{Audience, PostStatus, PostType, Visibility};
use crate::persistence::posts::Post;

/// Characters of text in a post's excerpt.
pub use crate::domain::search::excerpt;
/// Name shown for posts whose author account is gone.
pub const DELETED_AUTHOR: &str = "Deleted user";

/// A date as clients see it (ISO-8601).
pub fn iso(dt: DateTime) -> String {
    dt.try_to_rfc3339_string().unwrap_or_default()
}

/// A post's author as shown with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct AuthorView {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub avatar: Option<String>,
}

impl AuthorView {
    /// What is shown for an author whose account no longer exists.
    pub fn deleted(id: &str) -> Self {
        Self {
            id: id.to_string(),
            name: DELETED_AUTHOR.to_string(),
            avatar: None,
        }
    }
}

/// A post's category as shown with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CategoryRef {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub slug: String,
}

/// A post's own fields as clients see them: everything but its author and category.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardView {
    #[serde(rename = "_id")]
    pub id: String,
    pub slug: String,
    pub title: String,
    pub blocks: Vec<Block>,
    pub thumbnail: Option<String>,
    /// The thumbnail's size and resized variants (null when it is not a stored picture or was
    /// stored before sizes were recorded).
    pub thumbnail_image: Option<ImageMeta>,
    pub excerpt: String,
    pub tags: Vec<String>,
    pub post_type: PostType,
    pub visibility: Visibility,
    /// `everyone` or `subscribers`.
    pub audience: Audience,
    /// True when the viewer may not read this subscribers-only post: `blocks` is empty and the
    /// title, thumbnail and excerpt are the teaser.
    pub locked: bool,
    /// The blocks of a locked post, kept here (never sent) until the viewer is known to may read
    /// them (`services::posts::unlock_for`).
    #[serde(skip)]
    pub sealed_blocks: Option<Vec<Block>>,
    pub is_featured: bool,
    pub is_pinned: bool,
    pub is_published: bool,
    pub language: String,
    pub status: PostStatus,
    pub publish_at: Option<String>,
    pub published_at: Option<String>,
    pub blocked: bool,
    pub likes_count: i64,
    pub bookmarks_count: i64,
    pub views: i64,
    pub share_count: i64,
    pub comments_count: i64,
    pub reading_time: i64,
    pub created_at: String,
    pub updated_at: String,
    /// When its content last changed after publication (beyond a grace period); null when
    /// never.
    pub edited_at: Option<String>,
    /// The series it is a part of; the post's own answer says where (`series`).
    pub series_id: Option<String>,
    /// Where it stands in its series: only in the post's own answer, when it is a visible part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesPlace>,
    /// Where an imported post came from (absent on posts written here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported_from: Option<ImportedFromView>,
}

/// The platform an imported post came from, its id there and its address there.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportedFromView {
    pub source: String,
    pub source_id: String,
    pub url: Option<String>,
}

/// A post's place in its series.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeriesPlace {
    pub id: String,
    pub slug: String,
    pub title: String,
    /// 1-based among the series' visible parts.
    pub position: usize,
    pub total: usize,
    pub previous: Option<PartLink>,
    pub next: Option<PartLink>,
    /// Every visible part in order.
    pub parts: Vec<PartLink>,
}

/// A link to a part of a series.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PartLink {
    pub slug: String,
    pub title: String,
    pub position: usize,
}

impl CardView {
    /// The post's fields; a subscribers-only post locked (its blocks sealed), so a path that
    /// forgets to ask who reads shows the teaser, never the blocks.
    pub fn of(p: &Post) -> Self {
        let locked = p.audience == Audience::Subscribers;
        let (blocks, sealed_blocks) = if locked {
            (Vec::new(), Some(p.blocks.clone()))
        } else {
            (p.blocks.clone(), None)
        };
        Self {
            id: p.id.to_hex(),
            excerpt: excerpt(&p.blocks),
            slug: p.slug.clone(),
            title: p.title.clone(),
            blocks,
            audience: p.audience,
            locked,
            sealed_blocks,
            thumbnail: p.thumbnail.clone(),
            thumbnail_image: p.thumbnail_image.clone(),
            tags: p.tags.clone(),
            post_type: p.post_type,
            visibility: p.visibility,
            is_featured: p.is_featured,
            is_pinned: p.is_pinned,
            is_published: p.is_published,
            language: p.language.clone(),
            status: p.status,
            publish_at: p.publish_at.map(iso),
            published_at: p.published_at.map(iso),
            blocked: p.blocked,
            likes_count: p.likes_count,
            bookmarks_count: p.bookmarks_count,
            views: p.views,
            share_count: p.share_count,
            comments_count: p.comments_count,
            reading_time: p.reading_time,
            created_at: iso(p.created_at),
            updated_at: iso(p.updated_at),
            edited_at: p.edited_at.map(iso),
            series_id: p.series_id.map(|s| s.to_hex()),
            series: None,
            imported_from: p.imported_from.as_ref().map(|f| ImportedFromView {
                source: f.source.clone(),
                source_id: f.source_id.clone(),
                url: f.url.clone(),
            }),
        }
    }
}

/// A post as clients see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PostView {
    pub author: AuthorView,
    pub category: Option<CategoryRef>,
    #[serde(flatten)]
    pub card: CardView,
}

/// Joins a stored card (the JSON object of a `CardView`) with its author and category into the
/// JSON of a `PostView`, without parsing the card.
pub fn join_card(card: &str, author: &AuthorView, category: Option<&CategoryRef>) -> String {
    let body = card.trim().strip_prefix('{').unwrap_or(card);
    let mut out = String::with_capacity(card.len() + 160);
    out.push_str("{\"author\":");
    out.push_str(&serde_json::to_string(author).unwrap_or_else(|_| "null".into()));
    out.push_str(",\"category\":");
    out.push_str(&serde_json::to_string(&category).unwrap_or_else(|_| "null".into()));
    if body.trim_start() != "}" {
        out.push(',');
    }
    out.push_str(body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_joined_card_reads_as_the_view_it_came_from() {
        let card = r#"{"_id":"x","title":"T"}"#;
        let author = AuthorView::deleted("a");
        let joined: serde_json::Value =
            serde_json::from_str(&join_card(card, &author, None)).unwrap();
        assert_eq!(
            joined,
            serde_json::json!({
                "_id": "x", "title": "T", "category": null,
                "author": { "_id": "a", "name": "Deleted user", "avatar": null }
            })
        );
    }
}
