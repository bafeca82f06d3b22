//! `/api/bannerNotification/*`: the notices administrators show at the top of every page
//! (seed 000 §3 "Banner notification", seed 001 §7 "Banner notifications"). Reads come from the
//! banner actor; writes are stored first, then told to the actor and pushed to everyone
//! (`services::banners`).

pub mod create;
pub mod deactivate;
pub mod delete_all;
pub mod dismiss;
pub mod dismissed;
pub mod get_notifications;

use mongodb::bson::oid::ObjectId;

use crate::error::{ApiError, ApiResult};

pub const MSG_INVALID_ID: &str = "Invalid banner notification ID";

/// A banner id from the path.
pub fn banner_id(raw: &str) -> ApiResult<ObjectId> {
    ObjectId::parse_str(raw.trim()).map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_ID))
}
