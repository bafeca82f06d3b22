//! What content needs from `users`: author cards for posts, the user search behind the search
//! box, and the `totalPosts` counter.

use std::collections::HashMap;

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Document};
use mongodb::Collection;

use super::observer::Change;
use super::users::COLLECTION;
use super::{now, Db, DbContext, DbResult};

/// How many users a search returns at most.
pub const MAX_USER_RESULTS: i64 = 10;

/// An author as shown on a post.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthorCard {
    pub id: ObjectId,
    pub name: String,
    pub avatar: Option<String>,
}

/// A user found by search.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundUser {
    pub id: ObjectId,
    pub name: String,
    pub email: String,
    pub avatar: Option<String>,
    pub total_posts: i64,
}

fn collection(db: &Db) -> Collection<Document> {
    db.database().collection(COLLECTION)
}

fn avatar_of(d: &Document) -> Option<String> {
    d.get_str("avatar").ok().map(str::to_string)
}

/// Author cards for these ids (unknown ids are absent from the map).
pub async fn authors(db: &Db, ids: &[ObjectId]) -> DbResult<HashMap<ObjectId, AuthorCard>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let docs: Vec<Document> = collection(db)
        .find(doc! { "_id": { "$in": ids } })
        .projection(doc! { "name": 1, "avatar": 1 })
        .await
        .db_context("loading authors")?
        .try_collect()
        .await
        .db_context("reading authors")?;
    Ok(docs
        .into_iter()
        .filter_map(|d| {
            let id = d.get_object_id("_id").ok()?;
            Some((
                id,
                AuthorCard {
                    id,
                    name: d.get_str("name").unwrap_or_default().to_string(),
                    avatar: avatar_of(&d),
                },
            ))
        })
        .collect())
}

/// Users whose name contains the text, or whose email is exactly the text; blocked users are
/// left out. `pattern` is an escaped regular expression of the lowercased text.
pub async fn search(db: &Db, pattern: &str, exact_email: &str) -> DbResult<Vec<FoundUser>> {
    let filter = doc! {
        "blocked": { "$ne": true },
        "$or": [
            { "name": { "$regex": pattern, "$options": "i" } },
            { "email": exact_email },
        ],
    };
    let docs: Vec<Document> = collection(db)
        .find(filter)
        .projection(doc! { "name": 1, "email": 1, "avatar": 1, "totalPosts": 1 })
        .sort(doc! { "totalPosts": -1, "name": 1, "_id": 1 })
        .limit(MAX_USER_RESULTS)
        .await
        .db_context("searching users")?
        .try_collect()
        .await
        .db_context("reading users")?;
    Ok(docs
        .into_iter()
        .filter_map(|d| {
            Some(FoundUser {
                id: d.get_object_id("_id").ok()?,
                name: d.get_str("name").unwrap_or_default().to_string(),
                email: d.get_str("email").unwrap_or_default().to_string(),
                avatar: avatar_of(&d),
                total_posts: d
                    .get_i64("totalPosts")
                    .or_else(|_| d.get_i32("totalPosts").map(i64::from))
                    .unwrap_or(0),
            })
        })
        .collect())
}

/// Ids of the users whose name contains the text (`pattern`: an escaped regular expression),
/// at most `limit`: the authors a post search by author name looks for.
pub async fn ids_by_name(db: &Db, pattern: &str, limit: i64) -> DbResult<Vec<ObjectId>> {
    let docs: Vec<Document> = collection(db)
        .find(doc! { "name": { "$regex": pattern, "$options": "i" } })
        .projection(doc! { "_id": 1 })
        .limit(limit)
        .await
        .db_context("finding users by name")?
        .try_collect()
        .await
        .db_context("reading users")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect())
}

/// Adds `delta` to a user's published post count (never below zero).
pub async fn add_to_total_posts(db: &Db, user: ObjectId, delta: i64) -> DbResult<()> {
    if delta == 0 {
        return Ok(());
    }
    let mut filter = doc! { "_id": user };
    if delta < 0 {
        filter.insert("totalPosts", doc! { "$gte": -delta });
    }
    collection(db)
        .update_one(
            filter,
            doc! { "$inc": { "totalPosts": delta }, "$set": { "updatedAt": now() } },
        )
        .await
        .db_context("updating a post count")?;
    db.changed(Change::Users(vec![user])).await;
    Ok(())
}
