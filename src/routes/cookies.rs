//! The session cookie, set by every route that signs someone in and cleared by those that sign
//! them out or end the account.

use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};

use crate::auth::COOKIE_NAME;
use crate::state::AppState;

/// The httpOnly cookie carrying the session token.
pub fn session_cookie(state: &AppState, token: &str) -> Cookie<'static> {
    Cookie::build(COOKIE_NAME, token.to_string())
        .path("/")
        .http_only(true)
        .secure(state.settings.auth.cookie_secure)
        .same_site(SameSite::Lax)
        .max_age(CookieDuration::seconds(state.tokens.ttl_seconds()))
        .finish()
}

/// A cookie that removes the session cookie.
pub fn cleared_cookie(state: &AppState) -> Cookie<'static> {
    let mut c = Cookie::build(COOKIE_NAME, "")
        .path("/")
        .http_only(true)
        .secure(state.settings.auth.cookie_secure)
        .same_site(SameSite::Lax)
        .finish();
    c.make_removal();
    c
}
