//! `/api/category/*`: the category list, each user's selection, creation and moderation of
//! categories, the default set, and slug availability. The answers and the rules are
//! `services::categories`.

pub mod all_category;
pub mod assign;
pub mod check_slug;
pub mod create;
pub mod delete;
pub mod seed;
pub mod update;
pub mod user_selected;
