//! `GET /api/admin/analytics?startDate&endDate` (administrators) → {data: {traffic:
//! {totalVisits, totalTimeSpent, uniqueUsersCount, uniquePostsCount, uniqueVisitorsCount,
//! postViews, guestVisits}, topPosts, topUsers, series, range}}: the site's traffic from the
//! recorded views, guest visits and reading time in the range.
//!
//! Dates are ISO-8601: a day (`2024-05-01`, the whole day in UTC) or an instant. The default is
//! the last 30 days up to now; a range is at most 366 days. `totalVisits` is post views plus guest
//! site visits; `totalTimeSpent` is reading seconds; `uniqueUsersCount` counts signed-in readers
//! (views or reading time), `uniqueVisitorsCount` every reader including guests;
//! `uniquePostsCount` the posts viewed or read. `topPosts` are the 10 most viewed posts and
//! `topUsers` the 10 authors whose posts were most viewed. `series` has one entry per UTC day,
//! oldest first: {date, visits, views, guestVisits, timeSpent, uniqueUsers}.

use actix_web::{web, HttpResponse};
use chrono::{DateTime as ChronoTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::auth::AdminUser;
use crate::domain::params::present_param as present;
use crate::error::{ApiError, ApiResult};
use crate::services::site_analytics::{self, SiteAnalytics};
use crate::state::AppState;

/// Default range: the last 30 days.
pub const DEFAULT_DAYS: i64 = 30;
/// Longest range.
pub const MAX_DAYS: i64 = 366;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AnalyticsQuery {
    #[serde(default)]
    start_date: Option<String>,
    #[serde(default)]
    end_date: Option<String>,
}

/// `{data}`: the site's traffic in the range.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AnalyticsAnswer {
    pub data: SiteAnalytics,
}

/// A range bound: a day (its start, or with `end` the start of the next day) or an instant.
fn bound(raw: &str, field: &str, end: bool) -> ApiResult<ChronoTime<Utc>> {
    if let Ok(day) = NaiveDate::parse_from_str(raw, "%Y-%m-%d") {
        let day = if end {
            day.succ_opt().unwrap_or(day)
        } else {
            day
        };
        return Ok(day.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc());
    }
    ChronoTime::parse_from_rfc3339(raw)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| {
            ApiError::bad_request(format!(
                "{field} must be an ISO-8601 date such as 2024-05-01"
            ))
        })
}

/// The range asked for, `[from, to)`.
pub fn range(
    start: Option<&str>,
    end: Option<&str>,
    now: ChronoTime<Utc>,
) -> ApiResult<(ChronoTime<Utc>, ChronoTime<Utc>)> {
    let to = match end {
        Some(raw) => bound(raw, "endDate", true)?,
        None => now,
    };
    let from = match start {
        Some(raw) => bound(raw, "startDate", false)?,
        None => to - Duration::days(DEFAULT_DAYS),
    };
    if from >= to {
        return Err(ApiError::bad_request("startDate must be before endDate"));
    }
    if to - from > Duration::days(MAX_DAYS) {
        return Err(ApiError::bad_request(
            "The range may be at most a year (366 days)",
        ));
    }
    Ok((from, to))
}

#[tracing::instrument(skip(state, _admin))]
pub async fn analytics(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<AnalyticsQuery>,
) -> ApiResult<HttpResponse> {
    let (from, to) = range(
        present(query.start_date.as_deref()),
        present(query.end_date.as_deref()),
        Utc::now(),
    )?;
    Ok(HttpResponse::Ok().json(AnalyticsAnswer {
        data: site_analytics::traffic(&state.db, from, to).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> ChronoTime<Utc> {
        ChronoTime::parse_from_rfc3339(s)
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn the_default_range_is_the_last_thirty_days() {
        let now = at("2024-05-31T12:00:00Z");
        let (from, to) = range(None, None, now).unwrap();
        assert_eq!((from, to), (at("2024-05-01T12:00:00Z"), now));
    }

    #[test]
    fn days_cover_whole_days_and_ranges_have_limits() {
        let now = at("2024-05-31T12:00:00Z");
        let (from, to) = range(Some("2024-05-01"), Some("2024-05-02"), now).unwrap();
        assert_eq!(
            (from, to),
            (at("2024-05-01T00:00:00Z"), at("2024-05-03T00:00:00Z"))
        );
        assert!(range(Some("2024-05-03"), Some("2024-05-01"), now).is_err());
        assert!(range(Some("2023-01-01"), Some("2024-05-01"), now).is_err());
        assert!(range(Some("yesterday"), None, now).is_err());
        assert!(range(Some("2024-05-01T10:00:00+02:00"), None, now).is_ok());
    }
}
