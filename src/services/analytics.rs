//! Figures shared by the analytics answers and the eligibility rules.

/// Engagement per view, to four decimals.
pub fn engagement_rate(interactions: i64, views: i64) -> f64 {
    if views <= 0 {
        return 0.0;
    }
    (interactions as f64 / views as f64 * 10_000.0).round() / 10_000.0
}

/// Average seconds per reader, rounded.
pub fn average(total: i64, readers: u64) -> i64 {
    if readers == 0 {
        return 0;
    }
    (total as f64 / readers as f64).round() as i64
}
