//! Sign-in sessions: one recorded with each token issued (device, address, place; a new device
//! on an account that signed in before is told by email), listed for their owner and ended one
//! at a time.

use std::net::IpAddr;

use chrono::Utc;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::mail::{MailKind, Outgoing};
use crate::persistence::now;
use crate::persistence::revoked_tokens::{self, RevokedToken};
use crate::persistence::sessions::{self, Session};
use crate::persistence::users::User;
use crate::state::AppState;

pub const MSG_NO_SESSION: &str = "Session not found";

/// Issues a token for `user` and records its session (device, address, place). The first
/// sign-in from a device the account has not used before, on an account that has signed in
/// before, sends the "New sign-in to your account" email.
pub async fn start(
    state: &AppState,
    user: &User,
    user_agent: &str,
    ip: Option<IpAddr>,
    method: Option<&str>,
) -> ApiResult<String> {
    let (token, claims) =
        state
            .tokens
            .issue(&user.id.to_hex(), user.role.as_str(), user.token_version)?;
    let user_agent = user_agent.chars().take(512).collect::<String>();
    let device = describe_device(&user_agent);
    let place = state.live.geoip.locate(ip);
    let seen_before = sessions::any_for_user(&state.db, user.id).await?;
    let known = seen_before && sessions::device_known(&state.db, user.id, &device).await?;
    let now = mongodb::bson::DateTime::now();
    let record = sessions::Session {
        id: claims.jti.clone(),
        user_id: user.id,
        ver: user.token_version,
        user_agent,
        device: device.clone(),
        ip: ip.map(|ip| ip.to_string()),
        city: place.city.clone(),
        country: place.country.clone(),
        created_at: now,
        last_seen_at: now,
        expires_at: mongodb::bson::DateTime::from_millis(claims.exp.saturating_mul(1000)),
        ended_at: None,
        reauth_at: None,
        method: method.map(str::to_string),
    };
    sessions::insert(&state.db, &record).await?;
    if seen_before && !known {
        let when = Utc::now().format("%Y-%m-%d %H:%M UTC");
        let body = format!(
            "Hello {},\n\nYour Pressroom account was just signed in to from a new device.\n\nDevice: {device}\nPlace: {}, {}\nTime: {when}\n\nIf this was you, there is nothing to do. If it was not, end that session and change your password:\n{}\n",
            user.name,
            place.city,
            place.country,
            state.settings.public_link("/user-setting#sessions"),
        );
        let mail = Outgoing::new(
            MailKind::Security,
            &user.email,
            "New sign-in to your account",
            body,
        )
        .for_user(user.id);
        state.mailer.send_mail(mail).await;
    }
    Ok(token)
}

/// One sign-in session as its owner sees it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionItem {
    id: String,
    user_agent: String,
    /// Browser and operating system ("Firefox on Linux").
    device: String,
    ip: Option<String>,
    city: String,
    country: String,
    created_at: String,
    last_seen_at: String,
    /// The session this request was made with.
    current: bool,
}

fn item(s: Session, current: &str) -> SessionItem {
    SessionItem {
        current: s.id == current,
        id: s.id,
        user_agent: s.user_agent,
        device: s.device,
        ip: s.ip,
        city: s.city,
        country: s.country,
        created_at: crate::post_view::iso(s.created_at),
        last_seen_at: crate::post_view::iso(s.last_seen_at),
    }
}

/// `me`'s live sessions, newest first (the one `me` signed in with marked `current`).
pub async fn list(state: &AppState, me: &AuthUser) -> ApiResult<Vec<SessionItem>> {
    let list = sessions::list_for_user(&state.db, me.user.id, me.user.token_version).await?;
    Ok(list.into_iter().map(|s| item(s, &me.claims.jti)).collect())
}

/// Ends `me`'s session `id`: its token is revoked and its tabs are told at once.
pub async fn end(state: &AppState, me: &AuthUser, id: &str) -> ApiResult<()> {
    if id.is_empty() || id.len() > 64 {
        return Err(ApiError::not_found(MSG_NO_SESSION));
    }
    let Some(session) = sessions::end(&state.db, me.user.id, id).await? else {
        return Err(ApiError::not_found(MSG_NO_SESSION));
    };
    revoked_tokens::revoke(
        &state.db,
        &RevokedToken {
            id: session.id.clone(),
            user_id: me.id_hex(),
            expires_at: session.expires_at,
            revoked_at: now(),
        },
    )
    .await?;
    crate::live::session_ended(&state.realtime, &me.id_hex(), &session.id);
    tracing::info!(user_id = %me.user.id, "one session ended");
    Ok(())
}

/// "Browser on OS" from a user agent, parsed with woothee; unknown parts say so.
pub fn describe_device(user_agent: &str) -> String {
    let parsed = woothee::parser::Parser::new().parse(user_agent);
    let known = |v: &str| !v.is_empty() && v != woothee::woothee::VALUE_UNKNOWN;
    match parsed {
        Some(r) if known(r.name) && known(r.os) => format!("{} on {}", r.name, r.os),
        Some(r) if known(r.name) => r.name.to_string(),
        Some(r) if known(r.os) => format!("Unknown browser on {}", r.os),
        _ => "Unknown device".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::describe_device;

    #[test]
    fn devices_are_named_from_the_user_agent() {
        assert_eq!(
            describe_device(
                "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"
            ),
            "Firefox on Linux"
        );
        assert_eq!(
            describe_device("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"),
            "Chrome on Windows 10"
        );
        assert_eq!(describe_device(""), "Unknown device");
        assert_eq!(describe_device("reqwest/0.12"), "Unknown device");
    }
}
