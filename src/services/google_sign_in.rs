//! Signing in with Google: the ID token checked against Google's keys, the account found by
//! the Google subject, or linked by its verified email, or created verified (a welcome mail when
//! asked for).

use crate::auth::MSG_BLOCKED;
use crate::domain::{Email, PersonName};
use crate::error::{ApiError, ApiResult};
use crate::mail::MailKind;
use crate::persistence::google_identities::{self, GoogleIdentity};
use crate::persistence::users::{self, NewUser, User};
use crate::persistence::{now, DbError};
use crate::services::credentials::Login;
use crate::state::AppState;

pub const MSG_EMAIL_TAKEN_UNVERIFIED: &str =
    "An account with this email already exists. Log in with your password to continue.";

/// The account Google's `token` names (found, linked or created): signed in, or asked for its
/// second factor next.
pub async fn sign_in(state: &AppState, token: &str, send_email: bool) -> ApiResult<Login> {
    let claims = state.google.verify(token.trim()).await?;
    let (user, created) = match google_identities::find(&state.db, &claims.sub).await? {
        Some(link) => match users::find_by_id(&state.db, link.user_id).await? {
            Some(user) => (user, false),
            None => create_or_link(state, &claims).await?,
        },
        None => create_or_link(state, &claims).await?,
    };
    if user.blocked {
        return Err(ApiError::forbidden(MSG_BLOCKED));
    }
    if created && send_email {
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
        return Ok(Login::SecondFactor(user));
    }
    Ok(Login::SignedIn(user))
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
