//! `POST /api/public/guest/visit` {guestId?} → {guest: {guestId, visitCount, lastVisit}}: counts
//! one visit of a guest (a new id is made when none is sent; the client keeps it in local
//! storage) and tells the administrators (`guestVisitUpdate`, debounced 1 s).

use actix_web::{web, HttpResponse};
use pressroom_actors::events::GuestVisitUpdate;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::extract::parse_json;
use crate::live::guests::Visited;
use crate::persistence::{guest_visits, now};
use crate::routes::user::iso;
use crate::state::AppState;

pub const MSG_BAD_GUEST_ID: &str = "guestId must be 1 to 100 letters, digits, '-' or '_'";

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct VisitBody {
    guest_id: Option<String>,
}

/// A guest's visits.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GuestView {
    guest_id: String,
    visit_count: u64,
    last_visit: String,
}

/// `{guest}`: the guest after this visit.
#[derive(Serialize, utoipa::ToSchema)]
pub struct GuestAnswer {
    guest: GuestView,
}

/// A guest id as sent, or a new one.
pub fn guest_id(raw: Option<String>) -> ApiResult<String> {
    let Some(id) = raw.map(|r| r.trim().to_string()).filter(|r| !r.is_empty()) else {
        return Ok(uuid::Uuid::new_v4().to_string());
    };
    let ok = id.len() <= 100
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(id)
    } else {
        Err(ApiError::bad_request(MSG_BAD_GUEST_ID))
    }
}

#[tracing::instrument(skip_all)]
pub async fn guest_visit(state: web::Data<AppState>, body: web::Bytes) -> ApiResult<HttpResponse> {
    let body: VisitBody = if body.iter().all(u8::is_ascii_whitespace) {
        VisitBody::default()
    } else {
        parse_json(&body)?
    };
    let id = guest_id(body.guest_id)?;
    let visit = guest_visits::record_visit(&state.db, &id, now())
        .await?
        .ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!("guest visit upsert returned nothing"))
        })?;
    let update = GuestVisitUpdate {
        guest_id: visit.guest_id.clone(),
        visit_count: u64::try_from(visit.visit_count).unwrap_or(0),
        last_visit: iso(visit.last_visit),
    };
    state.live.guests.do_send(Visited(update.clone()));
    Ok(HttpResponse::Ok().json(GuestAnswer {
        guest: GuestView {
            guest_id: update.guest_id,
            visit_count: update.visit_count,
            last_visit: update.last_visit,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guest_ids_are_short_plain_tokens() {
        assert_eq!(guest_id(Some(" g-1_a ".into())).unwrap(), "g-1_a");
        assert!(guest_id(None).unwrap().len() >= 32);
        for bad in ["a b", "<script>", &"x".repeat(101), "{\"$ne\":1}"] {
            assert!(guest_id(Some(bad.to_string())).is_err(), "case {bad}");
        }
    }
}
