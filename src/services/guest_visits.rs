//! Guests' visits (`POST /api/public/guest/visit`): one visit counted and told to the
//! administrators (the guest actor debounces `guestVisitUpdate`).

use pressroom_actors::events::GuestVisitUpdate;

use crate::error::{ApiError, ApiResult};
use crate::live::guests::Visited;
use crate::persistence::{guest_visits, now};
use crate::post_view::iso;
use crate::state::AppState;

/// Counts a visit of guest `id` now and tells the administrators; returns the guest's visits.
pub async fn record_visit(state: &AppState, id: &str) -> ApiResult<GuestVisitUpdate> {
    let visit = guest_visits::record_visit(&state.db, id, now())
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
    Ok(update)
}
