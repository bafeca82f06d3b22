//! The `categories` collection (name, unique slug, description, creator) and `user_categories`,
//! each user's selection (one document per user, so replacing it is one atomic write).

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::observer::Change;
use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbError, DbResult};

pub const COLLECTION: &str = "categories";
pub const SELECTIONS: &str = "user_categories";
/// What a duplicate slug is reported as.
pub const DUPLICATE_SLUG: &str = "A category with this slug";

/// A stored category. `createdBy` is empty for the default set.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Category {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub name: String,
    pub slug: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub created_by: Option<ObjectId>,
    pub created_at: DateTime,
    pub updated_at: DateTime,
}

/// A new category.
pub struct NewCategory {
    pub name: String,
    pub slug: String,
    pub description: String,
    pub created_by: Option<ObjectId>,
}

/// Changes to a category; `None` leaves a field as it is.
#[derive(Debug, Default)]
pub struct CategoryChanges {
    pub name: Option<String>,
    pub slug: Option<String>,
    pub description: Option<String>,
}

/// A user's selected categories, in the order chosen.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Selection {
    /// The user's id.
    #[serde(rename = "_id")]
    pub user_id: ObjectId,
    pub category_ids: Vec<ObjectId>,
    pub updated_at: DateTime,
}

fn collection(db: &Db) -> Collection<Category> {
    db.database().collection(COLLECTION)
}

fn selections(db: &Db) -> Collection<Selection> {
    db.database().collection(SELECTIONS)
}

/// Unique slug; creator lookups; the user's selection is keyed by `_id`.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let slug = unique_index(doc! { "slug": 1 }, "slug_unique");
    let name = index(doc! { "name": 1 }, "name");
    let creator = index(doc! { "createdBy": 1 }, "created_by");
    super::create_indexes(
        &collection(db),
        [slug, name, creator],
        "creating category indexes",
    )
    .await?;
    let by_category = index(doc! { "categoryIds": 1 }, "category_ids");
    super::create_indexes(
        &selections(db),
        [by_category],
        "creating category selection indexes",
    )
    .await?;
    Ok(())
}

/// Inserts a category; a taken slug is `DbError::Duplicate`.
pub async fn create(db: &Db, new: NewCategory) -> DbResult<Category> {
    let at = now();
    let category = Category {
        id: ObjectId::new(),
        name: new.name,
        slug: new.slug,
        description: new.description,
        created_by: new.created_by,
        created_at: at,
        updated_at: at,
    };
    match collection(db).insert_one(&category).await {
        Ok(_) => Ok(category),
        Err(e) if is_duplicate_key(&e) => Err(DbError::Duplicate(DUPLICATE_SLUG)),
        Err(e) => Err(e).db_context("inserting a category"),
    }
}

/// Inserts a category unless one with its slug exists; returns whether it was added.
pub async fn create_if_missing(db: &Db, new: NewCategory) -> DbResult<bool> {
    let at = now();
    let res = collection(db)
        .update_one(
            doc! { "slug": &new.slug },
            doc! { "$setOnInsert": {
                "_id": ObjectId::new(),
                "name": &new.name,
                "slug": &new.slug,
                "description": &new.description,
                "createdBy": new.created_by,
                "createdAt": at,
                "updatedAt": at,
            } },
        )
        .upsert(true)
        .await;
    match res {
        Ok(r) => Ok(r.upserted_id.is_some()),
        // Two seeders raced for the same slug: the other one added it.
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("seeding a category"),
    }
}

/// Every category, by name.
pub async fn list_all(db: &Db) -> DbResult<Vec<Category>> {
    collection(db)
        .find(doc! {})
        .sort(doc! { "name": 1, "_id": 1 })
        .await
        .db_context("listing categories")?
        .try_collect()
        .await
        .db_context("reading categories")
}

/// Finds a category by id.
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Category>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a category")
}

/// Finds a category by slug.
pub async fn find_by_slug(db: &Db, slug: &str) -> DbResult<Option<Category>> {
    collection(db)
        .find_one(doc! { "slug": slug })
        .await
        .db_context("loading a category by slug")
}

/// The categories with these ids (in no particular order; unknown ids are skipped).
pub async fn find_many(db: &Db, ids: &[ObjectId]) -> DbResult<Vec<Category>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    collection(db)
        .find(doc! { "_id": { "$in": ids } })
        .await
        .db_context("loading categories")?
        .try_collect()
        .await
        .db_context("reading categories")
}

/// Applies changes; a taken slug is `DbError::Duplicate`.
pub async fn update(db: &Db, id: ObjectId, changes: CategoryChanges) -> DbResult<Option<Category>> {
    let mut set: Document = doc! { "updatedAt": now() };
    if let Some(name) = changes.name {
        set.insert("name", name);
    }
    if let Some(slug) = changes.slug {
        set.insert("slug", slug);
    }
    if let Some(description) = changes.description {
        set.insert("description", description);
    }
    match collection(db)
        .find_one_and_update(doc! { "_id": id }, doc! { "$set": set })
        .return_document(ReturnDocument::After)
        .await
    {
        Ok(c) => {
            db.changed(Change::Categories(vec![id])).await;
            Ok(c)
        }
        Err(e) if is_duplicate_key(&e) => Err(DbError::Duplicate(DUPLICATE_SLUG)),
        Err(e) => Err(e).db_context("updating a category"),
    }
}

/// Deletes a category and takes it out of every user's selection.
pub async fn delete(db: &Db, id: ObjectId) -> DbResult<bool> {
    let res = collection(db)
        .delete_one(doc! { "_id": id })
        .await
        .db_context("deleting a category")?;
    selections(db)
        .update_many(
            doc! { "categoryIds": id },
            doc! { "$pull": { "categoryIds": id } },
        )
        .await
        .db_context("removing a category from selections")?;
    db.changed(Change::Categories(vec![id])).await;
    Ok(res.deleted_count == 1)
}

/// The ids a user selected (empty when they never chose).
pub async fn selected_ids(db: &Db, user_id: ObjectId) -> DbResult<Vec<ObjectId>> {
    Ok(selections(db)
        .find_one(doc! { "_id": user_id })
        .await
        .db_context("loading a category selection")?
        .map(|s| s.category_ids)
        .unwrap_or_default())
}

/// Replaces a user's selection.
pub async fn replace_selection(db: &Db, user_id: ObjectId, ids: &[ObjectId]) -> DbResult<()> {
    selections(db)
        .update_one(
            doc! { "_id": user_id },
            doc! { "$set": { "categoryIds": ids, "updatedAt": now() } },
        )
        .upsert(true)
        .await
        .db_context("saving a category selection")?;
    Ok(())
}
