//! Answer shapes shared by routes of several modules, typed so that the OpenAPI document
//! describes them (`Route::returns` in `openapi.rs`).

use serde::Serialize;

/// `{message}`: the answer of an action that has nothing else to report.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MessageAnswer {
    pub message: String,
}

impl MessageAnswer {
    pub fn new(message: impl Into<String>) -> Self {
        MessageAnswer {
            message: message.into(),
        }
    }
}

/// `{message, deletedCount}`: the answer of a removal of many items at once.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletedAnswer {
    pub message: String,
    pub deleted_count: u64,
}

impl DeletedAnswer {
    pub fn new(message: impl Into<String>, deleted_count: u64) -> Self {
        DeletedAnswer {
            message: message.into(),
            deleted_count,
        }
    }
}

/// `{count}`: how many items there are.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CountAnswer {
    pub count: u64,
}
