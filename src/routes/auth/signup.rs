//! `POST /api/auth/signup` {fullName, email, password, sendEmail} → session.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::{send_code, session_response};
use crate::auth::password::{self, Password};
use crate::domain::{Email, PersonName};
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::persistence::otps::Purpose;
use crate::persistence::users::{self, NewUser};
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
    let hash = password::hash(password).await?;
    let user = users::create(
        &state.db,
        NewUser {
            name: name.into_string(),
            email: email.as_str().to_string(),
            password_hash: Some(hash),
            is_account_verified: false,
            avatar: None,
        },
    )
    .await?;
    tracing::info!(user_id = %user.id, "account created");
    if body.send_email.unwrap_or(false) {
        // The account exists either way; a failed mail shows in the email log and the user can resend.
        send_code(&state, Purpose::VerifyEmail, &user).await?;
    }
    session_response(&state, &req, &user, HttpResponse::Created()).await
}
