//! `GET /api/comment/all-comments/{postId}` → {comments, count}: a post's comments as a tree
//! (replies nested under `replies`, with `repliesCount`), for anyone who may read the post.
//! Comments by users on either side of a block with the viewer are left out, with their replies;
//! a blocked comment's text shows only to its author, the post's author and administrators.

use std::collections::HashSet;

use actix_web::{web, HttpResponse};

use super::tree;
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::persistence::{comments, graph};
use crate::services::engagement::readable_post;
use crate::state::AppState;

/// `{comments, count}`: the post's comments as a tree, and how many there are in all.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct CommentsAnswer {
    comments: Vec<super::CommentView>,
    count: usize,
}

#[tracing::instrument(skip(state, viewer))]
pub async fn all_comments(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let me = viewer.0.as_ref();
    let post = readable_post(&state, &post_id, me).await?;
    let hidden: HashSet<_> = match me {
        Some(me) => graph::hidden_from(&state.db, me.user.id)
            .await?
            .into_iter()
            .collect(),
        None => HashSet::new(),
    };
    let list = comments::list_for_post(&state.db, post.id).await?;
    let (comments, count) = tree(&state.db, &post, list, &hidden, me).await?;
    Ok(HttpResponse::Ok().json(CommentsAnswer { comments, count }))
}
