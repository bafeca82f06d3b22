//! The `redirects` collection: addresses of this site that an imported post had before (a blog
//! moved here from another platform at the same address), each leading to the post that now
//! holds it. The server-rendered pages answer an unknown address found here with a permanent
//! redirect to the post's page.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "redirects";

/// An old address (its path, without a trailing slash) and the post it leads to.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Redirect {
    #[serde(rename = "_id")]
    pub path: String,
    pub post_id: ObjectId,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<Redirect> {
    db.database().collection(COLLECTION)
}

/// Keeps each `(path, post)` unless the path leads somewhere already (the first post keeps it).
pub async fn keep(db: &Db, pairs: &[(String, ObjectId)]) -> DbResult<()> {
    let at = now();
    let records: Vec<Redirect> = pairs
        .iter()
        .map(|(path, post_id)| Redirect {
            path: path.clone(),
            post_id: *post_id,
            created_at: at,
        })
        .collect();
    super::insert_new(&collection(db), &records, "keeping old addresses").await?;
    Ok(())
}

/// The post an old address leads to.
pub async fn target(db: &Db, path: &str) -> DbResult<Option<ObjectId>> {
    Ok(collection(db)
        .find_one(doc! { "_id": path })
        .await
        .db_context("reading an old address")?
        .map(|r| r.post_id))
}
