//! `/api/follow/*`: following authors, and the map of followers' locations. Following is
//! idempotent; following oneself is a 400; a block between the two users refuses it (403). The
//! rules and the answers are `services::follows`.

pub mod alerts;
pub mod follow_user;
pub mod follower_locations;
pub mod list;
pub mod status;
pub mod unfollow;

/// Default and largest page of a followers or following list.
pub const FOLLOW_PAGE_SIZE: i64 = 12;
pub const MAX_FOLLOW_PAGE_SIZE: i64 = 50;
pub const MSG_CANNOT_FOLLOW_SELF: &str = "You cannot follow yourself";
pub const MSG_CANNOT_UNFOLLOW_SELF: &str = "You cannot unfollow yourself";
