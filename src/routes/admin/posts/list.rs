//! `GET /api/admin/posts?page&limit&search&sortField&sortOrder` (administrators) →
//! {posts, totalCount, totalPages, page, limit}: every post, drafts, scheduled, private and
//! blocked ones included, with its author's name and its blocked flag. Defaults (seed 001 §9):
//! page 1, 10 per page, sorted by title ascending; `sortField` is title, createdAt, views or
//! likes; `search` matches the title or the author's name (case-insensitive, literal).

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use mongodb::bson::{doc, Document};
use serde_json::{json, Value};

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::posts::{self, Post};
use crate::persistence::user_directory;
use crate::routes::admin::ListParams;
use crate::routes::post::DELETED_AUTHOR;
use crate::routes::user::iso;
use crate::state::AppState;

/// Sortable fields: name as sent, stored field.
pub const SORT_FIELDS: &[(&str, &str)] = &[
    ("title", "title"),
    ("createdAt", "createdAt"),
    ("views", "views"),
    ("likes", "likesCount"),
];
/// Most authors a search by author name considers.
const MAX_NAME_MATCHES: i64 = 1000;

/// A post as the administrators' list shows it.
fn view(p: &Post, author: Option<&user_directory::AuthorCard>) -> Value {
    let name = author.map_or(DELETED_AUTHOR, |a| a.name.as_str());
    json!({
        "_id": p.id.to_hex(),
        "title": p.title,
        "slug": p.slug,
        "status": p.status,
        "visibility": p.visibility,
        "blocked": p.blocked,
        "author": { "_id": p.author.to_hex(), "name": name },
        "authorName": name,
        "views": p.views,
        "likesCount": p.likes_count,
        "bookmarksCount": p.bookmarks_count,
        "commentsCount": p.comments_count,
        "shareCount": p.share_count,
        "publishAt": p.publish_at.map(iso),
        "createdAt": iso(p.created_at),
        "updatedAt": iso(p.updated_at),
    })
}

#[tracing::instrument(skip(state, _admin))]
pub async fn list(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<ListParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.paging.resolve()?;
    let sort = query.sort(SORT_FIELDS, "title")?;
    let mut filter = Document::new();
    if let Some(pattern) = query.search_pattern()? {
        let authors = user_directory::ids_by_name(&state.db, &pattern, MAX_NAME_MATCHES).await?;
        filter.insert(
            "$or",
            vec![
                doc! { "title": { "$regex": &pattern, "$options": "i" } },
                doc! { "author": { "$in": authors } },
            ],
        );
    }
    let (found, total) =
        posts::page_without_blocks(&state.db, filter, sort, paging.skip, paging.limit).await?;
    let mut author_ids: Vec<_> = found.iter().map(|p| p.author).collect();
    author_ids.sort();
    author_ids.dedup();
    let authors: HashMap<_, _> = user_directory::authors(&state.db, &author_ids).await?;
    let items: Vec<Value> = found
        .iter()
        .map(|p| view(p, authors.get(&p.author)))
        .collect();
    Ok(HttpResponse::Ok().json(json!({
        "posts": items,
        "totalCount": total,
        "totalPages": paging.total_pages(total),
        "page": paging.page,
        "limit": paging.limit,
    })))
}
