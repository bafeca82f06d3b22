//! `POST /api/user/consent` {consent: true|false} → {message, consent}.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::services::people;
use crate::state::AppState;

pub const MSG_CONSENT_SAVED: &str = "Consent saved";

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ConsentBody {
    consent: bool,
}

/// `{message, consent}`: the consent as saved.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ConsentAnswer {
    message: &'static str,
    consent: bool,
}

#[tracing::instrument(skip_all)]
pub async fn consent(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<ConsentBody>,
) -> ApiResult<HttpResponse> {
    let consent = body.into_inner().consent;
    people::set_consent(&state, &me, consent).await?;
    Ok(HttpResponse::Ok().json(ConsentAnswer {
        message: MSG_CONSENT_SAVED,
        consent,
    }))
}
