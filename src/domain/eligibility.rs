//! Who may sell subscription plans. A user's metrics (followers, published posts, engagement
//! rate, account age) are compared with the stored criteria; an administrator's milestone
//! override replaces any metric, and `bypassSubscriptionCriteria` makes the administrator's own
//! decision (`isEligibleForSubscription`) final instead of the criteria.

use serde::{Deserialize, Serialize};

/// Per-user overrides of the subscription milestones; each value may be null.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MilestoneOverride {
    pub follower_count: Option<i64>,
    pub post_count: Option<i64>,
    pub engagement_rate: Option<f64>,
    pub account_age_days: Option<i64>,
}

/// The thresholds an author must reach.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Criteria {
    pub min_followers: i64,
    pub min_posts: i64,
    pub min_engagement_rate: f64,
    pub min_account_age_days: i64,
}

impl Criteria {
    /// Seed 001's administrator defaults: 10000 followers, 30 posts, 0.05 engagement and an
    /// account 30 days old (the stored default; the client's 180-day figure applies only when
    /// the server has no configuration).
    pub const DEFAULT: Criteria = Criteria {
        min_followers: 10_000,
        min_posts: 30,
        min_engagement_rate: 0.05,
        min_account_age_days: 30,
    };
}

/// What a user has.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    pub follower_count: i64,
    pub post_count: i64,
    pub engagement_rate: f64,
    pub account_age_days: i64,
}

impl Metrics {
    /// The metrics with the administrator's overrides in place.
    pub fn with_override(self, o: &MilestoneOverride) -> Metrics {
        Metrics {
            follower_count: o.follower_count.unwrap_or(self.follower_count),
            post_count: o.post_count.unwrap_or(self.post_count),
            engagement_rate: o.engagement_rate.unwrap_or(self.engagement_rate),
            account_age_days: o.account_age_days.unwrap_or(self.account_age_days),
        }
    }
}

/// The administrator's switches on a user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AdminDecision {
    /// The criteria are set aside; `eligible` decides.
    pub bypass: bool,
    /// The decision that stands while `bypass` is on.
    pub eligible: bool,
}

/// The outcome and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub is_eligible: bool,
    pub message: String,
}

/// Decides whether a user may sell plans.
pub fn evaluate(criteria: &Criteria, metrics: &Metrics, admin: AdminDecision) -> Verdict {
    if admin.bypass {
        return Verdict {
            is_eligible: admin.eligible,
            message: if admin.eligible {
                "Eligible: subscription access granted by an administrator".into()
            } else {
                "Not eligible: subscription access turned off by an administrator".into()
            },
        };
    }
    let mut missing = Vec::new();
    if metrics.follower_count < criteria.min_followers {
        missing.push(format!(
            "{} followers (you have {})",
            criteria.min_followers, metrics.follower_count
        ));
    }
    if metrics.post_count < criteria.min_posts {
        missing.push(format!(
            "{} published posts (you have {})",
            criteria.min_posts, metrics.post_count
        ));
    }
    if metrics.engagement_rate < criteria.min_engagement_rate {
        missing.push(format!(
            "an engagement rate of {} (you have {})",
            criteria.min_engagement_rate, metrics.engagement_rate
        ));
    }
    if metrics.account_age_days < criteria.min_account_age_days {
        missing.push(format!(
            "an account {} days old (yours is {})",
            criteria.min_account_age_days, metrics.account_age_days
        ));
    }
    if missing.is_empty() {
        Verdict {
            is_eligible: true,
            message: "Eligible: you meet every subscription criterion".into(),
        }
    } else {
        Verdict {
            is_eligible: false,
            message: format!("Not eligible yet: you need {}", missing.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C: Criteria = Criteria::DEFAULT;

    fn m(followers: i64, posts: i64, rate: f64, age: i64) -> Metrics {
        Metrics {
            follower_count: followers,
            post_count: posts,
            engagement_rate: rate,
            account_age_days: age,
        }
    }

    #[test]
    fn the_rule_table() {
        let none = AdminDecision::default();
        let granted = AdminDecision {
            bypass: true,
            eligible: true,
        };
        let refused = AdminDecision {
            bypass: true,
            eligible: false,
        };
        let cases: &[(&str, Metrics, AdminDecision, bool, &str)] = &[
            (
                "exactly at every threshold",
                m(10_000, 30, 0.05, 30),
                none,
                true,
                "meet every",
            ),
            (
                "well above",
                m(50_000, 300, 0.2, 900),
                none,
                true,
                "meet every",
            ),
            (
                "one follower short",
                m(9_999, 30, 0.05, 30),
                none,
                false,
                "10000 followers (you have 9999)",
            ),
            (
                "one post short",
                m(10_000, 29, 0.05, 30),
                none,
                false,
                "30 published posts (you have 29)",
            ),
            (
                "engagement just under",
                m(10_000, 30, 0.0499, 30),
                none,
                false,
                "engagement rate of 0.05",
            ),
            (
                "account a day too young",
                m(10_000, 30, 0.05, 29),
                none,
                false,
                "30 days old (yours is 29)",
            ),
            (
                "a new account misses everything",
                m(0, 0, 0.0, 0),
                none,
                false,
                "followers",
            ),
            (
                "granted despite the metrics",
                m(0, 0, 0.0, 0),
                granted,
                true,
                "granted by an administrator",
            ),
            (
                "turned off despite the metrics",
                m(50_000, 300, 0.2, 900),
                refused,
                false,
                "turned off",
            ),
        ];
        for (name, metrics, admin, eligible, text) in cases {
            let v = evaluate(&C, metrics, *admin);
            assert_eq!(v.is_eligible, *eligible, "case '{name}': {v:?}");
            assert!(v.message.contains(text), "case '{name}': {}", v.message);
        }
    }

    #[test]
    fn a_new_account_names_every_missing_criterion() {
        let v = evaluate(&C, &m(0, 0, 0.0, 0), AdminDecision::default());
        for part in ["followers", "posts", "engagement", "days old"] {
            assert!(v.message.contains(part), "{}", v.message);
        }
    }

    #[test]
    fn an_override_replaces_only_the_metrics_it_names() {
        let o = MilestoneOverride {
            follower_count: Some(20_000),
            post_count: None,
            engagement_rate: Some(0.1),
            account_age_days: None,
        };
        let got = m(3, 40, 0.0, 100).with_override(&o);
        assert_eq!(got, m(20_000, 40, 0.1, 100));
        assert!(evaluate(&C, &got, AdminDecision::default()).is_eligible);
        let reset = MilestoneOverride::default();
        assert_eq!(m(3, 40, 0.0, 100).with_override(&reset), m(3, 40, 0.0, 100));
    }
}
