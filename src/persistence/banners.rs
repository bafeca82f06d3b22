//! The `banner_notifications` collection: notices administrators show at the top of every page
//! (seed 000 §3 "Banner notification"). Active ones are also held by the banner actor
//! (`live::banners`), which answers reads without a database round trip.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "banner_notifications";
/// The region that targets everyone.
pub const GLOBAL_REGION: &str = "global";

/// A stored banner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Banner {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub title: String,
    pub message: String,
    #[serde(default)]
    pub link: Option<String>,
    /// `global` or a region (a country code or name, compared case-insensitively).
    pub region: String,
    pub is_active: bool,
    /// When a non-sticky banner stops showing; sticky ones stay until deactivated.
    #[serde(default)]
    pub expires_at: Option<DateTime>,
    #[serde(default)]
    pub sticky: bool,
    /// Pushed to the devices of people with no tab open (a global banner only).
    #[serde(default)]
    pub urgent: bool,
    /// Users who dismissed it.
    #[serde(default)]
    pub dismissed_by: Vec<ObjectId>,
    #[serde(default)]
    pub created_by: Option<ObjectId>,
    /// When it was created.
    pub timestamp: DateTime,
}

impl Banner {
    /// Whether it still shows at `at`: active and, unless sticky, not past its expiry.
    pub fn is_live(&self, at: DateTime) -> bool {
        self.is_active && (self.sticky || self.expires_at.is_none_or(|e| e > at))
    }

    /// Whether it targets a caller in one of `regions` (already lowercased).
    pub fn targets(&self, regions: &[String]) -> bool {
        let region = self.region.trim().to_lowercase();
        region == GLOBAL_REGION || regions.contains(&region)
    }
}

fn collection(db: &Db) -> Collection<Banner> {
    db.database().collection(COLLECTION)
}

/// Active banners are loaded at start.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let active = index(doc! { "isActive": 1, "timestamp": -1 }, "active_timestamp");
    super::create_indexes(&collection(db), [active], "creating banner indexes").await?;
    Ok(())
}

/// Stores a new banner.
pub async fn insert(db: &Db, banner: &Banner) -> DbResult<()> {
    collection(db)
        .insert_one(banner)
        .await
        .db_context("storing a banner")?;
    Ok(())
}

/// A banner by id.
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Banner>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a banner")
}

/// Every active banner, newest first.
pub async fn list_active(db: &Db) -> DbResult<Vec<Banner>> {
    collection(db)
        .find(doc! { "isActive": true })
        .sort(doc! { "timestamp": -1 })
        .await
        .db_context("listing active banners")?
        .try_collect()
        .await
        .db_context("reading active banners")
}

/// Every banner, active or not, newest first (the administrators' unfiltered list).
pub async fn list_all(db: &Db) -> DbResult<Vec<Banner>> {
    collection(db)
        .find(doc! {})
        .sort(doc! { "timestamp": -1, "_id": -1 })
        .await
        .db_context("listing banners")?
        .try_collect()
        .await
        .db_context("reading banners")
}

/// Adds `user` to a banner's dismissals; `None` when there is no such banner.
pub async fn dismiss(db: &Db, id: ObjectId, user: ObjectId) -> DbResult<Option<Banner>> {
    collection(db)
        .find_one_and_update(
            doc! { "_id": id },
            doc! { "$addToSet": { "dismissedBy": user } },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("dismissing a banner")
}

/// Switches a banner off; `None` when there is no such banner.
pub async fn deactivate(db: &Db, id: ObjectId) -> DbResult<Option<Banner>> {
    collection(db)
        .find_one_and_update(doc! { "_id": id }, doc! { "$set": { "isActive": false } })
        .return_document(ReturnDocument::After)
        .await
        .db_context("deactivating a banner")
}

/// Deletes every banner; returns how many there were.
pub async fn delete_all(db: &Db) -> DbResult<u64> {
    let res = collection(db)
        .delete_many(doc! {})
        .await
        .db_context("deleting banners")?;
    Ok(res.deleted_count)
}
