//! `/api/admin/*`: administrator tools.

pub mod reading_details;
pub mod reading_time;
