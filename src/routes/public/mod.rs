//! `/api/public/*`: the reading family for guests. The single post is `post::get_post`.

pub mod guest_visit;
pub mod posts;
pub mod search_posts;
pub mod view;
