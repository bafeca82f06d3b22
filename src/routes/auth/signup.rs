//! `POST /api/auth/signup` {fullName, email, password, sendEmail} → session.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::session_response;
use crate::auth::password::Password;
use crate::domain::{Email, PersonName};
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::services::credentials;
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignupBody {
    full_name: String,
    email: String,
    password: String,
    /// Send the verification code right away.
    #[serde(default)]
    send_email: Option<bool>,
}

#[tracing::instrument(skip(state, req, body))]
pub async fn signup(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<SignupBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let name = PersonName::parse(&body.full_name)?;
    let email = Email::parse(&body.email)?;
    let password = Password::parse(body.password)?;
    let send_email = body.send_email.unwrap_or(false);
    let user = credentials::signup(&state, name, email, password, send_email).await?;
    session_response(&state, &req, &user, HttpResponse::Created()).await
}
