//! `POST /api/auth/google-login` {token, sendEmail} → {user, token, isAccountVerified}.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::session_cookie;
use crate::auth::MSG_BLOCKED;
use crate::domain::{Email, PersonName};
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::mail::MailKind;
use crate::persistence::google_identities::{self, GoogleIdentity};
use crate::persistence::users::{self, NewUser, User};
use crate::persistence::{now, DbError};
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GoogleLoginBody {
    token: String,
    #[serde(default)]
    send_email: Option<bool>,
}

pub use super::{GoogleSession, UserBody};

pub const MSG_EMAIL_TAKEN_UNVERIFIED: &str =
    "An account with this email already exists. Log in with your password to continue.";

#[tracing::instrument(skip(state, req, body))]
pub async fn google_login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<GoogleLoginBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    if body.token.trim().is_empty() {
        return Err(ApiError::bad_request("Google token is required"));
    }
    let claims = state.google.verify(body.token.trim()).await?;
    let (user, created) = match google_identities::find(&state.db, &claims.sub).await? {
        Some(link) => match users::find_by_id(&state.db, link.user_id).await? {
            Some(user) => (user, false),
            None => create_or_link(&state, &claims).await?,
        },
        None => create_or_link(&state, &claims).await?,
    };
    if user.blocked {
        return Err(ApiError::forbidden(MSG_BLOCKED));
    }
    if created && body.send_email.unwrap_or(false) {
        let body = format!(
            "Hello {},\n\nWelcome to Pressroom. Your account is ready.\n",
            user.name
        );
        state
            .mailer
            .send(MailKind::Welcome, &user.email, "Welcome to Pressroom", body)
            .await;
    }
    if crate::persistence::two_factor::is_enabled(&state.db, user.id).await? {
        return super::two_factor::challenge_response(&state, &user, false).await;
    }
    let token = super::start_session(&state, &req, &user, None).await?;
    let cancelled = crate::accounts::cancel_on_sign_in(&state, &user).await?;
    Ok(HttpResponse::Ok()
        .cookie(session_cookie(&state, &token))
        .json(GoogleSession {
            user: UserBody {
                id: user.id.to_hex(),
                name: user.name.clone(),
                email: user.email.clone(),
                role: user.role.as_str(),
            },
            token,
            is_account_verified: user.is_account_verified,
            deletion_cancelled: cancelled.then_some(true),
        }))
}

/// First sign-in with this Google account: link it to the account with the same verified email,
/// or create a verified account.
async fn create_or_link(
    state: &AppState,
    claims: &crate::auth::google::GoogleClaims,
) -> ApiResult<(User, bool)> {
    let email = Email::parse(claims.email.as_deref().unwrap_or(""))
        .map_err(|_| ApiError::bad_request("Your Google account has no usable email address"))?;
    let (user, created) = match users::find_by_email(&state.db, email.as_str()).await? {
        Some(existing) => {
            if !claims.email_verified {
                return Err(ApiError::conflict(MSG_EMAIL_TAKEN_UNVERIFIED));
            }
            let user = if existing.is_account_verified {
                existing
            } else {
                users::mark_verified(&state.db, existing.id)
                    .await?
                    .unwrap_or(existing)
            };
            (user, false)
        }
        None => {
            let name = claims
                .name
                .as_deref()
                .and_then(|n| PersonName::parse(n).ok())
                .map(PersonName::into_string)
                .unwrap_or_else(|| {
                    email
                        .as_str()
                        .split('@')
                        .next()
                        .unwrap_or("Reader")
                        .to_string()
                });
            let new = NewUser {
                name,
                email: email.as_str().to_string(),
                password_hash: None,
                is_account_verified: claims.email_verified,
                avatar: claims.picture.clone(),
            };
            match users::create(&state.db, new).await {
                Ok(user) => (user, true),
                // Created by a concurrent sign-in a moment ago.
                Err(DbError::Duplicate(_)) => {
                    match users::find_by_email(&state.db, email.as_str()).await? {
                        Some(user) => (user, false),
                        None => {
                            return Err(ApiError::internal(anyhow::anyhow!(
                                "user vanished after a duplicate insert"
                            )))
                        }
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
    };
    google_identities::link(
        &state.db,
        &GoogleIdentity {
            subject: claims.sub.clone(),
            user_id: user.id,
            email: user.email.clone(),
            linked_at: now(),
        },
    )
    .await?;
    Ok((user, created))
}
