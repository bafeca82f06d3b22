//! Glue between the HTTP side and the live actors: socket authentication with the same rules as
//! HTTP requests, and starting the realtime server with the live features' client events.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use pressroom_actors::{Identity, Realtime, SocketAuth};

use crate::auth::{authenticate_with, TokenKeys};
use crate::error::ApiError;
use crate::persistence::Db;

/// Checks socket tokens exactly as HTTP requests are checked: signature, expiry, revocation,
/// session epoch, block state.
pub struct JwtSocketAuth {
    db: Db,
    tokens: TokenKeys,
}

impl SocketAuth for JwtSocketAuth {
    fn authenticate(
        &self,
        token: Option<String>,
    ) -> BoxFuture<'static, Result<Option<Identity>, String>> {
        let db = self.db.clone();
        let tokens = self.tokens.clone();
        Box::pin(async move {
            let Some(token) = token.filter(|t| !t.is_empty() && t != "null" && t != "undefined")
            else {
                return Ok(None);
            };
            match authenticate_with(&db, &tokens, &token).await {
                Ok(user) => Ok(Some(Identity {
                    user_id: user.id_hex(),
                    is_admin: user.is_admin(),
                    session: Some(user.claims.jti.clone()),
                })),
                Err(ApiError::Unavailable(_)) => Err(crate::error::UNAVAILABLE_MESSAGE.to_string()),
                Err(e) => Err(e.to_string()),
            }
        })
    }

    /// A guest's socket names its server-issued guest id as `auth.guestId` (what
    /// `POST /api/public/guest/visit` answered); only a correctly signed id is taken.
    fn guest_id(&self, auth: &serde_json::Value) -> Option<String> {
        let raw = auth.get("guestId")?.as_str()?;
        crate::counting::verify_guest_id(self.tokens.secret_bytes(), raw)
    }
}

/// Starts the realtime server with the live features' client events (`userLocationUpdate`, handed
/// to the location actor).
pub fn start_with_live(
    config: pressroom_actors::RealtimeConfig,
    db: Db,
    tokens: TokenKeys,
    locations: actix::Addr<crate::live::locations::LocationActor>,
    cluster: Option<pressroom_actors::Cluster>,
) -> Realtime {
    let mut builder = Realtime::builder(config);
    if let Some(cluster) = cluster {
        builder = builder.cluster(cluster);
    }
    builder
        .auth(Arc::new(JwtSocketAuth { db, tokens }))
        .on_event(LOCATION_EVENT, move |socket, event| {
            let Some(identity) = socket.identity() else {
                return;
            };
            match crate::live::locations::parse_client_update(&identity.user_id, &event.args) {
                Some(location) => locations.do_send(crate::live::locations::Update {
                    location,
                    store: true,
                }),
                None => tracing::debug!(user = %identity.user_id, "location update ignored"),
            }
        })
        .start()
}

/// Client event carrying the user's device location.
pub const LOCATION_EVENT: &str = "userLocationUpdate";
