//! Who is counted, for the counts that pay people (views, shares, reading time): one identity per
//! reader, automation left out. See docs/decisions.md ("Counting engagement").
//!
//! - A **reader** is the signed-in user; else a guest whose id the server issued (a signed value,
//!   set as the HttpOnly cookie `pr_guest` and returned by `POST /api/public/guest/visit`, which
//!   the client may echo in `guestId` or `X-Guest-Id`); else the client address (behind a trusted
//!   proxy, the forwarded one). An id the server did not sign is not trusted: its request counts
//!   as the address, and it is given a signed id for next time.
//! - At most `counting.guests_per_address` distinct guest ids are counted per address per
//!   `counting.guest_window_seconds`, cluster-wide (Redis; each node's memory while Redis is
//!   away); past that, that address's further guests count as the address itself.
//! - Known crawlers, bots and headless browsers (the crawler-user-agents list, kept in
//!   `crawler-user-agents.txt`) are never counted.

use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use actix_web::cookie::time::Duration as CookieDuration;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::HttpRequest;
use deadpool_redis::redis::Script;
use hmac::{Hmac, Mac};
use mongodb::bson::oid::ObjectId;
use sha2::Sha256;

use crate::auth::AuthUser;
use crate::config::Settings;
use crate::error::{ApiError, ApiResult};
use crate::net::client_key;
use crate::ratelimit::{Action, Engager, RateLimiter};
use crate::redis_pool::Redis;

/// The cookie holding a guest's server-issued id.
pub const GUEST_COOKIE: &str = "pr_guest";
/// Header a guest's client may echo its guest id in.
pub const GUEST_HEADER: &str = "x-guest-id";
/// Longest guest id accepted.
pub const MAX_GUEST_ID_LEN: usize = 100;
pub const MSG_INVALID_GUEST_ID: &str = "guestId must be 1 to 100 letters, digits, '-' or '_'";
/// What the signature of a guest id is for (so no other signed value passes as one).
const GUEST_PURPOSE: &str = "pressroom-guest-id:";
/// A guest cookie lasts a year.
const GUEST_COOKIE_DAYS: i64 = 365;

/// The patterns, one regular expression a line (`#` starts a comment).
const CRAWLER_PATTERNS: &str = include_str!("crawler-user-agents.txt");

/// Every pattern of the list as one expression (`None` if it did not compile, which the unit
/// tests rule out).
static CRAWLERS: LazyLock<Option<regex::Regex>> = LazyLock::new(|| {
    let alternatives: Vec<String> = CRAWLER_PATTERNS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|p| format!("(?:{p})"))
        .collect();
    match regex::RegexBuilder::new(&alternatives.join("|"))
        .size_limit(256 << 20)
        .dfa_size_limit(64 << 20)
        .build()
    {
        Ok(re) => Some(re),
        Err(e) => {
            tracing::error!(error = %e, "the crawler patterns do not compile; no request is taken for a crawler");
            None
        }
    }
});

/// Whether a user agent is a known crawler, bot or headless browser.
pub fn is_crawler_agent(agent: &str) -> bool {
    CRAWLERS.as_ref().is_some_and(|re| re.is_match(agent))
}

/// Whether the request comes from a known crawler, bot or headless browser (by its user agent;
/// a request without one is not taken for a crawler).
pub fn is_crawler(req: &HttpRequest) -> bool {
    req.headers()
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(is_crawler_agent)
}

fn guest_signature(secret: &[u8], id: &str) -> Option<String> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).ok()?;
    mac.update(GUEST_PURPOSE.as_bytes());
    mac.update(id.as_bytes());
    Some(hex::encode(&mac.finalize().into_bytes()[..16]))
}

/// A new guest id: a random id and its signature (`<32 hex>-<32 hex>`), within the shape guest
/// ids always had (letters, digits, `-`, `_`; at most 100).
pub fn issue_guest_id(secret: &[u8]) -> String {
    let id = uuid::Uuid::new_v4().simple().to_string();
    format!("{id}-{}", guest_signature(secret, &id).unwrap_or_default())
}

/// The id inside a server-issued guest id, when its signature is right.
pub fn verify_guest_id(secret: &[u8], token: &str) -> Option<String> {
    let (id, given) = token.trim().split_once('-')?;
    if id.len() != 32 || given.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).ok()?;
    mac.update(GUEST_PURPOSE.as_bytes());
    mac.update(id.as_bytes());
    mac.verify_truncated_left(&hex::decode(given).ok()?).ok()?;
    Some(id.to_string())
}

/// Checks the shape of a guest id a client sent (any id, signed or not).
pub fn well_formed_guest_id(raw: &str) -> ApiResult<()> {
    let ok = !raw.is_empty()
        && raw.len() <= MAX_GUEST_ID_LEN
        && raw
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad_request(MSG_INVALID_GUEST_ID))
    }
}

/// What counting reads from the application (`crate::state::AppState::counting` lends it).
#[derive(Clone, Copy)]
pub struct Counting<'a> {
    pub settings: &'a Settings,
    pub redis: &'a Redis,
    pub trusted_proxies: &'a [std::net::IpAddr],
    pub limiter: &'a RateLimiter,
    /// Guests counted per address while Redis is away (this process's own).
    pub local_guests: &'a LocalGuests,
}

fn secret(settings: &Settings) -> &[u8] {
    secrecy::ExposeSecret::expose_secret(&settings.auth.jwt_secret).as_bytes()
}

/// The HttpOnly cookie carrying a server-issued guest id.
pub fn guest_cookie(settings: &Settings, token: &str) -> Cookie<'static> {
    Cookie::build(GUEST_COOKIE, token.to_string())
        .path("/")
        .http_only(true)
        .secure(settings.auth.cookie_secure)
        .same_site(SameSite::Lax)
        .max_age(CookieDuration::days(GUEST_COOKIE_DAYS))
        .finish()
}

/// Who a counted action is by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reader {
    User(ObjectId),
    /// The id inside a server-issued guest id.
    Guest(String),
    /// The client address.
    Address(String),
}

impl Reader {
    /// `user:<id>`, `guest:<id>` or `ip:<address>` (how records name readers).
    pub fn key(&self) -> String {
        match self {
            Reader::User(id) => format!("user:{}", id.to_hex()),
            Reader::Guest(id) => format!("guest:{id}"),
            Reader::Address(ip) => format!("ip:{ip}"),
        }
    }
}

/// A reader, the client address, and the guest cookie to set when a new id was issued.
#[derive(Debug)]
pub struct Identified {
    pub reader: Reader,
    pub address: String,
    /// A server-issued guest id for a guest who came without a valid one.
    pub issued: Option<String>,
}

impl Identified {
    /// Sets the guest cookie on an answer when a new guest id was issued.
    pub fn apply(&self, settings: &Settings, res: &mut actix_web::HttpResponse) {
        if let Some(token) = &self.issued {
            if let Ok(value) = guest_cookie(settings, token).to_string().parse() {
                res.headers_mut()
                    .append(actix_web::http::header::SET_COOKIE, value);
            }
        }
    }
}

impl Engager for Identified {
    fn reader_key(&self) -> Option<String> {
        match self.reader {
            Reader::Address(_) => None,
            _ => Some(self.reader.key()),
        }
    }
    fn address(&self) -> &str {
        &self.address
    }
}

/// The guest id the request carries: the cookie first, then `guestId` from the body, then the
/// header. `Err` for a malformed one (400).
fn presented_guest(req: &HttpRequest, body_guest: Option<&str>) -> ApiResult<Option<String>> {
    if let Some(c) = req.cookie(GUEST_COOKIE) {
        let v = c.value().trim();
        if !v.is_empty() && well_formed_guest_id(v).is_ok() {
            return Ok(Some(v.to_string()));
        }
    }
    let header = req
        .headers()
        .get(GUEST_HEADER)
        .and_then(|v| v.to_str().ok());
    let given = body_guest
        .or(header)
        .map(str::trim)
        .filter(|g| !g.is_empty() && *g != "null" && *g != "undefined");
    match given {
        Some(g) => {
            well_formed_guest_id(g)?;
            Ok(Some(g.to_string()))
        }
        None => Ok(None),
    }
}

/// Who the request is by, for counting (see the module's documentation).
pub async fn identify(
    ctx: &Counting<'_>,
    req: &HttpRequest,
    me: Option<&AuthUser>,
    body_guest: Option<&str>,
) -> ApiResult<Identified> {
    let address = client_key(req, ctx.trusted_proxies);
    if let Some(me) = me {
        return Ok(Identified {
            reader: Reader::User(me.user.id),
            address,
            issued: None,
        });
    }
    let presented = presented_guest(req, body_guest)?;
    let verified = presented
        .as_deref()
        .and_then(|t| verify_guest_id(secret(ctx.settings), t));
    let Some(guest) = verified else {
        // No id the server issued: the address counts, and the guest gets an id for next time.
        return Ok(Identified {
            reader: Reader::Address(address.clone()),
            address,
            issued: Some(issue_guest_id(secret(ctx.settings))),
        });
    };
    let reader = if guest_allowed(ctx, &address, &guest).await {
        Reader::Guest(guest)
    } else {
        Reader::Address(address.clone())
    };
    Ok(Identified {
        reader,
        address,
        issued: None,
    })
}

/// Counts a signed-in user's engagement write (`action`) against their own allowance and their
/// address's; a 429 with `Retry-After` past either (`crate::ratelimit`).
pub async fn limit_user(
    ctx: &Counting<'_>,
    req: &HttpRequest,
    me: &AuthUser,
    action: Action,
) -> ApiResult<()> {
    let who = Identified {
        reader: Reader::User(me.user.id),
        address: client_key(req, ctx.trusted_proxies),
        issued: None,
    };
    ctx.limiter.engagement(action, &who).await
}

/// KEYS[1]: the address's set of guests this window; ARGV: guest, most guests, window in ms.
/// Answers 1 when the guest is (or now becomes) one of the counted ones.
static GUEST_CAP: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
",
    )
});

/// Each node's own count while Redis is away: (namespace, address) → (window start, guests). The
/// application state holds one.
#[derive(Default)]
pub struct LocalGuests(Mutex<HashMap<GuestWindowKey, GuestWindow>>);
/// (namespace, address).
type GuestWindowKey = (String, String);
/// When the window started, and the guests counted in it.
type GuestWindow = (Instant, HashSet<String>);

/// Whether this guest is one of the (at most `guests_per_address`) guests counted for this
/// address in the current window.
async fn guest_allowed(ctx: &Counting<'_>, address: &str, guest: &str) -> bool {
    let settings = &ctx.settings.counting;
    let most = settings.guests_per_address;
    let window = Duration::from_secs(settings.guest_window_seconds);
    if ctx.redis.is_configured() {
        let key = ctx.redis.key(&format!("counting:guests:{address}"));
        let window_ms = u64::try_from(window.as_millis()).unwrap_or(u64::MAX);
        let mut invocation = GUEST_CAP.prepare_invoke();
        invocation.key(key).arg(guest).arg(most).arg(window_ms);
        let answer: Result<i64, _> = ctx
            .redis
            .run_if_up(|mut conn| async move { invocation.invoke_async(&mut conn).await })
            .await;
        if let Ok(allowed) = answer {
            return allowed == 1;
        }
    }
    let now = Instant::now();
    let mut local = ctx.local_guests.0.lock().unwrap_or_else(|p| p.into_inner());
    if local.len() > 10_000 {
        local.retain(|_, (start, _)| now.duration_since(*start) < window);
    }
    let entry = local
        .entry((ctx.settings.database.name.clone(), address.to_string()))
        .or_insert_with(|| (now, HashSet::new()));
    if now.duration_since(entry.0) >= window {
        *entry = (now, HashSet::new());
    }
    if entry.1.contains(guest) {
        return true;
    }
    if entry.1.len() >= usize::try_from(most).unwrap_or(usize::MAX) {
        return false;
    }
    entry.1.insert(guest.to_string());
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_of_the_list_compiles_and_known_agents_are_told_apart() {
        assert!(
            CRAWLERS.is_some(),
            "the crawler list compiles as one expression"
        );
        for line in CRAWLER_PATTERNS
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            assert!(regex::Regex::new(line).is_ok(), "pattern {line}");
        }
        for bot in [
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
            "python-requests/2.31.0",
            "curl/8.5.0",
        ] {
            assert!(is_crawler_agent(bot), "{bot}");
        }
        for person in [
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
        ] {
            assert!(!is_crawler_agent(person), "{person}");
        }
    }

    #[test]
    fn only_ids_the_server_signed_are_guest_ids() {
        let secret = b"secret";
        let token = issue_guest_id(secret);
        assert!(well_formed_guest_id(&token).is_ok());
        let id = verify_guest_id(secret, &token).unwrap();
        assert_eq!(token.split_once('-').unwrap().0, id);
        assert_eq!(verify_guest_id(b"other secret", &token), None);
        assert_eq!(verify_guest_id(secret, "guest-a"), None);
        let forged = format!("{}-{}", "a".repeat(32), "0".repeat(32));
        assert_eq!(verify_guest_id(secret, &forged), None);
        let mut tampered = token.clone();
        tampered.replace_range(0..1, if token.starts_with('a') { "b" } else { "a" });
        assert_eq!(verify_guest_id(secret, &tampered), None);
    }
}
