//! `GET /api/post/search-users?query` → {users}: users whose name contains the text, or whose
//! email is exactly the text (at least 3 characters). Each with public fields and their post
//! count; an email is shown only when it was what the caller typed.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::domain::search::SearchQuery;
use crate::error::ApiResult;
use crate::persistence::user_directory;
use crate::state::AppState;

#[derive(Debug, Deserialize)]
pub struct SearchUsersQuery {
    #[serde(default)]
    query: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct UserHit {
    #[serde(rename = "_id")]
    id: String,
    name: String,
    email: Option<String>,
    avatar: Option<String>,
    total_posts: i64,
}

#[tracing::instrument(skip(state))]
pub async fn search_users(
    state: web::Data<AppState>,
    query: web::Query<SearchUsersQuery>,
) -> ApiResult<HttpResponse> {
    let text = SearchQuery::parse(query.query.as_deref())?;
    let found = user_directory::search(&state.db, &text.literal_pattern(), text.as_str()).await?;
    let users: Vec<UserHit> = found
        .into_iter()
        .map(|u| UserHit {
            id: u.id.to_hex(),
            email: (u.email == text.as_str()).then(|| u.email.clone()),
            name: u.name,
            avatar: u.avatar,
            total_posts: u.total_posts,
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({ "users": users })))
}
