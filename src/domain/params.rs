//! Values read from a request's path, query or body that every layer may parse the same way:
//! ids, page numbers and sizes, query values that may be absent. Refusals are the domain's
//! (`DomainError`), which the HTTP edge answers with a 400.

use mongodb::bson::oid::ObjectId;

use super::error::DomainError;

/// A query value, treating "", "null" and "undefined" as absent.
pub fn present_param(raw: Option<&str>) -> Option<&str> {
    raw.map(str::trim)
        .filter(|s| !s.is_empty() && *s != "null" && *s != "undefined")
}

/// A `page` query value: a whole number from 1 to `max`, 1 when absent.
pub fn page_number(raw: Option<&str>, max: u64) -> Result<u64, DomainError> {
    match present_param(raw) {
        None => Ok(1),
        Some(raw) => raw
            .parse::<u64>()
            .ok()
            .filter(|p| (1..=max).contains(p))
            .ok_or_else(|| DomainError::invalid("page must be a positive whole number")),
    }
}

/// A `limit` query value: a whole number from 1, at most `max`; `default` when absent.
pub fn page_limit(raw: Option<&str>, default: i64, max: i64) -> Result<i64, DomainError> {
    match present_param(raw) {
        None => Ok(default),
        Some(raw) => raw
            .parse::<i64>()
            .ok()
            .filter(|l| *l >= 1)
            .map(|l| l.min(max))
            .ok_or_else(|| DomainError::invalid("limit must be a positive whole number")),
    }
}

/// An id that must be given: empty, `null` and `undefined` are as bad as a malformed one, and
/// both answer `message`.
pub fn required_id(raw: Option<&str>, message: &str) -> Result<ObjectId, DomainError> {
    let raw = raw.map(str::trim).unwrap_or("");
    if raw.is_empty() || raw == "null" || raw == "undefined" {
        return Err(DomainError::coded("invalid_id", message));
    }
    ObjectId::parse_str(raw).map_err(|_| DomainError::coded("invalid_id", message))
}

/// Parses a hex ObjectId from a path or body, with a message naming what it is.
pub fn object_id(raw: &str, what: &str) -> Result<ObjectId, DomainError> {
    ObjectId::parse_str(raw.trim())
        .map_err(|_| DomainError::coded("invalid_id", format!("Invalid {what}")))
}

/// Reads `page` (from 1 to 100,000) and `limit` (1 to `max`, `default` when absent).
pub fn paging(
    page: Option<&str>,
    limit: Option<&str>,
    default: i64,
    max: i64,
) -> Result<(u64, i64), DomainError> {
    Ok((
        page_number(page, 100_000)?,
        page_limit(limit, default, max)?,
    ))
}

/// A list's order: one stored field, ascending (`1`) or descending (`-1`), then `_id` the same way
/// so pages never overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SortBy {
    pub field: &'static str,
    pub order: i32,
}

/// Pages needed for `total` items at `limit` a page.
pub fn total_pages(total: u64, limit: i64) -> u64 {
    let limit = u64::try_from(limit.max(1)).unwrap_or(1);
    total.div_ceil(limit)
}
