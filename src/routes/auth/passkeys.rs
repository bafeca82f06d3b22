//! Passkeys (`services::passkeys`): `POST /api/auth/passkeys/register/options` (step-up) and
//! `/register/verify` {challengeId, name, credential} → 201 the passkey; `POST
//! /api/auth/passkeys/login/options` and `/login/verify` {challengeId, credential} → the login
//! answer (a passkey with user verification is two factors: no code asked);
//! `POST /api/auth/passkeys/reauth/options` for a step-up with a passkey (`POST /api/auth/reauth`
//! {passkey}); `GET /api/auth/passkeys`, `PATCH`/`DELETE /api/auth/passkeys/{id}` (removing needs
//! a step-up); `GET /api/auth/security-log`.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use super::session_response_by;
use crate::audit::Action;
use crate::auth::{AuthUser, MSG_BLOCKED};
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::ratelimit::Kind;
use crate::services::passkey_account::{
    self, PasskeyAssertion, PasskeyView, SecurityEvent, MSG_REMOVED,
};
use crate::services::passkeys;
use crate::services::passkeys::Purpose;
use crate::services::reauth::require_recent;
use crate::state::AppState;

/// `{challengeId, name, credential}`: `credential` is the browser's `RegistrationResponseJSON`.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RegisterBody {
    challenge_id: String,
    #[serde(default)]
    name: String,
    #[schema(value_type = Object)]
    credential: serde_json::Value,
}

/// `{name}`.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameBody {
    name: String,
}

/// WebAuthn options (`PublicKeyCredentialCreationOptionsJSON` or
/// `PublicKeyCredentialRequestOptionsJSON`) with the `challengeId` to send back.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(value_type = Object)]
pub struct OptionsAnswer(serde_json::Value);

/// `{passkeys}`, newest first.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PasskeysAnswer {
    passkeys: Vec<PasskeyView>,
}

/// `{events}`, newest first (at most 50).
#[derive(Serialize, utoipa::ToSchema)]
pub struct SecurityLogAnswer {
    events: Vec<SecurityEvent>,
}

pub async fn register_options(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    require_recent(&state, &me).await?;
    state
        .limiter
        .hit(Kind::PasskeyCeremony, &format!("user:{}", me.user.id))
        .await?;
    let options = passkeys::start_registration(&state, &me.user).await?;
    Ok(HttpResponse::Ok().json(OptionsAnswer(options)))
}

pub async fn register_verify(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<RegisterBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let passkey = match passkeys::finish_registration(
        &state,
        &me.user,
        &body.challenge_id,
        &body.name,
        &body.credential,
    )
    .await
    {
        Ok(passkey) => passkey,
        Err(error) => {
            passkey_account::registration_refused(&state, &me.user, &error).await;
            return Err(error);
        }
    };
    passkey_account::added(&state, &me.user, &passkey).await;
    Ok(HttpResponse::Created().json(PasskeyView::from(&passkey)))
}

pub async fn login_options(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> ApiResult<HttpResponse> {
    // Asked on each load of the sign-in page (autofill): counted apart from sign-in attempts.
    let address = client_key(&req, &state.trusted_proxies);
    state
        .limiter
        .hit(Kind::PasskeyCeremony, &format!("address:{address}"))
        .await?;
    let options = passkeys::start_assertion(&state, Purpose::SignIn, None).await?;
    Ok(HttpResponse::Ok().json(OptionsAnswer(options)))
}

pub async fn login_verify(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<PasskeyAssertion>,
) -> ApiResult<HttpResponse> {
    let address = client_key(&req, &state.trusted_proxies);
    state.limiter.hit(Kind::LoginAddress, &address).await?;
    let body = body.into_inner();
    let found = passkeys::finish_assertion(
        &state,
        Purpose::SignIn,
        None,
        &body.challenge_id,
        &body.credential,
    )
    .await;
    let (user, passkey) = match found {
        Ok(found) => found,
        Err(refusal) => {
            passkey_account::refused(&state, &refusal).await;
            return Err(refusal.error);
        }
    };
    // A passkey sign-in counts against its account's allowance as a password's does.
    state.limiter.hit(Kind::LoginAccount, &user.email).await?;
    if user.blocked {
        let refusal = passkeys::Refusal {
            user: Some(user),
            passkey: Some(passkey),
            reason: "blocked",
            error: ApiError::forbidden(MSG_BLOCKED),
        };
        passkey_account::refused(&state, &refusal).await;
        return Err(refusal.error);
    }
    passkey_account::used(&state, &user, &passkey, Action::PasskeySignIn).await;
    tracing::info!(user_id = %user.id, "logged in with a passkey");
    session_response_by(&state, &req, &user, HttpResponse::Ok(), Some("passkey")).await
}

pub async fn reauth_options(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    state
        .limiter
        .hit(Kind::PasskeyCeremony, &format!("user:{}", me.user.id))
        .await?;
    let options = passkeys::start_assertion(&state, Purpose::Reauth, Some(me.user.id)).await?;
    Ok(HttpResponse::Ok().json(OptionsAnswer(options)))
}

pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let passkeys = passkey_account::list(&state, &me.user).await?;
    Ok(HttpResponse::Ok().json(PasskeysAnswer { passkeys }))
}

pub async fn rename(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
    body: ApiJson<RenameBody>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "passkey id")?;
    let view = passkey_account::rename(&state, &me.user, id, &body.into_inner().name).await?;
    Ok(HttpResponse::Ok().json(view))
}

pub async fn remove(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "passkey id")?;
    require_recent(&state, &me).await?;
    passkey_account::remove(&state, &me.user, id).await?;
    Ok(HttpResponse::Ok().json(crate::routes::answers::MessageAnswer::new(MSG_REMOVED)))
}

pub async fn security_log(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let events = passkey_account::security_log(&state, &me.user).await?;
    Ok(HttpResponse::Ok().json(SecurityLogAnswer { events }))
}
