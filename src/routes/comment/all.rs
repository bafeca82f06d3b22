//! `GET /api/comment/all-comments/{postId}` → {comments, count}: a post's comments as a tree
//! (replies nested under `replies`, with `repliesCount`), for anyone who may read the post.
//! Comments by users on either side of a block with the viewer are left out, with their replies;
//! a blocked comment's text shows only to its author, the post's author and administrators.

use actix_web::{web, HttpResponse};

use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::services::comments::{self, CommentView};
use crate::state::AppState;

/// `{comments, count}`: the post's comments as a tree, and how many there are in all.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct CommentsAnswer {
    comments: Vec<CommentView>,
    count: usize,
}

#[tracing::instrument(skip(state, viewer))]
pub async fn all_comments(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let (comments, count) = comments::thread(&state, &post_id, viewer.0.as_ref()).await?;
    Ok(HttpResponse::Ok().json(CommentsAnswer { comments, count }))
}
