//! `GET /api/auth/sessions` → {sessions}: where the signed-in user is signed in;
//! `DELETE /api/auth/sessions/{id}` → {message}: ends one of them. The ended session's token is
//! revoked (every node checks revocations on each request) and its sockets are closed on every
//! node; another user's session id is a 404 like an unknown one.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::now;
use crate::persistence::revoked_tokens::{self, RevokedToken};
use crate::persistence::sessions::{self, Session};
use crate::routes::answers::MessageAnswer;
use crate::state::AppState;

pub const MSG_SESSION_ENDED: &str = "Signed out of that session";
pub const MSG_NO_SESSION: &str = "Session not found";

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

/// `{sessions}`, newest first.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SessionsAnswer {
    sessions: Vec<SessionItem>,
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

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let list = sessions::list_for_user(&state.db, me.user.id, me.user.token_version).await?;
    Ok(HttpResponse::Ok().json(SessionsAnswer {
        sessions: list.into_iter().map(|s| item(s, &me.claims.jti)).collect(),
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn end(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    if id.is_empty() || id.len() > 64 {
        return Err(ApiError::not_found(MSG_NO_SESSION));
    }
    let Some(session) = sessions::end(&state.db, me.user.id, &id).await? else {
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
    Ok(HttpResponse::Ok().json(MessageAnswer::new(MSG_SESSION_ENDED)))
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
