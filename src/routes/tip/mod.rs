//! `/api/tips/*` and `/api/post/{id}/supporters`: readers tip a writer for one post, writers see
//! and moderate what they received, readers see and refund what they sent (the money rules are
//! in [`crate::services::billing::tips`], a tip as clients see it in `billing::tip_view`).

pub mod body;
pub mod give;
pub mod lists;
pub mod manage;
