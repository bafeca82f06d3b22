//! Editing a post: the fields an edit sets, written with one update.

use super::*;

/// What an edit of a post sets; `None` leaves a field as it is.
pub struct PostEdit {
    pub updated_at: DateTime,
    /// The category (`Some(None)`: none).
    pub category: Option<Option<ObjectId>>,
    pub post_type: Option<PostType>,
    pub visibility: Option<Visibility>,
    pub is_featured: Option<bool>,
    pub is_pinned: Option<bool>,
    pub language: Option<String>,
    /// When a scheduled post goes out (`None`: not scheduled).
    pub publish_at: Option<DateTime>,
    pub status: PostStatus,
    /// When the post becomes published by this edit: its new `createdAt` and `publishedAt`.
    pub published_now: Option<DateTime>,
    pub title: String,
    pub audience: Audience,
    pub search_text: String,
    pub reading_time: i64,
    pub blocks: Option<Vec<Block>>,
    pub tags: Option<Vec<String>>,
    /// The thumbnail's address and, for a stored picture, its size and variants.
    pub thumbnail: Option<(Option<String>, Option<ImageMeta>)>,
}

fn bson_of<T: Serialize>(value: &T) -> DbResult<Bson> {
    mongodb::bson::to_bson(value).map_err(|e| DbError::Other(anyhow::Error::new(e)))
}

impl PostEdit {
    fn set(&self) -> DbResult<Document> {
        let mut set = doc! { "updatedAt": self.updated_at };
        if let Some(category) = self.category {
            set.insert("category", category);
        }
        if let Some(t) = &self.post_type {
            set.insert("postType", bson_of(t)?);
        }
        if let Some(v) = self.visibility {
            set.insert("visibility", v.as_str());
        }
        if let Some(f) = self.is_featured {
            set.insert("isFeatured", f);
        }
        if let Some(p) = self.is_pinned {
            set.insert("isPinned", p);
        }
        if let Some(l) = &self.language {
            set.insert("language", l.as_str());
        }
        match self.publish_at {
            Some(when) => set.insert("publishAt", when),
            None => set.insert("publishAt", Bson::Null),
        };
        set.insert("status", self.status.as_str());
        set.insert("isPublished", self.status == PostStatus::Published);
        if let Some(at) = self.published_now {
            set.insert("createdAt", at);
            set.insert("publishedAt", at);
        }
        set.insert("title", self.title.as_str());
        set.insert("audience", self.audience.as_str());
        set.insert("searchText", self.search_text.as_str());
        set.insert("readingTime", self.reading_time);
        if let Some(b) = &self.blocks {
            set.insert(
                "blocks",
                bson_of(&crate::domain::blocks::storage::stored(b))?,
            );
        }
        if let Some(t) = &self.tags {
            set.insert("tags", t.clone());
        }
        if let Some((thumbnail, image)) = &self.thumbnail {
            set.insert("thumbnail", thumbnail.clone());
            set.insert("thumbnailImage", bson_of(image)?);
        }
        Ok(set)
    }
}

/// Applies `edit` to post `id`; returns the post as it was before (`None`: no such post).
pub async fn apply_edit(db: &Db, id: ObjectId, edit: &PostEdit) -> DbResult<Option<Post>> {
    update_returning_before(db, id, edit.set()?).await
}
