//! `POST /api/public/guest/visit` {guestId?} → {guest: {guestId, visitCount, lastVisit}}: counts
//! one visit of a guest and tells the administrators (`guestVisitUpdate`, debounced 1 s). Guest
//! ids are issued by the server (signed, `crate::counting`): an id it issued (the `pr_guest`
//! cookie or `guestId`) is kept; none, or one it did not issue, gets a new one. The answer sets
//! the HttpOnly cookie and returns the id, which the client keeps in local storage and echoes.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::counting;
use crate::error::{ApiError, ApiResult};
use crate::extract::parse_json;
use crate::services::guest_visits;
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

/// The guest's id: the one sent when the server issued it, else a new one. A malformed id is a
/// 400.
pub fn guest_id(secret: &[u8], raw: Option<String>) -> ApiResult<String> {
    let Some(id) = raw.map(|r| r.trim().to_string()).filter(|r| !r.is_empty()) else {
        return Ok(counting::issue_guest_id(secret));
    };
    if counting::well_formed_guest_id(&id).is_err() {
        return Err(ApiError::bad_request(MSG_BAD_GUEST_ID));
    }
    if counting::verify_guest_id(secret, &id).is_some() {
        Ok(id)
    } else {
        Ok(counting::issue_guest_id(secret))
    }
}

#[tracing::instrument(skip_all)]
pub async fn guest_visit(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let body: VisitBody = if body.iter().all(u8::is_ascii_whitespace) {
        VisitBody::default()
    } else {
        parse_json(&body)?
    };
    let secret = secrecy::ExposeSecret::expose_secret(&state.settings.auth.jwt_secret);
    // The body's id first (what the client stored), else the cookie's.
    let sent = body.guest_id.filter(|g| !g.trim().is_empty()).or_else(|| {
        req.cookie(counting::GUEST_COOKIE)
            .map(|c| c.value().to_string())
            .filter(|v| counting::verify_guest_id(secret.as_bytes(), v).is_some())
    });
    let id = guest_id(secret.as_bytes(), sent)?;
    let update = guest_visits::record_visit(&state, &id).await?;
    let cookie = counting::guest_cookie(&state.settings, &update.guest_id);
    Ok(HttpResponse::Ok().cookie(cookie).json(GuestAnswer {
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
    fn guest_ids_are_issued_by_the_server() {
        let secret = b"s";
        let issued = guest_id(secret, None).unwrap();
        assert!(issued.len() >= 32);
        assert_eq!(
            guest_id(secret, Some(format!(" {issued} "))).unwrap(),
            issued
        );
        let replaced = guest_id(secret, Some("g-1_a".into())).unwrap();
        assert_ne!(replaced, "g-1_a");
        assert!(counting::verify_guest_id(secret, &replaced).is_some());
        for bad in ["a b", "<script>", &"x".repeat(101), "{\"$ne\":1}"] {
            assert!(
                guest_id(secret, Some(bad.to_string())).is_err(),
                "case {bad}"
            );
        }
    }
}
