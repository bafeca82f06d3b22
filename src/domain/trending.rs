//! The trending score: engagement points over a power of age, as in news aggregators, and when a
//! recomputed score is worth storing. Pure: the posts' store (`persistence::posts`) feeds it.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;

/// The trending refresh stores a new score only when it moved by more than this fraction of the
/// stored one (or the stored one is zero), so old posts, whose scores decay slowly, are not
/// rewritten every round.
pub const TRENDING_TOLERANCE: f64 = 0.005;

/// What the trending score is computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrendingInput {
    pub id: ObjectId,
    pub created_at: DateTime,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
    pub bookmarks: i64,
    pub views: i64,
    /// The score stored now.
    pub stored: f64,
}

impl TrendingInput {
    /// The trending score: engagement points over a power of age, as in news aggregators.
    pub fn score(&self, at: DateTime) -> f64 {
        let points = 3.0 * self.likes as f64
            + 4.0 * self.comments as f64
            + 5.0 * self.shares as f64
            + 2.0 * self.bookmarks as f64
            + 0.2 * self.views as f64;
        let age_ms = (at.timestamp_millis() - self.created_at.timestamp_millis()).max(0);
        let age_hours = age_ms as f64 / 3_600_000.0;
        (points.max(0.0) + 1.0) / (age_hours + 2.0).powf(1.5)
    }
}

/// The scores among these that moved enough to be stored (see `trending_moved`).
pub fn moved_scores(
    inputs: impl IntoIterator<Item = TrendingInput>,
    at: DateTime,
) -> Vec<(ObjectId, f64)> {
    inputs
        .into_iter()
        .filter_map(|i| {
            let score = i.score(at);
            trending_moved(i.stored, score).then_some((i.id, score))
        })
        .collect()
}

/// Whether a recomputed trending score differs enough from the stored one to be stored.
pub fn trending_moved(stored: f64, fresh: f64) -> bool {
    if stored == 0.0 {
        return fresh != 0.0;
    }
    ((fresh - stored) / stored).abs() > TRENDING_TOLERANCE
}
