//! Reading the records behind the administrators' workbook (`services::workbook`): the users,
//! the posts and the engagement records, each through a cursor in `_id` order, `PAGE` documents
//! at a time, so the whole site never sits in memory.

use futures_util::TryStreamExt;
use mongodb::bson::{doc, Document};

use super::{posts, users, Db, DbContext, DbResult};

/// Documents read (and held) at a time.
pub const PAGE: usize = 500;

/// Engagement records: (type shown, collection, user field, post field).
pub const ENGAGEMENT: [(&str, &str, &str, &str); 5] = [
    ("like", "likes", "userId", "postId"),
    ("bookmark", "bookmarks", "userId", "postId"),
    ("comment", "comments", "user", "post"),
    ("share", "shares", "userId", "postId"),
    ("vote", "poll_votes", "userId", "postId"),
];

/// A cursor read `PAGE` documents at a time.
pub struct PagedReader {
    cursor: mongodb::Cursor<Document>,
}

impl PagedReader {
    async fn new(db: &Db, collection: &str, projection: Document) -> DbResult<Self> {
        let cursor = db
            .database()
            .collection::<Document>(collection)
            .find(doc! {})
            .projection(projection)
            .sort(doc! { "_id": 1 })
            .batch_size(PAGE as u32)
            .await
            .db_context("reading for the export")?;
        Ok(PagedReader { cursor })
    }

    /// Every user, without the password hash and the token version.
    pub async fn users(db: &Db) -> DbResult<Self> {
        let projection = doc! { "passwordHash": 0, "tokenVersion": 0 };
        Self::new(db, users::COLLECTION, projection).await
    }

    /// Every post, without its blocks and search text.
    pub async fn posts(db: &Db) -> DbResult<Self> {
        let projection = doc! { "blocks": 0, "searchText": 0 };
        Self::new(db, posts::COLLECTION, projection).await
    }

    /// Every record of `collection` (one of [`ENGAGEMENT`]): its user, post and time.
    pub async fn engagement(
        db: &Db,
        collection: &str,
        user_field: &str,
        post_field: &str,
    ) -> DbResult<Self> {
        let projection = doc! { user_field: 1, post_field: 1, "createdAt": 1 };
        Self::new(db, collection, projection).await
    }

    /// The next page, `None` at the end.
    pub async fn next_page(&mut self) -> DbResult<Option<Vec<Document>>> {
        let mut page = Vec::with_capacity(PAGE);
        while page.len() < PAGE {
            match self
                .cursor
                .try_next()
                .await
                .db_context("reading for the export")?
            {
                Some(d) => page.push(d),
                None => break,
            }
        }
        Ok((!page.is_empty()).then_some(page))
    }
}
