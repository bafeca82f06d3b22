//! `/api/admin/posts*`: the administrators' post management (the block toggle is in
//! `admin::block_post`).

pub mod delete;
pub mod list;
