//! Who is behind a socket: the identity a token proves, and the trait the server crate
//! implements to check tokens.

use futures_util::future::BoxFuture;
use serde_json::Value;

/// An authenticated user behind a socket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// User id.
    pub user_id: String,
    /// Whether the user is an administrator (may join `adminRoom`).
    pub is_admin: bool,
    /// The sign-in session the token belongs to, so that ending one session closes its
    /// sockets only.
    pub session: Option<String>,
}

/// Verifies socket tokens; implemented by the server crate.
///
/// The token comes from the CONNECT packet's `auth.token`, else the handshake request's
/// `Authorization: Bearer` header, else its `jwt` cookie; `None` when there is none.
pub trait SocketAuth: Send + Sync + 'static {
    /// `Ok(Some(identity))`: a user; `Ok(None)`: a guest; `Err(message)`: refused with
    /// CONNECT_ERROR `{"message": message}` (forged, expired or revoked token).
    fn authenticate(
        &self,
        token: Option<String>,
    ) -> BoxFuture<'static, Result<Option<Identity>, String>>;

    /// The guest id a guest's socket carries in its CONNECT packet (`auth.guestId`), when the
    /// server issued it (its signature checked); `None` otherwise. Presence counts a guest's
    /// sockets with one id once. Without a verified id each guest socket counts on its own.
    fn guest_id(&self, auth: &Value) -> Option<String> {
        let _ = auth;
        None
    }
}
