//! A person's passkeys as their account sees them: the list, renaming and removing (never the
//! last way to sign in), and the record of every passkey event in the audit log (which is the
//! person's security log, `GET /api/auth/security-log`) with the "new sign-in method" email.

use mongodb::bson::oid::ObjectId;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::error::{ApiError, ApiResult};
use crate::mail::{MailKind, Outgoing};
use crate::persistence::audit_log::{self, AuditEntry};
use crate::persistence::passkeys::{self, Passkey};
use crate::persistence::{google_identities, users::User};
use crate::state::AppState;

use super::passkeys::{check_name, finish_assertion, Refusal, MSG_NOT_FOUND};
use crate::persistence::passkeys::Purpose;

pub const MSG_REMOVED: &str = "Passkey removed.";
pub const MSG_LAST_WAY: &str =
    "This passkey is the only way to sign in to your account. Set a password first, then remove it.";

/// A passkey assertion `{challengeId, credential}` (the browser's `AuthenticationResponseJSON`)
/// for the options of a sign-in or a step-up.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PasskeyAssertion {
    pub challenge_id: String,
    #[schema(value_type = Object)]
    pub credential: serde_json::Value,
}

/// Confirms it is `user` with one of their passkeys, for a step-up (`POST
/// /api/auth/passkeys/reauth/options` made the ceremony): both factors at once. The use or the
/// refusal is recorded; counted against the account's sign-in limit (429 past it).
pub async fn confirm_step_up(
    state: &AppState,
    user: &User,
    proof: &PasskeyAssertion,
) -> ApiResult<()> {
    // Counted as a sign-in attempt against the account's limit, as a password step-up is.
    state
        .limiter
        .hit(crate::ratelimit::Kind::LoginAccount, &user.email)
        .await?;
    let found = finish_assertion(
        state,
        Purpose::Reauth,
        Some(user.id),
        &proof.challenge_id,
        &proof.credential,
    )
    .await;
    match found {
        Ok((owner, passkey)) => {
            used(state, &owner, &passkey, Action::PasskeyReauth).await;
            Ok(())
        }
        Err(refusal) => {
            refused(state, &refusal).await;
            Err(refusal.error)
        }
    }
}

/// A passkey as its owner sees it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyView {
    pub id: String,
    pub name: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
    /// `platform` (built into the device), `cross-platform` (a security key or a phone), or null.
    pub kind: Option<String>,
    /// Whether the passkey is synced (backed up) by its provider.
    pub backed_up: bool,
    pub transports: Vec<String>,
}

fn iso(at: mongodb::bson::DateTime) -> String {
    at.to_chrono()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

impl From<&Passkey> for PasskeyView {
    fn from(p: &Passkey) -> Self {
        PasskeyView {
            id: p.id.to_hex(),
            name: p.name.clone(),
            created_at: iso(p.created_at),
            last_used_at: p.last_used_at.map(iso),
            kind: p.attachment.clone(),
            backed_up: p.backed_up,
            transports: p.transports.clone(),
        }
    }
}

pub async fn list(state: &AppState, user: &User) -> ApiResult<Vec<PasskeyView>> {
    Ok(passkeys::for_user(&state.db, user.id)
        .await?
        .iter()
        .map(PasskeyView::from)
        .collect())
}

pub async fn rename(
    state: &AppState,
    user: &User,
    id: ObjectId,
    name: &str,
) -> ApiResult<PasskeyView> {
    let name = check_name(name)?;
    let Some(before) = passkeys::find_own(&state.db, user.id, id).await? else {
        return Err(ApiError::not_found(MSG_NOT_FOUND));
    };
    if !passkeys::rename(&state.db, user.id, id, &name).await? {
        return Err(ApiError::not_found(MSG_NOT_FOUND));
    }
    log(
        state,
        user,
        Action::PasskeyRename,
        &before,
        json!({ "from": before.name, "to": name }),
    )
    .await;
    let after = passkeys::find_own(&state.db, user.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    Ok(PasskeyView::from(&after))
}

/// Removes one of `user`'s passkeys, unless it is the account's last way to sign in (no
/// password, no Google account, no other passkey).
pub async fn remove(state: &AppState, user: &User, id: ObjectId) -> ApiResult<()> {
    let Some(passkey) = passkeys::find_own(&state.db, user.id, id).await? else {
        return Err(ApiError::not_found(MSG_NOT_FOUND));
    };
    if user.password_hash.is_none()
        && !google_identities::has_user(&state.db, user.id).await?
        && passkeys::count_for_user(&state.db, user.id).await? <= 1
    {
        return Err(ApiError::bad_request(MSG_LAST_WAY));
    }
    if !passkeys::remove(&state.db, user.id, id).await? {
        return Err(ApiError::not_found(MSG_NOT_FOUND));
    }
    log(state, user, Action::PasskeyRemove, &passkey, json!({})).await;
    let what = format!(
        "The passkey \"{}\" was removed from your Pressroom account. It can no longer be used to sign in.\n\nIf this was not you, change your password at once and review your sessions:",
        passkey.name
    );
    tell_owner(
        state,
        user,
        "A passkey was removed from your account",
        &what,
    )
    .await;
    Ok(())
}

/// The security email to `user` about their passkeys: `what`, then the link to Settings →
/// Security.
async fn tell_owner(state: &AppState, user: &User, subject: &str, what: &str) {
    let body = format!(
        "Hello {},\n\n{what}\n{}\n",
        user.name,
        state.settings.public_link("/user-setting#security"),
    );
    let mail = Outgoing::new(MailKind::Security, &user.email, subject, body).for_user(user.id);
    state.mailer.send_mail(mail).await;
}

async fn log(
    state: &AppState,
    user: &User,
    action: Action,
    passkey: &Passkey,
    details: serde_json::Value,
) {
    let target = Target::new("passkey", passkey.id.to_hex(), passkey.name.clone());
    audit::record_by(state, user, action, target, details).await;
}

/// A passkey added: recorded, and the "new sign-in method" email to its owner.
pub async fn added(state: &AppState, user: &User, passkey: &Passkey) {
    log(
        state,
        user,
        Action::PasskeyAdd,
        passkey,
        json!({ "kind": passkey.attachment, "backedUp": passkey.backed_up }),
    )
    .await;
    let what = format!(
        "A new way to sign in was added to your Pressroom account: the passkey \"{}\".\n\nIf this was you, there is nothing to do. If it was not, remove it and change your password at once:",
        passkey.name
    );
    tell_owner(state, user, "New sign-in method on your account", &what).await;
}

/// A passkey used to sign in or to confirm a step-up.
pub async fn used(state: &AppState, user: &User, passkey: &Passkey, action: Action) {
    log(state, user, action, passkey, json!({})).await;
}

/// A passkey refused; recorded against its owner when the passkey is known.
pub async fn refused(state: &AppState, refusal: &Refusal) {
    if let (Some(user), Some(passkey)) = (&refusal.user, &refusal.passkey) {
        log(
            state,
            user,
            Action::PasskeyRefused,
            passkey,
            json!({ "reason": refusal.reason }),
        )
        .await;
    }
}

/// A new passkey refused at registration (the device did not verify the person, it was made
/// for another site, a stale or replayed request, or a signature not accepted): recorded
/// against the person with why. Refusals of the name or of the count are not security events.
pub async fn registration_refused(state: &AppState, user: &User, error: &crate::error::ApiError) {
    use crate::error::ApiError::{Invalid, Unauthorized};
    let reason = match error {
        Unauthorized {
            code: "passkey_not_verified",
            ..
        } => "not_verified",
        Unauthorized {
            code: "passkey_wrong_site",
            ..
        } => "wrong_site",
        Invalid {
            code: "passkey_challenge_unknown",
            ..
        } => "challenge",
        Unauthorized {
            code: "passkey_refused",
            ..
        }
        | Invalid {
            code: "passkey_malformed",
            ..
        } => "refused",
        _ => return,
    };
    let target = Target::new("passkey", "", "A new passkey");
    audit::record_by(
        state,
        user,
        Action::PasskeyRefused,
        target,
        json!({ "reason": reason }),
    )
    .await;
}

/// What the person's security log shows.
const SECURITY_ACTIONS: [&str; 15] = [
    "passkey.add",
    "passkey.sign_in",
    "passkey.reauth",
    "passkey.rename",
    "passkey.remove",
    "passkey.refused",
    "api_key.create",
    "api_key.revoke",
    "two_factor.enable",
    "two_factor.disable",
    "two_factor.recovery_codes",
    "account.deletion_schedule",
    "account.deletion_cancel",
    "account.export_request",
    "account.export_download",
];

/// One event of the security log.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecurityEvent {
    pub id: String,
    /// e.g. `passkey.add`, `passkey.refused`, `two_factor.enable`.
    pub action: String,
    pub at: String,
    /// The passkey's name, or why it was refused, when there is one.
    pub detail: Option<String>,
}

fn describe(entry: &AuditEntry) -> Option<String> {
    let reason = entry.details.get_str("reason").ok();
    match (entry.target_label.as_deref(), reason) {
        (Some(name), Some(reason)) => Some(format!("{name} ({})", refusal_text(reason))),
        (Some(name), None) if matches!(entry.target_type.as_str(), "passkey" | "api_key") => {
            Some(name.to_string())
        }
        _ => None,
    }
}

fn refusal_text(reason: &str) -> &'static str {
    match reason {
        "counter" => "signature counter went backwards",
        "not_verified" => "device did not verify the person",
        "wrong_site" => "made for another site",
        "other_account" => "used for another account",
        "challenge" => "expired or replayed request",
        "blocked" => "the account is blocked",
        _ => "signature not accepted",
    }
}

/// The person's 50 latest security events, newest first.
pub async fn security_log(state: &AppState, user: &User) -> ApiResult<Vec<SecurityEvent>> {
    let filter = mongodb::bson::doc! {
        "actorId": user.id,
        "action": { "$in": SECURITY_ACTIONS.to_vec() },
    };
    let (entries, _) = audit_log::page(&state.db, filter, 0, 50).await?;
    Ok(entries
        .iter()
        .map(|e| SecurityEvent {
            id: e.id.to_hex(),
            action: e.action.clone(),
            at: iso(e.created_at),
            detail: describe(e),
        })
        .collect())
}
