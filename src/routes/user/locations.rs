//! `GET /api/user/locations?page&limit` (administrators; limit 12) → {locations, list, total,
//! totalPages, page}: every user's latest location, newest first, with who they are and whether
//! they are online (`isOnline`).

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use serde_json::{json, Value};

use super::iso;
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::locations::{self, UserLocation};
use crate::persistence::users;
use crate::routes::notification::PageQuery;
use crate::state::AppState;

/// Default page size of location lists (seed 000 §9).
pub const DEFAULT_LIMIT: i64 = 12;
/// Largest page.
pub const MAX_LIMIT: i64 = 500;

/// A location as clients see it (seed 000 §3 "User location").
pub fn location_view(l: &UserLocation) -> Value {
    json!({
        "userId": l.user_id.to_hex(),
        "coordinates": { "lat": l.coordinates.lat, "lon": l.coordinates.lon },
        "city": l.city,
        "country": l.country,
        "countryCode": l.country_code,
        "state": l.state,
        "pincode": l.pincode,
        "source": l.source,
        "timestamp": iso(l.timestamp),
    })
}

/// Locations with their users' name and avatar (`user`), for maps that label points.
pub async fn with_users(state: &AppState, list: &[UserLocation]) -> ApiResult<Vec<Value>> {
    let ids: Vec<_> = list.iter().map(|l| l.user_id).collect();
    let found: HashMap<_, _> = users::find_many(&state.db, &ids)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    Ok(list
        .iter()
        .map(|l| {
            let mut v = location_view(l);
            v["user"] = found
                .get(&l.user_id)
                .map(|u| json!({ "_id": u.id.to_hex(), "name": u.name, "avatar": u.avatar }))
                .unwrap_or(Value::Null);
            v
        })
        .collect())
}

/// Sets `isOnline` on each location from presence.
pub async fn mark_online(state: &AppState, items: &mut [Value]) {
    let online = state.realtime.online().await.user_ids;
    for item in items {
        let online_now = item["userId"]
            .as_str()
            .is_some_and(|id| online.iter().any(|o| o == id));
        item["isOnline"] = Value::Bool(online_now);
    }
}

#[tracing::instrument(skip_all)]
pub async fn locations(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<PageQuery>,
) -> ApiResult<HttpResponse> {
    let (page, limit, skip) = query.resolve(DEFAULT_LIMIT, MAX_LIMIT);
    let (list, total) = locations::list(&state.db, skip, limit).await?;
    let mut items = with_users(&state, &list).await?;
    mark_online(&state, &mut items).await;
    Ok(HttpResponse::Ok().json(json!({
        "locations": items,
        "list": items,
        "total": total,
        "totalPages": total.div_ceil(limit as u64),
        "page": page,
    })))
}
