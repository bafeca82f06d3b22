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
