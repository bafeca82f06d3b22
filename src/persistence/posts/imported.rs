//! Posts brought in by an import: which of an archive's entries a writer has already, and the
//! posts one import wrote.

use super::*;

/// Of `source_ids` (entries of `source`), those `author` has imported already, by any import.
pub async fn imported_source_ids(
    db: &Db,
    author: ObjectId,
    source: &str,
    source_ids: &[String],
) -> DbResult<std::collections::HashSet<String>> {
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(doc! {
            "author": author,
            "importedFrom.source": source,
            "importedFrom.sourceId": { "$in": source_ids },
        })
        .projection(doc! { "importedFrom.sourceId": 1 })
        .await
        .db_context("reading imported posts")?
        .try_collect()
        .await
        .db_context("reading imported posts")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_document("importedFrom").ok())
        .filter_map(|f| f.get_str("sourceId").ok().map(str::to_string))
        .collect())
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
