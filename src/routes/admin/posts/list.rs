//! `GET /api/admin/posts?page&limit&search&sortField&sortOrder` (administrators) →
//! {posts, totalCount, totalPages, page, limit}: every post, drafts, scheduled, private and
//! blocked ones included, with its author's name and its blocked flag. Defaults (seed 001 §9):
//! page 1, 10 per page, sorted by title ascending; `sortField` is title, createdAt, views or
//! likes; `search` matches the title or the author's name (case-insensitive, literal).

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AdminUser;
use crate::domain::post::{PostStatus, Visibility};
use crate::error::ApiResult;
use crate::persistence::posts::Post;
use crate::persistence::user_directory;
use crate::post_view::iso;
use crate::post_view::DELETED_AUTHOR;
use crate::routes::admin::ListParams;
use crate::services::people::AuthorName;
use crate::services::posts::admin_page;
use crate::state::AppState;

/// Sortable fields: name as sent, stored field.
pub const SORT_FIELDS: &[(&str, &str)] = &[
    ("title", "title"),
    ("createdAt", "createdAt"),
    ("views", "views"),
    ("likes", "likesCount"),
];

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

/// `{posts, totalCount, totalPages, page, limit}`: a page of every post.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminPostsAnswer {
    pub posts: Vec<AdminPostView>,
    pub total_count: u64,
    pub total_pages: u64,
    pub page: u64,
    pub limit: i64,
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

#[tracing::instrument(skip(state, _admin))]
pub async fn list(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<ListParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.paging.resolve()?;
    let sort = query.sort(SORT_FIELDS, "title")?;
    let pattern = query.search_pattern()?;
    let (found, total) = admin_page(
        &state.db,
        pattern.as_deref(),
        sort,
        paging.skip,
        paging.limit,
    )
    .await?;
    let mut author_ids: Vec<_> = found.iter().map(|p| p.author).collect();
    author_ids.sort();
    author_ids.dedup();
    let authors: HashMap<_, _> = user_directory::authors(&state.db, &author_ids).await?;
    Ok(HttpResponse::Ok().json(AdminPostsAnswer {
        posts: found
            .iter()
            .map(|p| view(p, authors.get(&p.author)))
            .collect(),
        total_count: total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
