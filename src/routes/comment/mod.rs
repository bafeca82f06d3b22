//! `/api/comment/*`: comments and nested replies on posts. How a comment is shown, how a tree is
//! built, how comment text is checked and who may do what is `services::comments`.

pub mod add;
pub mod all;
pub mod block;
pub mod delete;
pub mod edit;
pub mod reaction;

use serde::Serialize;

use crate::services::comments::CommentView;

/// `{message, comment}`: a comment after a change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CommentAnswer {
    pub message: &'static str,
    pub comment: CommentView,
}
