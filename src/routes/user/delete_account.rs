//! `POST /api/user/delete-account` {password} → {message, deletionScheduledAt}: the signed-in
//! user asks for their account to be deleted. It needs the password now and a confirmation in
//! the last ten minutes (step-up). Every session ends and an email says when the account goes
//! and how to keep it: signing in before then cancels the deletion. When the grace period
//! (`accounts.deletion_grace_days`) ends, the job worker removes the account
//! ([`crate::jobs::account_deletion`]).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::mail::{MailKind, Outgoing};
use crate::net::client_key;
use crate::persistence::account_deletions::{self, AccountDeletion};
use crate::persistence::users::{self, Role};
use crate::routes::cookies::cleared_cookie;
use crate::services::reauth;
use crate::state::AppState;

pub const MSG_SCHEDULED: &str = "Your account will be deleted. Sign in before then to keep it.";
pub const MSG_LAST_ADMIN: &str =
    "You are the only administrator. Make someone else an administrator before deleting your account.";

#[derive(Deserialize, utoipa::ToSchema)]
pub struct DeleteAccountBody {
    #[serde(default)]
    password: String,
    /// Instead of the password: an assertion of one of the person's passkeys.
    #[serde(default)]
    passkey: Option<crate::services::passkey_account::PasskeyAssertion>,
}

/// `{message, deletionScheduledAt}`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletionScheduledAnswer {
    message: &'static str,
    deletion_scheduled_at: String,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn delete_account(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    body: ApiJson<DeleteAccountBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    reauth::require_recent(&state, &me).await?;
    if let Some(proof) = &body.passkey {
        crate::services::passkey_account::confirm_step_up(&state, &me.user, proof).await?;
    } else {
        let Some(stored) = me.user.password_hash.clone() else {
            return Err(ApiError::bad_request(reauth::MSG_SIGN_IN_AGAIN));
        };
        if body.password.is_empty() {
            return Err(ApiError::bad_request("Password is required"));
        }
        let address = client_key(&req, &state.trusted_proxies);
        reauth::confirm_password(
            &state,
            &me,
            &address,
            stored,
            body.password,
            reauth::MSG_WRONG_PASSWORD,
        )
        .await?;
    }
    if me.user.role == Role::Admin
        && users::count_active_admins(&state.db, Some(me.user.id)).await? == 0
    {
        return Err(ApiError::conflict(MSG_LAST_ADMIN));
    }
    let now = chrono::Utc::now();
    let when = now + state.settings.accounts.grace();
    let record = account_deletions::schedule(
        &state.db,
        &AccountDeletion {
            id: me.user.id,
            requested_at: mongodb::bson::DateTime::from_chrono(now),
            scheduled_at: mongodb::bson::DateTime::from_chrono(when),
            lease_until: None,
        },
    )
    .await?;
    users::end_sessions(&state.db, me.user.id).await?;
    crate::live::sessions_ended(&state.realtime, &me.id_hex());
    let at = record
        .scheduled_at
        .to_chrono()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let body = format!(
        "Hello {},\n\nYou asked us to delete your Pressroom account. It will be deleted on {} (UTC), with your posts, comments, followers and the rest of your data; subscriptions to you end and subscribers are refunded as our terms say.\n\nChanged your mind? Sign in before then and the deletion is cancelled:\n{}\n\nYou can download a copy of your data from the settings page until then.\n",
        me.user.name,
        record.scheduled_at.to_chrono().format("%Y-%m-%d %H:%M"),
        state.settings.public_link("/login"),
    );
    let mail = Outgoing::new(
        MailKind::Security,
        &me.user.email,
        "Your account is scheduled for deletion",
        body,
    )
    .for_user(me.user.id);
    state.mailer.send_mail(mail).await;
    crate::audit::record(
        &state,
        &me,
        crate::audit::Action::AccountDeletionSchedule,
        crate::audit::Target::user(&me.user),
        serde_json::json!({ "deletionScheduledAt": at }),
    )
    .await;
    tracing::info!(user_id = %me.user.id, at = %at, "account deletion scheduled");
    Ok(HttpResponse::Ok()
        .cookie(cleared_cookie(&state))
        .json(DeletionScheduledAnswer {
            message: MSG_SCHEDULED,
            deletion_scheduled_at: at,
        }))
}
