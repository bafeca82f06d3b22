//! `/api/admin/*`: administrator tools.

pub mod block_post;
pub mod reading_details;
pub mod reading_time;
