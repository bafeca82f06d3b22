//! Achievements (`/api/achievement/*`): badges earned from real metrics. The catalogue and its
//! thresholds are [`BADGES`] (documented in `docs/decisions.md`); a badge once earned is kept
//! with the time it was first earned, even if a metric later drops. Both answers carry
//! `progress`: every badge of the catalogue with what it needs and the user's value now.

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::achievements::{self as store, Earned, Metrics, Record};
use crate::persistence::{now, users, Db};
use crate::post_view::iso;
use crate::services::engagement::ensure_not_blocked;
use crate::services::people::MSG_USER_NOT_FOUND;
use crate::state::AppState;

/// Which metric a badge reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Metric {
    Posts,
    LikesReceived,
    ViewsReceived,
    CommentsReceived,
    CommentsWritten,
    Followers,
    LongestStreak,
}

impl Metric {
    fn of(self, m: &Metrics) -> i64 {
        match self {
            Metric::Posts => m.posts,
            Metric::LikesReceived => m.likes_received,
            Metric::ViewsReceived => m.views_received,
            Metric::CommentsReceived => m.comments_received,
            Metric::CommentsWritten => m.comments_written,
            Metric::Followers => m.followers,
            Metric::LongestStreak => m.longest_streak,
        }
    }
}

/// A badge and what earns it.
#[derive(Debug, Clone, Copy)]
pub struct Badge {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub metric: Metric,
    pub threshold: i64,
}

const fn badge(
    id: &'static str,
    name: &'static str,
    description: &'static str,
    metric: Metric,
    threshold: i64,
) -> Badge {
    Badge {
        id,
        name,
        description,
        metric,
        threshold,
    }
}

/// Every badge, in display order.
pub const BADGES: [Badge; 13] = [
    badge(
        "first-post",
        "First Post",
        "Published a first post",
        Metric::Posts,
        1,
    ),
    badge(
        "prolific-writer",
        "Prolific Writer",
        "Published 10 posts",
        Metric::Posts,
        10,
    ),
    badge(
        "veteran-author",
        "Veteran Author",
        "Published 50 posts",
        Metric::Posts,
        50,
    ),
    badge(
        "well-liked",
        "Well Liked",
        "Received 10 likes",
        Metric::LikesReceived,
        10,
    ),
    badge(
        "crowd-favourite",
        "Crowd Favourite",
        "Received 100 likes",
        Metric::LikesReceived,
        100,
    ),
    badge(
        "rising-readership",
        "Rising Readership",
        "Posts viewed 100 times",
        Metric::ViewsReceived,
        100,
    ),
    badge(
        "widely-read",
        "Widely Read",
        "Posts viewed 1000 times",
        Metric::ViewsReceived,
        1000,
    ),
    badge(
        "conversation-starter",
        "Conversation Starter",
        "Received 10 comments",
        Metric::CommentsReceived,
        10,
    ),
    badge(
        "commentator",
        "Commentator",
        "Wrote 10 comments",
        Metric::CommentsWritten,
        10,
    ),
    badge(
        "rising-voice",
        "Rising Voice",
        "Gained 10 followers",
        Metric::Followers,
        10,
    ),
    badge(
        "influencer",
        "Influencer",
        "Gained 100 followers",
        Metric::Followers,
        100,
    ),
    badge(
        "on-a-roll",
        "On a Roll",
        "Published on 3 days in a row",
        Metric::LongestStreak,
        3,
    ),
    badge(
        "unstoppable",
        "Unstoppable",
        "Published on 7 days in a row",
        Metric::LongestStreak,
        7,
    ),
];

/// A held badge as clients see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BadgeView {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub metric: Metric,
    pub threshold: i64,
    pub earned_at: String,
}

/// The badges the metrics earn, keeping the first-earned time of those already held.
pub fn earned(metrics: &Metrics, held: &[Earned]) -> Vec<Earned> {
    let held: HashMap<&str, &Earned> = held.iter().map(|e| (e.id.as_str(), e)).collect();
    BADGES
        .iter()
        .filter_map(|b| match held.get(b.id) {
            Some(e) => Some((*e).clone()),
            None if b.metric.of(metrics) >= b.threshold => Some(Earned {
                id: b.id.to_string(),
                earned_at: now(),
            }),
            None => None,
        })
        .collect()
}

/// A badge of the catalogue with the user's standing: what it needs, how far they are, and
/// when they earned it (null while not earned).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgressView {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub metric: Metric,
    pub threshold: i64,
    /// The metric's value now (a held badge whose metric dropped shows the lower value).
    pub current: i64,
    pub earned: bool,
    pub earned_at: Option<String>,
}

/// Every badge of the catalogue, in display order, with the user's progress towards it.
pub fn progress(metrics: &Metrics, held: &[Earned]) -> Vec<ProgressView> {
    BADGES
        .iter()
        .map(|b| {
            let earned = held.iter().find(|e| e.id == b.id);
            ProgressView {
                id: b.id,
                name: b.name,
                description: b.description,
                metric: b.metric,
                threshold: b.threshold,
                current: b.metric.of(metrics),
                earned: earned.is_some(),
                earned_at: earned.map(|e| iso(e.earned_at)),
            }
        })
        .collect()
}

/// Views of held badges, in catalogue order (unknown ids are skipped).
pub fn views(held: &[Earned]) -> Vec<BadgeView> {
    BADGES
        .iter()
        .filter_map(|b| {
            held.iter().find(|e| e.id == b.id).map(|e| BadgeView {
                id: b.id,
                name: b.name,
                description: b.description,
                metric: b.metric,
                threshold: b.threshold,
                earned_at: iso(e.earned_at),
            })
        })
        .collect()
}

/// Recalculates a user's metrics and badges and stores them.
pub async fn recalculate(db: &Db, user: ObjectId) -> ApiResult<Record> {
    let metrics = store::metrics_of(db, user).await?;
    let held = store::find(db, user)
        .await?
        .map(|r| r.badges)
        .unwrap_or_default();
    let record = Record {
        user,
        badges: earned(&metrics, &held),
        metrics,
        calculated_at: now(),
    };
    store::save(db, &record).await?;
    Ok(record)
}

/// `{badges, progress, calculatedAt}`: the badges held and the progress towards every badge.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AchievementsAnswer {
    badges: Vec<BadgeView>,
    progress: Vec<ProgressView>,
    calculated_at: String,
}

/// `whose` badges as last calculated (calculated now the first time), for `me`: another user's
/// must exist (404) and have no block with `me` (403).
pub async fn of_user(
    state: &AppState,
    me: &AuthUser,
    whose: ObjectId,
) -> ApiResult<AchievementsAnswer> {
    if whose != me.user.id {
        users::find_by_id(&state.db, whose)
            .await?
            .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
        ensure_not_blocked(&state.db, me.user.id, whose).await?;
    }
    let record = match store::find(&state.db, whose).await? {
        Some(r) => r,
        None => recalculate(&state.db, whose).await?,
    };
    Ok(AchievementsAnswer {
        badges: views(&record.badges),
        progress: progress(&record.metrics, &record.badges),
        calculated_at: iso(record.calculated_at),
    })
}

/// `{badges, metrics, progress, newBadges, calculatedAt}`: the recalculated badges, the metrics
/// they come from, and the ids of badges earned by this calculation.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CalculatedAnswer {
    badges: Vec<BadgeView>,
    metrics: Metrics,
    progress: Vec<ProgressView>,
    new_badges: Vec<String>,
    calculated_at: String,
}

/// Recalculates `me`'s metrics and badges, with the ids of the badges this calculation earned.
pub async fn calculate(state: &AppState, me: &AuthUser) -> ApiResult<CalculatedAnswer> {
    let before: Vec<String> = store::find(&state.db, me.user.id)
        .await?
        .map(|r| r.badges.into_iter().map(|b| b.id).collect())
        .unwrap_or_default();
    let record = recalculate(&state.db, me.user.id).await?;
    let new: Vec<&str> = record
        .badges
        .iter()
        .map(|b| b.id.as_str())
        .filter(|id| !before.iter().any(|b| b == id))
        .collect();
    Ok(CalculatedAnswer {
        badges: views(&record.badges),
        progress: progress(&record.metrics, &record.badges),
        metrics: record.metrics,
        new_badges: new.into_iter().map(str::to_string).collect(),
        calculated_at: iso(record.calculated_at),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_metric_at_its_threshold_earns_the_badge() {
        let metrics = Metrics {
            posts: 10,
            ..Metrics::default()
        };
        let ids: Vec<String> = earned(&metrics, &[]).into_iter().map(|e| e.id).collect();
        assert_eq!(ids, ["first-post", "prolific-writer"]);
    }

    #[test]
    fn a_held_badge_is_kept_when_the_metric_drops() {
        let held = vec![Earned {
            id: "well-liked".into(),
            earned_at: mongodb::bson::DateTime::from_millis(1),
        }];
        let kept = earned(&Metrics::default(), &held);
        assert_eq!(kept, held);
    }

    #[test]
    fn progress_lists_every_badge_with_the_current_value() {
        let metrics = Metrics {
            likes_received: 4,
            ..Metrics::default()
        };
        let held = earned(&metrics, &[]);
        let all = progress(&metrics, &held);
        assert_eq!(all.len(), BADGES.len());
        let liked = all.iter().find(|p| p.id == "well-liked").unwrap();
        assert_eq!(
            (liked.current, liked.threshold, liked.earned),
            (4, 10, false)
        );
        assert!(liked.earned_at.is_none());
    }

    #[test]
    fn badge_ids_are_unique() {
        let mut ids: Vec<&str> = BADGES.iter().map(|b| b.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), BADGES.len());
    }
}
