//! Passkeys: WebAuthn registration and authentication ceremonies for adding a passkey, signing
//! in with one (no email typed: discoverable credentials) and confirming a step-up with one.
//!
//! The relying party is `webauthn_rp`. Its RP ID is the host of `server.public_url` (a domain
//! name such as `localhost`; browsers refuse an IP address) and the only origin it accepts is
//! that address's origin. User verification is required in every ceremony, so a passkey counts
//! as two factors; the signature counter must move forward; attestation is `none`. Ceremonies
//! are kept in the store (any node can finish what another started), taken once, and expire
//! after five minutes. See `docs/account.md`, "Passkeys".

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use rand::RngCore;
use serde_json::Value;
use sha2::{Digest, Sha256};
use webauthn_rp::bin::{Decode, Encode};
use webauthn_rp::request::auth::AuthenticationVerificationOptions;
use webauthn_rp::request::register::{
    CredProtect, Nickname, PublicKeyCredentialUserEntity, RegistrationVerificationOptions,
    UserHandle64, Username, USER_HANDLE_MAX_LEN,
};
use webauthn_rp::request::{AsciiDomain, ExtensionInfo, PublicKeyCredentialDescriptor, RpId};
use webauthn_rp::response::auth::error::AuthCeremonyErr;
use webauthn_rp::response::register::error::RegCeremonyErr;
use webauthn_rp::response::register::{CompressedPubKey, DynamicState, StaticState};
use webauthn_rp::response::{
    AuthTransports, AuthenticatorAttachment, AuthenticatorTransport, Backup, CredentialId,
};
use webauthn_rp::{
    AuthenticatedCredential, DiscoverableAuthentication64, DiscoverableAuthenticationServerState,
    DiscoverableCredentialRequestOptions, PublicKeyCredentialCreationOptions, Registration,
    RegistrationServerState,
};

use crate::error::{ApiError, ApiResult};
use crate::persistence::passkeys::{self, Ceremony, Passkey};

pub use crate::persistence::passkeys::Purpose;
use crate::persistence::users::{self, User};
use crate::state::AppState;

/// Most passkeys one account may hold.
pub const MAX_PASSKEYS: u64 = 20;
/// Longest passkey name.
pub const NAME_MAX: usize = 64;

pub const MSG_UNAVAILABLE: &str =
    "Passkeys are not available on this site: it must be served under a domain name, not an IP address.";
pub const MSG_CEREMONY_UNKNOWN: &str =
    "This passkey request has expired or was already used. Please try again.";
pub const MSG_MALFORMED: &str =
    "The passkey response could not be read. Please try again with your browser's passkey dialog.";
pub const MSG_NAME_REQUIRED: &str = "Give the passkey a name, such as \"Laptop\" or \"Phone\".";
pub const MSG_NAME_TOO_LONG: &str = "A passkey name can be at most 64 characters.";
pub const MSG_TOO_MANY: &str =
    "You can have at most 20 passkeys. Remove one you no longer use first.";
pub const MSG_ALREADY_REGISTERED: &str = "This passkey is already registered.";
pub const MSG_UNKNOWN_PASSKEY: &str =
    "This passkey is not registered on Pressroom. Sign in with your password and add it in Settings.";
pub const MSG_OTHER_ACCOUNT: &str = "This passkey belongs to another account.";
pub const MSG_NOT_VERIFIED: &str =
    "Your device did not verify it's you (PIN, fingerprint or face). Passkeys here need that.";
pub const MSG_WRONG_SITE: &str = "This passkey response was made for another site.";
pub const MSG_COUNTER: &str =
    "This passkey was refused: its signature counter went backwards, which can mean it was copied. Sign in another way and review your passkeys.";
pub const MSG_REFUSED: &str = "The passkey could not be verified. Please try again.";
pub const MSG_NOT_FOUND: &str = "Passkey not found";

/// The relying party as this site presents itself: RP ID and allowed origin.
pub struct RelyingParty {
    rp_id: RpId,
    origin: String,
}

impl RelyingParty {
    /// From `server.public_url`; `None` when its host is an IP address (or unreadable).
    pub fn from_public_url(public_url: &str) -> Option<RelyingParty> {
        let (scheme, rest) = public_url.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let authority = rest.split(['/', '?', '#']).next()?.to_ascii_lowercase();
        let (host, port) = match authority.rsplit_once(':') {
            Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => (host, Some(port)),
            _ => (authority.as_str(), None),
        };
        // A browser names the origin without its scheme's own port.
        let origin = match (scheme.as_str(), port) {
            ("https", Some("443")) | ("http", Some("80")) | (_, None) => {
                format!("{scheme}://{host}")
            }
            (_, Some(port)) => format!("{scheme}://{host}:{port}"),
        };
        if host.is_empty() || host.parse::<std::net::IpAddr>().is_ok() || host.starts_with('[') {
            return None;
        }
        let domain = AsciiDomain::try_from(host.to_string()).ok()?;
        Some(RelyingParty {
            rp_id: RpId::Domain(domain),
            origin,
        })
    }
}

fn relying_party(state: &AppState) -> ApiResult<RelyingParty> {
    RelyingParty::from_public_url(&state.settings.server.public_url)
        .ok_or_else(|| ApiError::bad_request(MSG_UNAVAILABLE))
}

fn ceremony_key(challenge_id: &str) -> String {
    hex::encode(Sha256::digest(challenge_id.as_bytes()))
}

/// Stores the server half of a ceremony; answers the client half with its `challengeId`.
async fn keep_ceremony(
    state: &AppState,
    purpose: Purpose,
    user_id: Option<ObjectId>,
    server_state: Vec<u8>,
    client: Value,
) -> ApiResult<Value> {
    let mut raw = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut raw);
    let challenge_id = B64.encode(raw);
    let expires = chrono::Utc::now() + chrono::Duration::minutes(5);
    passkeys::insert_ceremony(
        &state.db,
        &Ceremony {
            id: ceremony_key(&challenge_id),
            purpose,
            user_id,
            state: B64.encode(server_state),
            expires_at: DateTime::from_chrono(expires),
        },
    )
    .await?;
    let mut client = client;
    if let Value::Object(map) = &mut client {
        map.insert("challengeId".into(), Value::String(challenge_id));
    }
    Ok(client)
}

async fn take_ceremony(
    state: &AppState,
    challenge_id: &str,
    purpose: Purpose,
) -> ApiResult<(Ceremony, Vec<u8>)> {
    let ceremony = passkeys::take_ceremony(&state.db, &ceremony_key(challenge_id), purpose)
        .await?
        .ok_or_else(|| ApiError::invalid("passkey_challenge_unknown", MSG_CEREMONY_UNKNOWN))?;
    let bytes = B64
        .decode(&ceremony.state)
        .map_err(|e| ApiError::internal(anyhow::anyhow!("a stored passkey ceremony: {e}")))?;
    Ok((ceremony, bytes))
}

fn internal(what: &str, e: impl std::fmt::Debug) -> ApiError {
    ApiError::internal(anyhow::anyhow!("{what}: {e:?}"))
}

/// The account's user handle, made on its first passkey.
async fn user_handle(state: &AppState, user_id: ObjectId) -> ApiResult<UserHandle64> {
    let stored = match passkeys::handle_of(&state.db, user_id).await? {
        Some(h) => h,
        None => {
            let fresh = B64.encode(UserHandle64::new().as_ref());
            passkeys::keep_handle(&state.db, user_id, &fresh).await?
        }
    };
    decode_handle(&stored).ok_or_else(|| internal("a stored user handle", &stored))
}

fn decode_handle(stored: &str) -> Option<UserHandle64> {
    let bytes: [u8; USER_HANDLE_MAX_LEN] = B64.decode(stored).ok()?.try_into().ok()?;
    UserHandle64::decode(bytes).ok()
}

fn descriptor(p: &Passkey) -> Option<PublicKeyCredentialDescriptor<Vec<u8>>> {
    let id = CredentialId::decode(B64.decode(&p.credential_id).ok()?).ok()?;
    let bits = p
        .transports
        .iter()
        .fold(0u8, |acc, t| acc | transport_bit(t));
    Some(PublicKeyCredentialDescriptor {
        id,
        transports: AuthTransports::decode(bits).ok()?,
    })
}

const TRANSPORTS: [(AuthenticatorTransport, &str); 6] = [
    (AuthenticatorTransport::Ble, "ble"),
    (AuthenticatorTransport::Hybrid, "hybrid"),
    (AuthenticatorTransport::Internal, "internal"),
    (AuthenticatorTransport::Nfc, "nfc"),
    (AuthenticatorTransport::SmartCard, "smart-card"),
    (AuthenticatorTransport::Usb, "usb"),
];

fn transport_names(transports: AuthTransports) -> Vec<String> {
    TRANSPORTS
        .iter()
        .filter(|(t, _)| transports.contains(*t))
        .map(|(_, name)| (*name).to_string())
        .collect()
}

/// The bit `webauthn_rp` encodes a transport with (its order in [`TRANSPORTS`]).
fn transport_bit(name: &str) -> u8 {
    TRANSPORTS
        .iter()
        .position(|(_, n)| *n == name)
        .map_or(0, |i| 1u8 << i)
}

/// A passkey's name, trimmed and checked.
pub fn check_name(name: &str) -> ApiResult<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::bad_request(MSG_NAME_REQUIRED));
    }
    if name.chars().count() > NAME_MAX {
        return Err(ApiError::bad_request(MSG_NAME_TOO_LONG));
    }
    Ok(name.to_string())
}

/// Starts adding a passkey to `user`'s account: the creation options (with `challengeId`).
pub async fn start_registration(state: &AppState, user: &User) -> ApiResult<Value> {
    let rp = relying_party(state)?;
    let existing = passkeys::for_user(&state.db, user.id).await?;
    if existing.len() as u64 >= MAX_PASSKEYS {
        return Err(ApiError::bad_request(MSG_TOO_MANY));
    }
    let handle = user_handle(state, user.id).await?;
    let exclude = existing.iter().filter_map(descriptor).collect();
    let name = Username::try_from(user.email.as_str())
        .or_else(|_| Username::try_from("member"))
        .map_err(|e| internal("a user name for a passkey", e))?;
    let entity = PublicKeyCredentialUserEntity {
        name,
        id: &handle,
        display_name: Nickname::try_from(user.name.as_str()).ok(),
    };
    let mut creation = PublicKeyCredentialCreationOptions::passkey(&rp.rp_id, entity, exclude);
    // Ask authenticators to protect the credential with user verification, without refusing
    // those that cannot say so (browsers refuse them outright when enforcement is asked); every
    // ceremony here requires user verification anyway.
    creation.extensions.cred_protect =
        CredProtect::UserVerificationRequired(ExtensionInfo::AllowDontEnforceValue);
    let (server, client) = creation
        .start_ceremony()
        .map_err(|e| internal("starting a passkey registration", e))?;
    let client = serde_json::to_value(&client).map_err(|e| internal("creation options", e))?;
    let server = server
        .encode()
        .map_err(|e| internal("encoding a passkey registration", e))?;
    keep_ceremony(state, Purpose::Register, Some(user.id), server, client).await
}

/// Finishes adding a passkey: checks the authenticator's answer against the ceremony `user`
/// started and stores the credential.
pub async fn finish_registration(
    state: &AppState,
    user: &User,
    challenge_id: &str,
    name: &str,
    credential: &Value,
) -> ApiResult<Passkey> {
    let name = check_name(name)?;
    let rp = relying_party(state)?;
    let raw = serde_json::to_vec(credential).map_err(|e| internal("a credential", e))?;
    let registration = Registration::from_json_relaxed(&raw)
        .map_err(|_| ApiError::invalid("passkey_malformed", MSG_MALFORMED))?;
    let (ceremony, bytes) = take_ceremony(state, challenge_id, Purpose::Register).await?;
    if ceremony.user_id != Some(user.id) {
        return Err(ApiError::invalid(
            "passkey_challenge_unknown",
            MSG_CEREMONY_UNKNOWN,
        ));
    }
    let server = RegistrationServerState::<USER_HANDLE_MAX_LEN>::decode(&bytes)
        .map_err(|e| internal("a stored passkey registration", e))?;
    let origins = [rp.origin.as_str()];
    let options = RegistrationVerificationOptions::<&str, &str> {
        allowed_origins: &origins,
        ..Default::default()
    };
    let registered = server
        .verify(&rp.rp_id, &registration, &options)
        .map_err(registration_refused)?;
    let (id, transports, handle, static_state, dynamic, _) = registered.into_parts();
    let static_state = static_state
        .encode()
        .map_err(|e| internal("encoding a passkey", e))?;
    let dynamic_bytes = dynamic
        .encode()
        .map_err(|e| internal("encoding a passkey", e))?;
    let passkey = Passkey {
        id: ObjectId::new(),
        user_id: user.id,
        credential_id: B64.encode(id.as_ref()),
        user_handle: B64.encode(handle.as_ref()),
        name,
        static_state: B64.encode(static_state),
        dynamic_state: B64.encode(dynamic_bytes),
        sign_count: i64::from(dynamic.sign_count),
        transports: transport_names(transports),
        attachment: attachment_name(dynamic.authenticator_attachment),
        backed_up: matches!(dynamic.backup, Backup::Exists),
        created_at: DateTime::now(),
        last_used_at: None,
    };
    if passkeys::count_for_user(&state.db, user.id).await? >= MAX_PASSKEYS {
        return Err(ApiError::bad_request(MSG_TOO_MANY));
    }
    if !passkeys::insert(&state.db, &passkey).await? {
        return Err(ApiError::conflict(MSG_ALREADY_REGISTERED));
    }
    Ok(passkey)
}

fn attachment_name(a: AuthenticatorAttachment) -> Option<String> {
    match a {
        AuthenticatorAttachment::Platform => Some("platform".into()),
        AuthenticatorAttachment::CrossPlatform => Some("cross-platform".into()),
        AuthenticatorAttachment::None => None,
    }
}

fn registration_refused(e: RegCeremonyErr) -> ApiError {
    match e {
        RegCeremonyErr::Timeout => {
            ApiError::invalid("passkey_challenge_unknown", MSG_CEREMONY_UNKNOWN)
        }
        RegCeremonyErr::UserNotVerified => {
            ApiError::unauthorized_code("passkey_not_verified", MSG_NOT_VERIFIED)
        }
        RegCeremonyErr::OriginMismatch
        | RegCeremonyErr::CrossOrigin
        | RegCeremonyErr::TopOriginMismatch
        | RegCeremonyErr::RpIdHashMismatch => {
            ApiError::unauthorized_code("passkey_wrong_site", MSG_WRONG_SITE)
        }
        RegCeremonyErr::ChallengeMismatch => {
            ApiError::invalid("passkey_challenge_unknown", MSG_CEREMONY_UNKNOWN)
        }
        RegCeremonyErr::CollectedClientData(_)
        | RegCeremonyErr::CollectedClientDataRelaxed(_)
        | RegCeremonyErr::AttestationObject(_) => {
            ApiError::invalid("passkey_malformed", MSG_MALFORMED)
        }
        other => {
            tracing::info!(reason = ?other, "a passkey registration was refused");
            ApiError::unauthorized_code("passkey_refused", MSG_REFUSED)
        }
    }
}

/// Starts a sign-in or a step-up: request options for any passkey of this site (with
/// `challengeId`). A step-up is bound to `user`.
pub async fn start_assertion(
    state: &AppState,
    purpose: Purpose,
    user: Option<ObjectId>,
) -> ApiResult<Value> {
    let rp = relying_party(state)?;
    let (server, client) = DiscoverableCredentialRequestOptions::passkey(&rp.rp_id)
        .start_ceremony()
        .map_err(|e| internal("starting a passkey sign-in", e))?;
    let client = serde_json::to_value(&client).map_err(|e| internal("request options", e))?;
    let server = server
        .encode()
        .map_err(|e| internal("encoding a passkey sign-in", e))?;
    keep_ceremony(state, purpose, user, server, client).await
}

/// Why an assertion was refused, for the security log, with the answer to give.
pub struct Refusal {
    pub user: Option<User>,
    pub passkey: Option<Passkey>,
    pub reason: &'static str,
    pub error: ApiError,
}

impl Refusal {
    fn plain(error: ApiError, reason: &'static str) -> Refusal {
        Refusal {
            user: None,
            passkey: None,
            reason,
            error,
        }
    }
}

/// Checks an assertion for the ceremony `challenge_id` of `purpose` (a step-up: `me` must own
/// the passkey); records the use. Answers the account and the passkey used.
pub async fn finish_assertion(
    state: &AppState,
    purpose: Purpose,
    me: Option<ObjectId>,
    challenge_id: &str,
    credential: &Value,
) -> Result<(User, Passkey), Box<Refusal>> {
    let fail = |error: ApiError, reason: &'static str| Box::new(Refusal::plain(error, reason));
    let rp = relying_party(state).map_err(|e| fail(e, "unavailable"))?;
    let raw = serde_json::to_vec(credential)
        .map_err(|e| fail(internal("a credential", e), "malformed"))?;
    let assertion = DiscoverableAuthentication64::from_json_relaxed(&raw).map_err(|_| {
        fail(
            ApiError::invalid("passkey_malformed", MSG_MALFORMED),
            "malformed",
        )
    })?;
    // The passkey and its owner are looked up before the ceremony is taken, so a refusal for the
    // ceremony (a replay, an expired or unknown challenge) is recorded against them too.
    let credential_id = B64.encode(assertion.raw_id().as_ref());
    let stored = passkeys::find_by_credential(&state.db, &credential_id)
        .await
        .map_err(|e| fail(e.into(), "internal"))?;
    let owner = match &stored {
        Some(p) => users::find_by_id(&state.db, p.user_id)
            .await
            .map_err(|e| fail(e.into(), "internal"))?,
        None => None,
    };
    let known = |error: ApiError, reason: &'static str| {
        Box::new(Refusal {
            user: owner.clone(),
            passkey: stored.clone().filter(|_| owner.is_some()),
            reason,
            error,
        })
    };
    let (ceremony, bytes) = take_ceremony(state, challenge_id, purpose)
        .await
        .map_err(|e| known(e, "challenge"))?;
    if ceremony.user_id != me {
        return Err(known(
            ApiError::invalid("passkey_challenge_unknown", MSG_CEREMONY_UNKNOWN),
            "challenge",
        ));
    }
    let server = DiscoverableAuthenticationServerState::decode(&bytes)
        .map_err(|e| fail(internal("a stored passkey sign-in", e), "internal"))?;
    let (Some(stored), Some(owner)) = (stored, owner) else {
        return Err(fail(
            ApiError::unauthorized_code("passkey_unknown", MSG_UNKNOWN_PASSKEY),
            "unknown",
        ));
    };
    let refuse = |error: ApiError, reason: &'static str| {
        Box::new(Refusal {
            user: Some(owner.clone()),
            passkey: Some(stored.clone()),
            reason,
            error,
        })
    };
    if me.is_some_and(|me| me != stored.user_id) {
        return Err(refuse(
            ApiError::unauthorized_code("passkey_other_account", MSG_OTHER_ACCOUNT),
            "other_account",
        ));
    }
    let handle = decode_handle(&stored.user_handle)
        .ok_or_else(|| refuse(internal("a stored passkey", "handle"), "internal"))?;
    let static_bytes = B64
        .decode(&stored.static_state)
        .map_err(|e| refuse(internal("a stored passkey", e), "internal"))?;
    let dynamic_bytes: [u8; 7] = B64
        .decode(&stored.dynamic_state)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| refuse(internal("a stored passkey", "state"), "internal"))?;
    let static_state =
        StaticState::<CompressedPubKey<[u8; 32], [u8; 32], [u8; 48], Vec<u8>>>::decode(
            static_bytes.as_slice(),
        )
        .map_err(|e| refuse(internal("a stored passkey", e), "internal"))?;
    let dynamic = DynamicState::decode(dynamic_bytes)
        .map_err(|e| refuse(internal("a stored passkey", e), "internal"))?;
    let id_bytes = B64
        .decode(&stored.credential_id)
        .map_err(|e| refuse(internal("a stored passkey", e), "internal"))?;
    let id = CredentialId::<&[u8]>::decode(id_bytes.as_slice())
        .map_err(|e| refuse(internal("a stored passkey", e), "internal"))?;
    let mut cred = AuthenticatedCredential::new(id, &handle, static_state, dynamic)
        .map_err(|e| refuse(internal("a stored passkey", e), "internal"))?;
    let origins = [rp.origin.as_str()];
    let options = AuthenticationVerificationOptions::<&str, &str> {
        allowed_origins: &origins,
        update_uv: true,
        ..Default::default()
    };
    server
        .verify(&rp.rp_id, &assertion, &mut cred, &options)
        .map_err(|e| {
            let (error, reason) = assertion_refused(e);
            refuse(error, reason)
        })?;
    let dynamic = cred.dynamic_state();
    let encoded = dynamic
        .encode()
        .map_err(|e| refuse(internal("encoding a passkey", e), "internal"))?;
    let moved = passkeys::record_use(
        &state.db,
        &stored,
        &B64.encode(encoded),
        i64::from(dynamic.sign_count),
        matches!(dynamic.backup, Backup::Exists),
    )
    .await
    .map_err(|e| refuse(e.into(), "internal"))?;
    if !moved {
        // Another sign-in with this passkey was recorded in between: its counter moved.
        return Err(refuse(
            ApiError::unauthorized_code("passkey_counter", MSG_COUNTER),
            "counter",
        ));
    }
    Ok((owner, stored))
}

fn assertion_refused(e: AuthCeremonyErr) -> (ApiError, &'static str) {
    match e {
        AuthCeremonyErr::Timeout | AuthCeremonyErr::ChallengeMismatch => (
            ApiError::invalid("passkey_challenge_unknown", MSG_CEREMONY_UNKNOWN),
            "challenge",
        ),
        AuthCeremonyErr::UserNotVerified => (
            ApiError::unauthorized_code("passkey_not_verified", MSG_NOT_VERIFIED),
            "not_verified",
        ),
        AuthCeremonyErr::OriginMismatch
        | AuthCeremonyErr::CrossOrigin
        | AuthCeremonyErr::TopOriginMismatch
        | AuthCeremonyErr::RpIdHashMismatch => (
            ApiError::unauthorized_code("passkey_wrong_site", MSG_WRONG_SITE),
            "wrong_site",
        ),
        AuthCeremonyErr::SignatureCounter => (
            ApiError::unauthorized_code("passkey_counter", MSG_COUNTER),
            "counter",
        ),
        AuthCeremonyErr::UserHandleMismatch | AuthCeremonyErr::CredentialIdMismatch => (
            ApiError::unauthorized_code("passkey_other_account", MSG_OTHER_ACCOUNT),
            "other_account",
        ),
        AuthCeremonyErr::CollectedClientData(_)
        | AuthCeremonyErr::CollectedClientDataRelaxed(_)
        | AuthCeremonyErr::AuthenticatorData(_) => (
            ApiError::invalid("passkey_malformed", MSG_MALFORMED),
            "malformed",
        ),
        other => {
            tracing::info!(reason = ?other, "a passkey assertion was refused");
            (
                ApiError::unauthorized_code("passkey_refused", MSG_REFUSED),
                "signature",
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RelyingParty;

    fn read(url: &str) -> Option<(String, String)> {
        RelyingParty::from_public_url(url).map(|rp| (rp.rp_id.as_ref().to_string(), rp.origin))
    }

    #[test]
    fn the_site_address_gives_the_rp_id_and_the_origin_a_browser_sends() {
        let both = |id: &str, origin: &str| Some((id.to_string(), origin.to_string()));
        assert_eq!(
            read("https://Blog.Example.com/"),
            both("blog.example.com", "https://blog.example.com")
        );
        assert_eq!(
            read("https://example.com:443/path?x=1"),
            both("example.com", "https://example.com")
        );
        assert_eq!(
            read("http://localhost:80"),
            both("localhost", "http://localhost")
        );
        assert_eq!(
            read("http://localhost:8080/"),
            both("localhost", "http://localhost:8080")
        );
        assert_eq!(
            read("https://example.com:8443"),
            both("example.com", "https://example.com:8443")
        );
    }

    #[test]
    fn an_address_without_a_domain_has_no_relying_party() {
        for url in [
            "http://127.0.0.1:8080",
            "http://[::1]:8080",
            "example.com",
            "https://",
        ] {
            assert!(read(url).is_none(), "{url}");
        }
    }
}
