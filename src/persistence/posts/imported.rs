//! Posts brought in by an import: which of an archive's entries a writer has already, and the
//! posts one import wrote.

use super::*;

/// Of `source_ids` (entries of `source`), those `author` has imported already, by any import
/// (one lookup of the `importKey` index).
pub async fn imported_source_ids(
    db: &Db,
    author: ObjectId,
    source: &str,
    source_ids: &[String],
) -> DbResult<std::collections::HashSet<String>> {
    let keys: Vec<String> = source_ids
        .iter()
        .map(|id| import_key(author, source, id))
        .collect();
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(doc! { "importKey": { "$in": &keys } })
        .projection(doc! { "importKey": 1 })
        .await
        .db_context("reading imported posts")?
        .try_collect()
        .await
        .db_context("reading imported posts")?;
    let prefix = import_key(author, source, "");
    Ok(docs
        .iter()
        .filter_map(|d| d.get_str("importKey").ok())
        .filter_map(|k| k.strip_prefix(&prefix).map(str::to_string))
        .collect())
}

/// Gives posts imported before `importKey` existed their key (migration 2).
pub async fn backfill_import_keys(db: &Db) -> DbResult<()> {
    let coll = db.database().collection::<Document>(COLLECTION);
    let found: Vec<Document> = coll
        .find(doc! { "importedFrom": { "$exists": true }, "importKey": { "$exists": false } })
        .projection(doc! { "author": 1, "importedFrom": 1 })
        .await
        .db_context("reading imported posts")?
        .try_collect()
        .await
        .db_context("reading imported posts")?;
    for d in found {
        let (Ok(id), Ok(author), Ok(from)) = (
            d.get_object_id("_id"),
            d.get_object_id("author"),
            d.get_document("importedFrom"),
        ) else {
            continue;
        };
        let (Ok(source), Ok(source_id)) = (from.get_str("source"), from.get_str("sourceId")) else {
            continue;
        };
        coll.update_one(
            doc! { "_id": id },
            doc! { "$set": { "importKey": import_key(author, source, source_id) } },
        )
        .await
        .db_context("keying an imported post")?;
    }
    Ok(())
}

/// The posts of `author` that the import `import_id` wrote.
pub async fn written_by_import(
    db: &Db,
    author: ObjectId,
    import_id: ObjectId,
) -> DbResult<Vec<ObjectId>> {
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(doc! { "author": author, "importedFrom.importId": import_id })
        .projection(doc! { "_id": 1 })
        .await
        .db_context("reading an import's posts")?
        .try_collect()
        .await
        .db_context("reading an import's posts")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect())
}
