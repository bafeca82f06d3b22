//! Addresses that bounced hard or complained: never emailed again, and listed for administrators.

use super::*;

/// Suppresses an address for `reason` (`hard_bounce`, `complaint`).
pub async fn suppress(db: &Db, address: &str, reason: &str, detail: Option<&str>) -> DbResult<()> {
    let address = address.trim().to_lowercase();
    deliveries_touch_suppression(db, &address, reason, detail).await
}

pub(super) async fn deliveries_touch_suppression(
    db: &Db,
    address: &str,
    reason: &str,
    detail: Option<&str>,
) -> DbResult<()> {
    suppressions(db)
        .update_one(
            doc! { "_id": address },
            doc! {
                "$set": { "reason": reason, "detail": detail, "updatedAt": now() },
                "$setOnInsert": { "createdAt": now() },
            },
        )
        .upsert(true)
        .await
        .db_context("suppressing an address")?;
    Ok(())
}

/// Whether an address is suppressed.
pub async fn is_suppressed(db: &Db, address: &str) -> DbResult<bool> {
    Ok(suppressions(db)
        .find_one(doc! { "_id": address.trim().to_lowercase() })
        .await
        .db_context("reading a suppression")?
        .is_some())
}

/// A suppressed address as administrators see it.
#[derive(Debug, Clone)]
pub struct Suppression {
    pub email: String,
    pub reason: String,
    pub detail: Option<String>,
    pub created_at: DateTime,
}

/// One page of suppressed addresses, newest first, and their total.
pub async fn suppressions_page(
    db: &Db,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<Suppression>, u64)> {
    let total = suppressions(db)
        .count_documents(doc! {})
        .await
        .db_context("counting suppressions")?;
    let docs: Vec<Document> = suppressions(db)
        .find(doc! {})
        .sort(doc! { "createdAt": -1, "_id": 1 })
        .skip(skip)
        .limit(limit)
        .await
        .db_context("listing suppressions")?
        .try_collect()
        .await
        .db_context("reading suppressions")?;
    let list = docs
        .iter()
        .map(|d| Suppression {
            email: d.get_str("_id").unwrap_or_default().to_string(),
            reason: d.get_str("reason").unwrap_or_default().to_string(),
            detail: d.get_str("detail").ok().map(str::to_string),
            created_at: d.get_datetime("createdAt").copied().unwrap_or(now()),
        })
        .collect();
    Ok((list, total))
}

/// Of `addresses` (lower-cased), the suppressed ones (one query; the collection holds only the
/// addresses that refused mail).
pub async fn suppressed_among(
    db: &Db,
    addresses: &[String],
) -> DbResult<std::collections::HashSet<String>> {
    if addresses.is_empty() {
        return Ok(Default::default());
    }
    let docs: Vec<Document> = suppressions(db)
        .find(doc! { "_id": { "$in": addresses } })
        .projection(doc! { "_id": 1 })
        .await
        .db_context("reading suppressed addresses")?
        .try_collect()
        .await
        .db_context("reading suppressed addresses")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_str("_id").ok().map(str::to_string))
        .collect())
}
