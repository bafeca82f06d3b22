//! `GET /api/user/online` → {users, guests, count}: the public profiles of the users connected
//! right now (for the /users page), the number of guests and the people online (`users` plus
//! `guests`, what `onlineUsersCount` says; each person once, however many tabs).

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::error::ApiResult;
use crate::services::people::{self, PublicUser};
use crate::state::AppState;

/// `{users, guests, count}`: who is connected now (signed-in users, guests, people).
#[derive(Serialize, utoipa::ToSchema)]
pub struct OnlineAnswer {
    users: Vec<PublicUser>,
    guests: usize,
    count: usize,
}

#[tracing::instrument(skip_all)]
pub async fn online(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let (users, guests, count) = people::online(&state).await?;
    Ok(HttpResponse::Ok().json(OnlineAnswer {
        users,
        guests,
        count,
    }))
}
