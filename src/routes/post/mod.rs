//! `/api/post/*`: writing, reading and listing posts. How a post is shown, who may see it and how
//! list queries are read live in [`crate::services::posts`]; the list answers are here.

pub mod all_posts;
pub mod analytics_post;
pub mod analytics_user;
pub mod appeal;
pub mod bookmark;
pub mod bookmark_status;
pub mod bookmarks;
pub mod count;
pub mod create;
pub mod delete;
pub mod delivery;
pub mod following;
pub mod get_post;
pub mod input;
pub mod latest;
pub mod like;
pub mod public_posts;
pub mod revisions;
pub mod search;
pub mod search_users;
pub mod share;
pub mod suggested;
pub mod time_spent;
pub mod trending;
pub mod update;
pub mod user_posts;
pub mod view;
pub mod vote;

use crate::services::posts::*;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::error::{ApiError, ApiResult};
use actix_web::HttpResponse;

/// A list answer: `{posts, total}` (and `page` for the numbered families). Each post is the JSON
/// of a [`PostView`], kept as text from the read index.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ListAnswer<'a> {
    #[schema(value_type = Vec<PostView>)]
    pub posts: &'a [Box<RawValue>],
    pub total: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u64>,
}

impl ListAnswer<'_> {
    pub fn respond(posts: &[Box<RawValue>], total: u64, page: Option<u64>) -> HttpResponse {
        HttpResponse::Ok().json(ListAnswer { posts, total, page })
    }
}

/// `{posts}`: a list without a total (suggestions, bookmarks).
#[derive(Serialize, utoipa::ToSchema)]
pub struct PostsAnswer<'a> {
    #[schema(value_type = Vec<PostView>)]
    pub posts: &'a [Box<RawValue>],
}

impl PostsAnswer<'_> {
    pub fn respond(posts: &[Box<RawValue>]) -> HttpResponse {
        HttpResponse::Ok().json(PostsAnswer { posts })
    }
}

/// `{post}`: one post as the viewer may see it (the JSON of a [`PostView`]).
#[derive(Serialize, utoipa::ToSchema)]
pub struct PostAnswer {
    #[schema(value_type = PostView)]
    pub post: Box<RawValue>,
}

impl PostAnswer {
    /// The answer for a post already rendered.
    pub fn of(post: &impl Serialize) -> ApiResult<Self> {
        Ok(PostAnswer {
            post: serde_json::value::to_raw_value(post).map_err(ApiError::internal)?,
        })
    }
}
