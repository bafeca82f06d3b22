//! Numbered schema migrations, each applied once and recorded in the `migrations` collection.

use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{is_duplicate_key, Db, DbContext, DbResult};

pub const COLLECTION: &str = "migrations";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Applied {
    #[serde(rename = "_id")]
    pub number: i32,
    pub name: String,
    pub applied_at: DateTime,
}

type Step = for<'a> fn(&'a Db) -> futures_util::future::BoxFuture<'a, DbResult<()>>;

/// Every migration, in order. Numbers are never reused.
const MIGRATIONS: &[(i32, &str, Step)] = &[
    (1, "users: default role, flags and counters", |db| {
        Box::pin(backfill_user_defaults(db))
    }),
    (2, "posts: the importKey of imported posts", |db| {
        Box::pin(super::posts::backfill_import_keys(db))
    }),
];

fn collection(db: &Db) -> Collection<Applied> {
    db.database().collection(COLLECTION)
}

/// Applies every migration not yet recorded, in order. A migration rewrites documents behind the
/// write observer's back, so when any was applied the read index is marked stale (and rebuilt).
pub async fn run(db: &Db) -> DbResult<Vec<i32>> {
    let mut applied_now = Vec::new();
    for (number, name, step) in MIGRATIONS {
        let done = collection(db)
            .find_one(doc! { "_id": number })
            .await
            .db_context("reading applied migrations")?;
        if done.is_some() {
            continue;
        }
        step(db).await?;
        let record = Applied {
            number: *number,
            name: (*name).to_string(),
            applied_at: DateTime::now(),
        };
        match collection(db).insert_one(&record).await {
            Ok(_) => {}
            // Another node recorded it first: the step is idempotent, so this is fine.
            Err(e) if is_duplicate_key(&e) => {}
            Err(e) => return Err(e).db_context("recording a migration"),
        }
        tracing::info!(number, name, "migration applied");
        applied_now.push(*number);
    }
    if !applied_now.is_empty() {
        super::index_state::mark_stale(db).await?;
    }
    Ok(applied_now)
}

/// Gives users created before these fields existed their defaults.
async fn backfill_user_defaults(db: &Db) -> DbResult<()> {
    let users = db
        .database()
        .collection::<mongodb::bson::Document>(super::users::COLLECTION);
    let defaults = [
        ("role", mongodb::bson::Bson::String("user".into())),
        ("blocked", mongodb::bson::Bson::Boolean(false)),
        ("isAccountVerified", mongodb::bson::Bson::Boolean(false)),
        ("tokenVersion", mongodb::bson::Bson::Int64(0)),
        ("totalPosts", mongodb::bson::Bson::Int64(0)),
    ];
    for (field, value) in defaults {
        users
            .update_many(
                doc! { field: { "$exists": false } },
                doc! { "$set": { field: value } },
            )
            .await
            .db_context("backfilling user defaults")?;
    }
    Ok(())
}
