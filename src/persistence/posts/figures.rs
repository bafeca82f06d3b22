//! An author's posts with their counters, for the author's analytics.

use super::*;

/// A post's title, slug and counters (a missing or negative counter reads as 0).
#[derive(Debug, Clone, PartialEq)]
pub struct PostFigures {
    pub id: Option<ObjectId>,
    pub title: String,
    pub slug: String,
    pub views: i64,
    pub likes: i64,
    pub bookmarks: i64,
    pub shares: i64,
    pub comments: i64,
}

fn number(d: &Document, key: &str) -> i64 {
    d.get_i64(key)
        .or_else(|_| d.get_i32(key).map(i64::from))
        .unwrap_or(0)
        .max(0)
}

/// Every post of `author` with its counters.
pub async fn figures_of_author(db: &Db, author: ObjectId) -> DbResult<Vec<PostFigures>> {
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(doc! { "author": author })
        .projection(doc! {
            "title": 1, "slug": 1, "views": 1, "likesCount": 1, "bookmarksCount": 1,
            "shareCount": 1, "commentsCount": 1,
        })
        .await
        .db_context("reading a user's posts")?
        .try_collect()
        .await
        .db_context("reading a user's posts")?;
    Ok(docs
        .iter()
        .map(|d| PostFigures {
            id: d.get_object_id("_id").ok(),
            title: d.get_str("title").unwrap_or_default().to_string(),
            slug: d.get_str("slug").unwrap_or_default().to_string(),
            views: number(d, "views"),
            likes: number(d, "likesCount"),
            bookmarks: number(d, "bookmarksCount"),
            shares: number(d, "shareCount"),
            comments: number(d, "commentsCount"),
        })
        .collect())
}
