//! `GET /api/post/search-users?query` → {users}: users whose name matches the text (its words in
//! order, the last one possibly cut short), or whose email is exactly the text (at least 3
//! characters); administrators also find users by part of their email. Blocked users are left
//! out; most posts first, at most 10. Each with public fields and their post count; an email is
//! shown only when it was what the caller typed, or to administrators. Served by the search
//! index, or, while it is not ready, by a literal match in the database.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::MaybeUser;
use crate::domain::search::SearchQuery;
use crate::error::ApiResult;
use crate::services::people::{self, UserHit};
use crate::state::AppState;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchUsersQuery {
    #[serde(default)]
    query: Option<String>,
}

/// `{users}`: the people found (`email` only for administrators or an exact match).
#[derive(Serialize, utoipa::ToSchema)]
pub struct UserHitsAnswer {
    users: Vec<UserHit>,
}

#[tracing::instrument(skip(state, viewer))]
pub async fn search_users(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<SearchUsersQuery>,
) -> ApiResult<HttpResponse> {
    let text = SearchQuery::parse(query.query.as_deref())?;
    let admin = viewer.0.as_ref().is_some_and(|v| v.is_admin());
    let users = people::search(&state, &text, admin).await?;
    Ok(HttpResponse::Ok().json(UserHitsAnswer { users }))
}
