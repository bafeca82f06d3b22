//! Query parameters of paged lists shared by routes of several modules: `PageParams` (checked
//! text, the administrator lists' and the earnings' pages) and `PageQuery` (numbers, clamped).

use serde::Deserialize;

use crate::domain::params::{page_limit, page_number};
use crate::error::ApiResult;

/// Default page size of administrator lists (seed 001 §9).
pub const DEFAULT_LIMIT: i64 = 10;
/// Largest page of an administrator list.
pub const MAX_LIMIT: i64 = 100;

/// `page` (from 1) and `limit` as sent; checked by [`PageParams::resolve`].
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageParams {
    #[serde(default)]
    pub page: Option<String>,
    #[serde(default)]
    pub limit: Option<String>,
}

/// A checked page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    pub page: u64,
    pub limit: i64,
    pub skip: u64,
}

impl Paging {
    /// Pages needed for `total` items (at least 1, so an empty list is "page 1 of 1").
    pub fn total_pages(&self, total: u64) -> u64 {
        total.div_ceil(self.limit as u64).max(1)
    }
}

impl PageParams {
    /// Page 1 and [`DEFAULT_LIMIT`] unless given; a bad value is a 400 naming it.
    pub fn resolve(&self) -> ApiResult<Paging> {
        let page = page_number(self.page.as_deref(), 1_000_000)?;
        let limit = page_limit(self.limit.as_deref(), DEFAULT_LIMIT, MAX_LIMIT)?;
        Ok(Paging {
            page,
            limit,
            skip: (page - 1).saturating_mul(limit as u64),
        })
    }
}

/// `page` (from 1) and `limit` of a list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    pub page: Option<i64>,
    pub limit: Option<i64>,
}

impl PageQuery {
    /// (page, limit, skip) with defaults and bounds.
    pub fn resolve(&self, default_limit: i64, max_limit: i64) -> (u64, i64, u64) {
        // A page past the end answers an empty list; the skip stays within what the database reads.
        let page = self.page.unwrap_or(1).max(1) as u64;
        let limit = self.limit.unwrap_or(default_limit).clamp(1, max_limit);
        let skip = (page - 1).saturating_mul(limit as u64).min(i64::MAX as u64);
        (page, limit, skip)
    }
}
