//! `/api/admin/*` (and the administrator routes of `/api/user/*`):
//! administrator tools (seed 001 §7 "Administration", seed 000 §7 "Users"). Shared here: how
//! admin lists read `page`, `limit` and the sort (seed 001 §9: page 1, page size 10).

pub mod analytics;
pub mod appeals;
pub mod audit_log;
pub mod block_post;
pub mod contact;
pub mod email;
pub mod export;
pub mod jobs;
pub mod overview;
pub mod posts;
pub mod reading_details;
pub mod reading_time;
pub mod reports;
pub mod settings;
pub mod subscriptions;
pub mod users;

use serde::Deserialize;

use crate::domain::params::SortBy;
use crate::domain::search::SearchQuery;
use crate::error::{ApiError, ApiResult};

use crate::domain::params::present_param as present;
use crate::routes::paging::PageParams;

/// The query of a searchable, sortable administrator list: `page`, `limit`, `search`,
/// `sortField`, `sortOrder`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ListParams {
    #[serde(flatten)]
    #[param(ignore)]
    pub paging: PageParams,
    #[serde(default)]
    pub search: Option<String>,
    #[serde(default)]
    pub sort_field: Option<String>,
    #[serde(default)]
    pub sort_order: Option<String>,
}

impl ListParams {
    /// The sort: `sortField` among `allowed` (`default` when absent), ascending unless
    /// `sortOrder` says otherwise, then `_id` the same way so pages never overlap.
    pub fn sort(
        &self,
        allowed: &[(&str, &'static str)],
        default: &'static str,
    ) -> ApiResult<SortBy> {
        let field = sort_field(self.sort_field.as_deref(), allowed, default)?;
        let order = sort_order(self.sort_order.as_deref(), 1)?;
        Ok(SortBy { field, order })
    }

    /// `search` as an escaped, literal regular expression (`None` when empty).
    pub fn search_pattern(&self) -> ApiResult<Option<String>> {
        Ok(SearchQuery::filter(self.search.as_deref())?.map(|q| q.literal_pattern()))
    }
}

/// `sortOrder`: `asc` (1) or `desc` (-1), `default` when absent.
pub fn sort_order(raw: Option<&str>, default: i32) -> ApiResult<i32> {
    match present(raw).map(str::to_lowercase).as_deref() {
        None => Ok(default),
        Some("asc" | "ascending" | "1") => Ok(1),
        Some("desc" | "descending" | "-1") => Ok(-1),
        Some(_) => Err(ApiError::bad_request("sortOrder must be asc or desc")),
    }
}

/// `sortField`: one of `allowed` (name as sent, stored field), `default` when absent.
pub fn sort_field(
    raw: Option<&str>,
    allowed: &[(&str, &'static str)],
    default: &'static str,
) -> ApiResult<&'static str> {
    let Some(raw) = present(raw) else {
        return Ok(default);
    };
    allowed
        .iter()
        .find(|(name, _)| *name == raw)
        .map(|(_, field)| *field)
        .ok_or_else(|| {
            let names: Vec<&str> = allowed.iter().map(|(n, _)| *n).collect();
            ApiError::bad_request(format!("sortField must be one of {}", names.join(", ")))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(page: Option<&str>, limit: Option<&str>) -> PageParams {
        PageParams {
            page: page.map(str::to_string),
            limit: limit.map(str::to_string),
        }
    }

    #[test]
    fn pages_default_to_the_first_ten() {
        let p = params(None, Some("undefined")).resolve().unwrap();
        assert_eq!((p.page, p.limit, p.skip), (1, 10, 0));
        let p = params(Some("3"), Some("500")).resolve().unwrap();
        assert_eq!((p.page, p.limit, p.skip), (3, 100, 200));
        assert_eq!(p.total_pages(0), 1);
        assert_eq!(p.total_pages(201), 3);
    }

    #[test]
    fn bad_pages_are_named() {
        for (page, limit, word) in [
            (Some("0"), None, "page"),
            (Some("x"), None, "page"),
            (None, Some("-1"), "limit"),
            (None, Some("1.5"), "limit"),
        ] {
            let err = params(page, limit).resolve().unwrap_err().to_string();
            assert!(err.contains(word), "{page:?} {limit:?}: {err}");
        }
    }

    #[test]
    fn sorts_take_only_known_fields() {
        let allowed = [("title", "title"), ("likes", "likesCount")];
        assert_eq!(sort_field(None, &allowed, "title").unwrap(), "title");
        assert_eq!(
            sort_field(Some("likes"), &allowed, "title").unwrap(),
            "likesCount"
        );
        assert!(sort_field(Some("$where"), &allowed, "title").is_err());
        assert_eq!(sort_order(Some("DESC"), 1).unwrap(), -1);
        assert!(sort_order(Some("sideways"), 1).is_err());
    }
}
