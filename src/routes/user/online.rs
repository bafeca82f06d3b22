//! `GET /api/user/online` → {users, guests, count}: the public profiles of the users connected
//! right now (for the /users page), the number of guests and the people online (`users` plus
//! `guests`, what `onlineUsersCount` says; each person once, however many tabs).

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::ApiResult;
use crate::persistence::users;
use crate::services::people::PublicUser;
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
    let snapshot = state.realtime.online().await;
    let ids: Vec<ObjectId> = snapshot
        .user_ids
        .iter()
        .filter_map(|id| ObjectId::parse_str(id).ok())
        .collect();
    let mut found = users::find_many(&state.db, &ids).await?;
    found.retain(|u| !u.blocked);
    found.sort_by_key(|u| u.name.to_lowercase());
    let users: Vec<PublicUser> = found.iter().map(PublicUser::from).collect();
    Ok(HttpResponse::Ok().json(OnlineAnswer {
        users,
        guests: snapshot.guests,
        count: snapshot.people,
    }))
}
