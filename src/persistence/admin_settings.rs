//! The `admin_settings` collection: one document (`_id: "default"`) holding the site-wide
//! security settings administrators change from the dashboard. A missing document or field is
//! the default (everything off).

use mongodb::bson::{doc, oid::ObjectId, DateTime};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{now, Db, DbContext, DbResult};

pub const COLLECTION: &str = "admin_settings";
/// The id of the one settings document.
pub const DEFAULT_ID: &str = "default";

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdminSettings {
    /// Administrators must have two-factor sign-in on before any administrator tool answers.
    #[serde(default)]
    pub require_admin_two_factor: bool,
    #[serde(default)]
    pub updated_by: Option<ObjectId>,
    #[serde(default)]
    pub updated_at: Option<DateTime>,
}

fn collection(db: &Db) -> Collection<AdminSettings> {
    db.database().collection(COLLECTION)
}

/// The stored settings, or the defaults.
pub async fn load(db: &Db) -> DbResult<AdminSettings> {
    Ok(collection(db)
        .find_one(doc! { "_id": DEFAULT_ID })
        .await
        .db_context("loading the administrator settings")?
        .unwrap_or_default())
}

/// Turns the two-factor requirement for administrators on or off.
pub async fn set_require_admin_two_factor(
    db: &Db,
    on: bool,
    by: ObjectId,
) -> DbResult<AdminSettings> {
    let saved = collection(db)
        .find_one_and_update(
            doc! { "_id": DEFAULT_ID },
            doc! { "$set": {
                "requireAdminTwoFactor": on,
                "updatedBy": by,
                "updatedAt": now(),
            } },
        )
        .upsert(true)
        .return_document(ReturnDocument::After)
        .await
        .db_context("saving the administrator settings")?;
    Ok(saved.unwrap_or(AdminSettings {
        require_admin_two_factor: on,
        updated_by: Some(by),
        updated_at: Some(now()),
    }))
}
