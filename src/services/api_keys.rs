//! Personal API keys (`domain::api_keys` for their format and scopes): creating (after a
//! step-up), listing, revoking, and authenticating a request that carries one.
//!
//! A key acts as its owner, on the routes whose scope it holds only: each route of the table
//! names the scope a key needs for it ([`KeyScopes`], filled from the route table); a route that
//! names none (money moving, account security, key management itself) refuses every key.
//! Revoking is one write every node sees on the next request (keys are looked up per request).

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Serialize;

use crate::auth::{AuthUser, Claims, KeyGrant};
use crate::domain::api_keys::{self as format, SCOPES};
use crate::error::{ApiError, ApiResult};
use crate::persistence::api_keys::{self, ApiKey};
use crate::persistence::users::{self, User};
use crate::ratelimit::Kind;
use crate::state::AppState;

/// Most live keys one account may hold.
pub const MAX_KEYS: u64 = 25;
pub const NAME_MAX: usize = 80;
/// Shortest and longest expiry, in days.
pub const EXPIRY_MIN_DAYS: i64 = 30;
pub const EXPIRY_MAX_DAYS: i64 = 365;

pub const MSG_NAME_REQUIRED: &str = "Give the key a name, such as \"Newsletter sync\".";
pub const MSG_NAME_TOO_LONG: &str = "A key name can be at most 80 characters.";
pub const MSG_NO_SCOPES: &str = "Choose at least one scope for the key.";
pub const MSG_EXPIRY: &str =
    "expiresInDays must be a whole number of days from 30 to 365, or null for a key that does not expire.";
pub const MSG_TOO_MANY: &str =
    "You can have at most 25 API keys. Revoke one you no longer use first.";
pub const MSG_KEY_INVALID: &str = "This API key is not valid. Check that it was copied whole.";
pub const MSG_KEY_REVOKED: &str = "This API key was revoked.";
pub const MSG_KEY_EXPIRED: &str = "This API key has expired.";
pub const MSG_NOT_FOUND: &str = "API key not found";
pub const MSG_CONTENT_ALONE: &str =
    "A public content key (content:read) holds no other scope: it is meant to be seen by anyone.";

/// The scope each route needs of a key: `(method, path pattern)` → scope. Routes absent from
/// it take no key.
#[derive(Debug, Default, Clone)]
pub struct KeyScopes(pub HashMap<(String, String), &'static str>);

impl KeyScopes {
    /// The scope `method` on the route `pattern` needs; `None` when keys cannot use it.
    pub fn needed(&self, method: &str, pattern: &str) -> Option<&'static str> {
        self.0
            .get(&(method.to_string(), pattern.to_string()))
            .copied()
    }
}

/// A key as its owner sees it (never the key itself, except in [`Created`]).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeyView {
    pub id: String,
    pub name: String,
    /// The key's first characters (`pr_live_` and eight more).
    pub prefix: String,
    pub scopes: Vec<String>,
    pub expires_at: Option<String>,
    pub created_at: String,
    pub last_used_at: Option<String>,
    pub usage_count: i64,
}

fn iso(at: DateTime) -> String {
    at.to_chrono()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

impl From<&ApiKey> for KeyView {
    fn from(k: &ApiKey) -> Self {
        KeyView {
            id: k.id.to_hex(),
            name: k.name.clone(),
            prefix: k.prefix.clone(),
            scopes: k.scopes.clone(),
            expires_at: k.expires_at.map(iso),
            created_at: iso(k.created_at),
            last_used_at: k.last_used_at.map(iso),
            usage_count: k.usage_count,
        }
    }
}

/// A key just made: its view and the key, shown this once.
pub struct Created {
    pub view: KeyView,
    pub key: String,
}

/// What a new key asks for, checked.
pub struct NewKey {
    pub name: String,
    pub scopes: Vec<String>,
    pub expires_in_days: Option<i64>,
}

/// Checks and makes a key for `user`. Unknown scopes, administrator scopes for someone who is
/// not one, a name or expiry out of range, or a 26th key: 400 with a message.
pub async fn create(state: &AppState, user: &User, new: NewKey) -> ApiResult<Created> {
    let name = new.name.trim().to_string();
    if name.is_empty() {
        return Err(ApiError::bad_request(MSG_NAME_REQUIRED));
    }
    if name.chars().count() > NAME_MAX {
        return Err(ApiError::bad_request(MSG_NAME_TOO_LONG));
    }
    let mut scopes: Vec<String> = Vec::new();
    for s in &new.scopes {
        let Some(known) = format::scope(s) else {
            let names: Vec<&str> = SCOPES.iter().map(|s| s.name).collect();
            return Err(ApiError::bad_request(format!(
                "Unknown scope \"{s}\". Scopes are: {}.",
                names.join(", ")
            )));
        };
        if known.admin && user.role != users::Role::Admin {
            return Err(ApiError::bad_request(format!(
                "Only administrators can give a key the scope \"{s}\"."
            )));
        }
        if !scopes.contains(s) {
            scopes.push(s.clone());
        }
    }
    if scopes.is_empty() {
        return Err(ApiError::bad_request(MSG_NO_SCOPES));
    }
    if scopes.iter().any(|s| s == format::CONTENT_SCOPE) && scopes.len() > 1 {
        return Err(ApiError::bad_request(MSG_CONTENT_ALONE));
    }
    let expires_at = match new.expires_in_days {
        None => None,
        Some(days) if (EXPIRY_MIN_DAYS..=EXPIRY_MAX_DAYS).contains(&days) => Some(
            DateTime::from_chrono(chrono::Utc::now() + chrono::Duration::days(days)),
        ),
        Some(_) => return Err(ApiError::bad_request(MSG_EXPIRY)),
    };
    if api_keys::count_live(&state.db, user.id).await? >= MAX_KEYS {
        return Err(ApiError::bad_request(MSG_TOO_MANY));
    }
    let key = format::generate();
    let record = ApiKey {
        id: ObjectId::new(),
        user_id: user.id,
        name,
        hash: format::hash(&key),
        prefix: format::prefix(&key),
        scopes,
        expires_at,
        created_at: DateTime::now(),
        last_used_at: None,
        usage_count: 0,
        revoked_at: None,
    };
    api_keys::insert(&state.db, &record).await?;
    Ok(Created {
        view: KeyView::from(&record),
        key,
    })
}

pub async fn list(state: &AppState, user: &User) -> ApiResult<Vec<KeyView>> {
    Ok(api_keys::for_user(&state.db, user.id)
        .await?
        .iter()
        .map(KeyView::from)
        .collect())
}

pub async fn revoke(state: &AppState, user: &User, id: ObjectId) -> ApiResult<ApiKey> {
    api_keys::revoke(&state.db, user.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))
}

/// Authenticates a request carrying the key `token` on the route `method` `pattern`: the key's
/// owner, with the key's grant, once the key is known, live, unexpired, within its rate limit
/// and holds the scope the route needs (403 `insufficient_scope` naming it, or 403
/// `key_not_allowed` for a route no key may use).
pub async fn authenticate(
    state: &AppState,
    scopes: Option<&KeyScopes>,
    token: &str,
    method: &str,
    pattern: Option<&str>,
) -> ApiResult<AuthUser> {
    if !format::is_well_formed(token) {
        return Err(ApiError::unauthorized_code(
            "invalid_api_key",
            MSG_KEY_INVALID,
        ));
    }
    let Some(key) = api_keys::find_by_hash(&state.db, &format::hash(token)).await? else {
        return Err(ApiError::unauthorized_code(
            "invalid_api_key",
            MSG_KEY_INVALID,
        ));
    };
    if key.revoked_at.is_some() {
        return Err(ApiError::unauthorized_code(
            "api_key_revoked",
            MSG_KEY_REVOKED,
        ));
    }
    if key.expires_at.is_some_and(|at| at <= DateTime::now()) {
        return Err(ApiError::unauthorized_code(
            "api_key_expired",
            MSG_KEY_EXPIRED,
        ));
    }
    let user = users::find_by_id(&state.db, key.user_id)
        .await?
        .ok_or_else(|| ApiError::unauthorized_code("invalid_api_key", MSG_KEY_INVALID))?;
    if user.blocked {
        return Err(ApiError::unauthorized_code(
            "account_blocked",
            crate::auth::MSG_BLOCKED,
        ));
    }
    let needed = pattern.and_then(|p| scopes.and_then(|s| s.needed(method, p)));
    if key.scopes.iter().any(|s| s == format::CONTENT_SCOPE) {
        // The site's public content key reads what a guest reads, and nothing as anyone; its
        // reads count against its own limit and in its use count like any key's.
        return Err(if method == "GET" && needed == Some("read:posts") {
            state.limiter.hit(Kind::ApiKey, &key.id.to_hex()).await?;
            note_use(state, key.id);
            ApiError::Unauthorized {
                code: CONTENT_KEY_GUEST,
                message: "A public content key reads as a guest.".into(),
            }
        } else {
            insufficient(needed.unwrap_or("a session"))
        });
    }
    let Some(needed) = needed else {
        return Err(ApiError::ForbiddenCode {
            code: "key_not_allowed",
            message: format!(
                "API keys cannot be used for {method} {}. Sign in to do this.",
                pattern.unwrap_or("this route")
            ),
        });
    };
    if !key.scopes.iter().any(|s| s == needed) {
        return Err(insufficient(needed));
    }
    state.limiter.hit(Kind::ApiKey, &key.id.to_hex()).await?;
    note_use(state, key.id);
    let mut user = user;
    // An administrator's powers come with an administrator's scope only: on a route of a
    // writer's scope an administrator's key reads, edits and deletes as any writer does (their
    // own posts and comments), never anyone's.
    if !format::scope(needed).is_some_and(|s| s.admin) {
        user.role = users::Role::User;
    }
    let now = chrono::Utc::now().timestamp();
    Ok(AuthUser {
        claims: Claims {
            sub: user.id.to_hex(),
            role: user.role.as_str().to_string(),
            ver: user.token_version,
            jti: format!("key:{}", key.id.to_hex()),
            iat: now,
            exp: key
                .expires_at
                .map_or(i64::MAX, |at| at.timestamp_millis() / 1000),
        },
        user,
        key: Some(KeyGrant {
            id: key.id,
            scopes: key.scopes,
        }),
    })
}

/// What [`authenticate`] answers for the site's public content key on a route a guest may read:
/// the extractor of an optional session reads the request as a guest's.
pub const CONTENT_KEY_GUEST: &str = "content_key_guest";

/// 403 `insufficient_scope` naming the scope `needed`.
pub fn insufficient(needed: &str) -> ApiError {
    ApiError::ForbiddenCode {
        code: "insufficient_scope",
        message: format!("This API key does not have the scope {needed} this request needs."),
    }
}

/// Refuses a request made with a key that lacks `scope` (a route that needs a second scope for
/// some of what it does, such as publishing); sessions pass.
pub fn require_scope(me: &AuthUser, scope: &str) -> ApiResult<()> {
    match &me.key {
        Some(grant) if !grant.scopes.iter().any(|s| s == scope) => Err(insufficient(scope)),
        _ => Ok(()),
    }
}

/// Counts a use of the key beside the request.
fn note_use(state: &AppState, id: ObjectId) {
    let db = state.db.clone();
    if let Ok(handle) = tokio::runtime::Handle::try_current() {
        handle.spawn(async move {
            if let Err(e) = api_keys::note_use(&db, id, 1).await {
                tracing::debug!(error = %e, "could not note an API key's use");
            }
        });
    }
}
