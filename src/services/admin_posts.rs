//! Every post as the administrators' list shows it (`GET /api/admin/posts`): any status,
//! blocked ones too, with their authors' names.

use std::collections::HashMap;

use serde::Serialize;

use crate::domain::params::SortBy;
use crate::domain::post::{PostStatus, Visibility};
use crate::error::ApiResult;
use crate::persistence::posts::Post;
use crate::persistence::user_directory;
use crate::post_view::{iso, DELETED_AUTHOR};
use crate::services::people::AuthorName;
use crate::services::posts::admin_page;
use crate::state::AppState;

/// A post as the administrators' list shows it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminPostView {
    #[serde(rename = "_id")]
    pub id: String,
    pub title: String,
    pub slug: String,
    /// `draft`, `scheduled` or `published`.
    #[schema(value_type = String)]
    pub status: PostStatus,
    /// `Public`, `Private` or `Unlisted`.
    #[schema(value_type = String)]
    pub visibility: Visibility,
    pub blocked: bool,
    pub author: AuthorName,
    pub author_name: String,
    pub views: i64,
    pub likes_count: i64,
    pub bookmarks_count: i64,
    pub comments_count: i64,
    pub share_count: i64,
    pub publish_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

fn view(p: &Post, author: Option<&user_directory::AuthorCard>) -> AdminPostView {
    let name = author.map_or(DELETED_AUTHOR, |a| a.name.as_str());
    AdminPostView {
        id: p.id.to_hex(),
        title: p.title.clone(),
        slug: p.slug.clone(),
        status: p.status,
        visibility: p.visibility,
        blocked: p.blocked,
        author: AuthorName {
            id: p.author.to_hex(),
            name: name.to_string(),
        },
        author_name: name.to_string(),
        views: p.views,
        likes_count: p.likes_count,
        bookmarks_count: p.bookmarks_count,
        comments_count: p.comments_count,
        share_count: p.share_count,
        publish_at: p.publish_at.map(iso),
        created_at: iso(p.created_at),
        updated_at: iso(p.updated_at),
    }
}

/// One page of every post whose title or author's name matches `pattern` (all when `None`), in
/// `sort` order, and how many match.
pub async fn page(
    state: &AppState,
    pattern: Option<&str>,
    sort: SortBy,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<AdminPostView>, u64)> {
    let (found, total) = admin_page(&state.db, pattern, sort, skip, limit).await?;
    let mut author_ids: Vec<_> = found.iter().map(|p| p.author).collect();
    author_ids.sort();
    author_ids.dedup();
    let authors: HashMap<_, _> = user_directory::authors(&state.db, &author_ids).await?;
    let views = found
        .iter()
        .map(|p| view(p, authors.get(&p.author)))
        .collect();
    Ok((views, total))
}
