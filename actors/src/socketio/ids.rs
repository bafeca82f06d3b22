//! The ids of the layer: Engine.IO session ids (also the public ids of Socket.IO sockets) and
//! the process-wide keys of sockets.

use std::{
    fmt,
    sync::atomic::{AtomicU64, Ordering},
};

use rand::Rng;

/// Length of a session id, in characters.
pub const SID_LEN: usize = 20;
const SID_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// A random, URL-safe session (or socket) id.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sid([u8; SID_LEN]);

impl Sid {
    /// Draws a new random id.
    pub fn random() -> Self {
        let mut rng = rand::thread_rng();
        let mut bytes = [0u8; SID_LEN];
        for b in &mut bytes {
            *b = SID_ALPHABET[rng.gen_range(0..SID_ALPHABET.len())];
        }
        Sid(bytes)
    }

    /// A random id that starts with `prefix` (at most half the id; characters outside the
    /// id alphabet are skipped), so that a load balancer can route a session's requests to
    /// the node that holds it by the id alone.
    pub fn with_prefix(prefix: &str) -> Self {
        let mut sid = Self::random();
        for (slot, b) in sid
            .0
            .iter_mut()
            .zip(prefix.bytes().filter(|b| SID_ALPHABET.contains(b)))
            .take(SID_LEN / 2)
        {
            *slot = b;
        }
        sid
    }

    /// Parses an id received from a client.
    pub fn parse(s: &str) -> Option<Self> {
        let bytes: [u8; SID_LEN] = s.as_bytes().try_into().ok()?;
        bytes
            .iter()
            .all(|b| SID_ALPHABET.contains(b))
            .then_some(Sid(bytes))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        // Only ASCII bytes from SID_ALPHABET are ever stored.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl fmt::Debug for Sid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Sid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

static NEXT_SOCKET_ID: AtomicU64 = AtomicU64::new(1);

/// Identifies one socket (one connection to one namespace) in the hub and presence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SocketId(u64);

impl SocketId {
    pub(crate) fn next() -> Self {
        SocketId(NEXT_SOCKET_ID.fetch_add(1, Ordering::Relaxed))
    }

    /// A fixed id, for tests of code that keys on socket ids, and ids named by other nodes.
    pub fn from_raw(raw: u64) -> Self {
        SocketId(raw)
    }

    /// The id as a number (unique within one process).
    pub fn raw(self) -> u64 {
        self.0
    }
}
