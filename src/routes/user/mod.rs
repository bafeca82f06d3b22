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

use crate::post_view::iso;
use crate::services::people::OwnUser;

/// `{data}`: the signed-in user's own account.
#[derive(Serialize, utoipa::ToSchema)]
pub struct OwnUserAnswer {
    pub data: OwnUser,
}
