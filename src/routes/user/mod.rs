//! `/api/user/*`: the own account, public profiles and consent.

pub mod activity;
pub mod activity_clear;
pub mod consent;
pub mod delete_account;
pub mod export;
pub mod feedback_all;
pub mod feedback_check;
pub mod feedback_manual;
pub mod feedback_submit;
pub mod get_single_user;
pub mod get_user;
pub mod ip_location;
pub mod locations;
pub mod online;
pub mod save_location;
pub mod track_ip_location;
pub mod update_user;

use serde::Serialize;

use crate::persistence::users::{MilestoneOverride, User};

use crate::post_view::iso;
use crate::services::people::PublicUser;

/// A user as they see themselves: the public profile and what only they may see.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnUser {
    #[serde(flatten)]
    pub public: PublicUser,
    pub email: String,
    pub blocked: bool,
    pub is_eligible_for_subscription: bool,
    pub bypass_subscription_criteria: bool,
    pub milestone_override: MilestoneOverride,
    pub consent: Option<bool>,
    /// Whether the user receives the daily post email.
    pub daily_post_email: bool,
    pub has_password: bool,
    pub updated_at: String,
}

impl From<&User> for OwnUser {
    fn from(u: &User) -> Self {
        OwnUser {
            public: PublicUser::from(u),
            email: u.email.clone(),
            blocked: u.blocked,
            is_eligible_for_subscription: u.is_eligible_for_subscription,
            bypass_subscription_criteria: u.bypass_subscription_criteria,
            milestone_override: u.milestone_override.clone(),
            consent: u.consent,
            daily_post_email: !u.daily_post_opt_out,
            has_password: u.password_hash.is_some(),
            updated_at: iso(u.updated_at),
        }
    }
}

/// `{data}`: the signed-in user's own account.
#[derive(Serialize, utoipa::ToSchema)]
pub struct OwnUserAnswer {
    pub data: OwnUser,
}

/// A short reference to a user inside another object: `{_id, name, avatar}`.
#[derive(Clone, Serialize, utoipa::ToSchema)]
pub struct UserRef {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub avatar: Option<String>,
}

impl From<&User> for UserRef {
    fn from(u: &User) -> Self {
        UserRef {
            id: u.id.to_hex(),
            name: u.name.clone(),
            avatar: u.avatar.clone(),
        }
    }
}
