//! User management, one implementation for both API families: seed 000's `/api/user/get-all-user`,
//! `toggle-block/{id}`, `toggle-role/{id}` and `delete-user`, and seed 001's `/api/admin/users`,
//! `users/block/{id}`, `users/role/{id}` and `users/{id}`.
//!
//! The client derives the outcome from the answer's message (seed 001 §4): a block answer
//! contains "blocked" exactly when the user is now blocked, a role answer contains "admin"
//! exactly when the user is now an administrator. An administrator cannot block, demote or
//! delete themself (400), and the last administrator can never be demoted or deleted (409).

pub mod block;
pub mod delete;
pub mod list;
pub mod role;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::services::admin_users::AdminUserView;

pub const MSG_INVALID_USER_ID: &str = "Invalid user id";

/// `{message, data}`: a user after an administrator's change; the message says what it was.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AdminUserAnswer {
    pub message: String,
    pub data: AdminUserView,
}

/// A user id from a path or body.
pub fn user_id(raw: &str) -> ApiResult<ObjectId> {
    ObjectId::parse_str(raw.trim())
        .map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_USER_ID))
}
