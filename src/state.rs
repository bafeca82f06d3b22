//! What every handler can reach: settings, the database, and the singletons started once before
//! the HTTP server.

use std::net::IpAddr;
use std::sync::Arc;

use crate::auth::google::GoogleVerifier;
use crate::auth::TokenKeys;
use crate::config::Settings;
use crate::mail::Mailer;
use crate::persistence::Db;
use crate::ratelimit::RateLimiter;
use crate::redis_pool::Redis;
use pressroom_actors::Realtime;

pub struct AppState {
    pub settings: Settings,
    pub db: Db,
    /// The one Redis pool of the process (`None` inside when Redis is not configured).
    pub redis: Redis,
    /// The read index in Redis: feeds, counts and post cards (also `db`'s write observer).
    pub feeds: crate::feeds::Feeds,
    /// Guests' answers kept in memory (`guest_cache`), dropped by writes on every node.
    pub guest_cache: crate::guest_cache::GuestCache,
    /// Full-text search over posts and users (tantivy, in memory; follows the read index).
    pub search: crate::search::Search,
    pub tokens: TokenKeys,
    pub mailer: Arc<Mailer>,
    pub google: GoogleVerifier,
    pub limiter: RateLimiter,
    pub trusted_proxies: Vec<IpAddr>,
    /// The live actors (Socket.IO, hub, presence).
    pub realtime: Realtime,
    /// Banner, location and guest-visit actors; IP and map data.
    pub live: crate::live::actors::LiveActors,
    /// The payment provider (`payments.provider`).
    pub payments: crate::payments::Provider,
    /// Seals bank account numbers at rest.
    pub bank_cipher: crate::cipher::BankCipher,
    /// Sends Web Push messages (with the server's VAPID key).
    pub push: crate::webpush::WebPush,
    /// Wakes this process's background workers when there is work for them.
    pub wakes: Wakes,
    /// Each guest counted per address while Redis is away (`crate::counting`).
    pub local_guests: crate::counting::LocalGuests,
}

/// Signals to this process's background workers, which also look for work on their own every
/// so often: a signal only spares them the wait.
#[derive(Default)]
pub struct Wakes {
    /// A post was announced: the new-post workers look at once.
    pub announcements: tokio::sync::Notify,
    /// An administrator's job was queued: the job worker looks at once.
    pub admin_jobs: tokio::sync::Notify,
    /// Pushes were queued: the push worker looks at once.
    pub push: tokio::sync::Notify,
    /// An import was started or confirmed: the import worker looks at once.
    pub imports: tokio::sync::Notify,
}

impl AppState {
    /// What counting readers and engagement limits read (`crate::counting`).
    pub(crate) fn counting(&self) -> crate::counting::Counting<'_> {
        crate::counting::Counting {
            settings: &self.settings,
            redis: &self.redis,
            trusted_proxies: &self.trusted_proxies,
            limiter: &self.limiter,
            local_guests: &self.local_guests,
        }
    }
}
