//! Authentication: tokens, passwords, one-time codes, Google ID tokens, and the users the request
//! extractors give (`AuthUser`, `MaybeUser`, `AdminUser`; their `FromRequest` is in
//! `crate::auth_extractors`, above the application state).

pub(crate) mod google;
pub(crate) mod otp;
pub(crate) mod password;
pub(crate) mod token;
pub(crate) mod totp;

use actix_web::http::header;
use actix_web::HttpRequest;

use crate::error::ApiError;
use crate::persistence::revoked_tokens;
use crate::persistence::users::{self, Role, User};
use crate::persistence::Db;
pub use token::{Claims, TokenKeys};

/// Name of the session cookie.
pub(crate) const COOKIE_NAME: &str = "jwt";

pub(crate) const MSG_NOT_SIGNED_IN: &str = "You must be logged in to do that.";
pub(crate) const MSG_REVOKED: &str = "Your session has ended. Please log in again.";
pub const MSG_BLOCKED: &str = "Your account has been blocked. Please contact support.";
pub(crate) const MSG_ADMIN_ONLY: &str = "Admin access required";
/// Administrators must turn two-factor sign-in on before using administrator tools (a setting).
pub(crate) const MSG_ADMIN_TWO_FACTOR: &str =
    "Administrators on this site must use two-factor sign-in. Sign in with a passkey, or set up an authenticator app in your account settings, to open the admin dashboard.";

/// A signed-in user, loaded fresh from the database for this request.
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user: User,
    pub claims: Claims,
    /// Set when the request carried a personal API key instead of a session.
    pub key: Option<KeyGrant>,
}

/// The personal API key a request was made with, and what it may do.
#[derive(Debug, Clone)]
pub struct KeyGrant {
    pub id: mongodb::bson::oid::ObjectId,
    pub scopes: Vec<String>,
}

impl AuthUser {
    pub(crate) fn id_hex(&self) -> String {
        self.user.id.to_hex()
    }
    pub(crate) fn is_admin(&self) -> bool {
        self.user.role == Role::Admin
    }
}

/// A signed-in user if the request carries a valid token, else a guest.
#[derive(Debug, Clone)]
pub struct MaybeUser(pub Option<AuthUser>);

/// A signed-in administrator.
#[derive(Debug, Clone)]
pub struct AdminUser(pub AuthUser);

/// The token a request carries: the bearer header first, then the `jwt` cookie.
pub(crate) fn token_from_request(req: &HttpRequest) -> Option<String> {
    let bearer = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| usable_token(t))
        .map(str::to_string);
    bearer.or_else(|| {
        req.cookie(COOKIE_NAME)
            .map(|c| c.value().to_string())
            .filter(|t| usable_token(t))
    })
}

/// Clients sometimes send the text of an empty value; those are no token at all.
fn usable_token(t: &str) -> bool {
    !t.is_empty() && t != "null" && t != "undefined"
}

/// Checks a token completely: signature, expiry, revocation, the user's existence, session epoch
/// and block state.
pub(crate) async fn authenticate_with(
    db: &Db,
    tokens: &TokenKeys,
    token: &str,
) -> Result<AuthUser, ApiError> {
    let claims = tokens.verify(token)?;
    let id = mongodb::bson::oid::ObjectId::parse_str(&claims.sub)
        .map_err(|_| ApiError::unauthorized_code("invalid_token", MSG_REVOKED))?;
    if revoked_tokens::is_revoked(db, &claims.jti).await? {
        return Err(ApiError::unauthorized_code("token_revoked", MSG_REVOKED));
    }
    let user = users::find_by_id(db, id)
        .await?
        .ok_or_else(|| ApiError::unauthorized_code("token_revoked", MSG_REVOKED))?;
    if user.blocked {
        return Err(ApiError::unauthorized_code("account_blocked", MSG_BLOCKED));
    }
    if user.token_version != claims.ver {
        return Err(ApiError::unauthorized_code("token_revoked", MSG_REVOKED));
    }
    note_session_use(db, tokens, &claims.jti);
    Ok(AuthUser {
        user,
        claims,
        key: None,
    })
}

/// Seconds between two writes of a session's `lastSeenAt`.
pub(crate) const LAST_SEEN_GAP_SECS: i64 = 60;

/// Moves the session's `lastSeenAt` forward, at most once a minute: this process remembers
/// when it last wrote for each session, and the write itself only matches a session not
/// written in the last minute (by any node). The write runs beside the request.
fn note_session_use(db: &Db, tokens: &TokenKeys, jti: &str) {
    use std::time::{Duration, Instant};
    let gap = Duration::from_secs(LAST_SEEN_GAP_SECS as u64);
    let now = Instant::now();
    {
        let Ok(mut last) = tokens.sessions_seen.lock() else {
            return;
        };
        if last.get(jti).is_some_and(|t| now.duration_since(*t) < gap) {
            return;
        }
        if last.len() > 50_000 {
            last.retain(|_, t| now.duration_since(*t) < gap);
        }
        last.insert(jti.to_string(), now);
    }
    let db = db.clone();
    let jti = jti.to_string();
    if let Ok(handle) = tokio::runtime::Handle::try_current() {
        handle.spawn(async move {
            if let Err(e) = crate::persistence::sessions::touch(&db, &jti, LAST_SEEN_GAP_SECS).await
            {
                tracing::debug!(error = %e, "could not note a session's last use");
            }
        });
    }
}

/// Refuses an administrator without two-factor sign-in (an authenticator app, or this session
/// signed in with a passkey) with 403 `two_factor_required` while the administrators' setting
/// asks for it. Setting the factor up (`/api/auth/2fa/*`) needs only a
/// signed-in user, so it stays open.
pub(crate) async fn require_admin_two_factor(db: &Db, admin: &AuthUser) -> Result<(), ApiError> {
    let settings = crate::persistence::admin_settings::load(db).await?;
    if !settings.require_admin_two_factor
        || crate::persistence::two_factor::is_enabled(db, admin.user.id).await?
    {
        return Ok(());
    }
    // A session signed in with a passkey (user verification: two factors in one) counts.
    let session = crate::persistence::sessions::find(db, &admin.claims.jti).await?;
    if session.is_some_and(|s| s.method.as_deref() == Some("passkey")) {
        return Ok(());
    }
    Err(ApiError::ForbiddenCode {
        code: "two_factor_required",
        message: MSG_ADMIN_TWO_FACTOR.to_string(),
    })
}
