//! Writers' analytics: one post's figures and an author's over all their posts, each with a
//! daily series.

pub mod post;
pub mod user;
