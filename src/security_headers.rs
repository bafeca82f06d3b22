//! The security headers of every response: a strict Content-Security-Policy, `nosniff`, the
//! referrer policy, no framing, and HSTS in production. Set by `crate::middleware::security_headers`
//! on every response of the chain and by `ApiError`'s own rendering (errors that leave the chain).

use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};

/// The Content-Security-Policy of every response. Scripts only from the site (the built app has no
/// inline script), the server pages' one inline script by its hash (`pages::cards::CONSENT_SCRIPT`,
/// which takes the first paint's cookie bar away when a choice is stored) and Google's sign-in
/// client; styles from the site and inline (the editor and the
/// chart library set styles at run time); images from anywhere over HTTPS (posts may show web
/// images); frames only from the embed services the editor accepts; nothing may frame the site.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
script-src 'self' 'sha256-ze5Ryf0B7rimS1HULbHgOAtBi5nQgqn7n7YJMo6FeIM=' https://accounts.google.com/gsi/client; \
style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style; \
img-src 'self' data: blob: https:; \
media-src 'self' blob: https:; \
font-src 'self' data:; \
connect-src 'self' https://accounts.google.com/gsi/; \
frame-src https://www.youtube.com https://www.youtube-nocookie.com https://player.vimeo.com https://codepen.io https://accounts.google.com/gsi/; \
object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
/// Strict-Transport-Security in production (two years, subdomains included).
pub const HSTS: &str = "max-age=63072000; includeSubDomains";
pub const REFERRER_POLICY: &str = "strict-origin-when-cross-origin";

/// The headers [`security_headers`] sets on every response that has not set them itself.
pub fn apply_security_headers(headers: &mut HeaderMap, hsts: bool) {
    let mut set = |name: HeaderName, value: &'static str| {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    };
    set(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, REFERRER_POLICY);
    set(header::X_FRAME_OPTIONS, "DENY");
    set(
        HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin-allow-popups",
    );
    if hsts {
        set(header::STRICT_TRANSPORT_SECURITY, HSTS);
    }
}
