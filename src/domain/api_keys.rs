//! Personal API keys: their format and the scopes they can hold.
//!
//! A key is `pr_live_` + 30 random base62 characters + 6 base62 characters of the CRC-32 of the
//! random part, 44 characters in all: the prefix lets secret scanners find a leaked key and the
//! checksum lets them (and the server, before any lookup) tell a real key from a look-alike. Only
//! a SHA-256 of the key is stored; its first [`PREFIX_LEN`] characters are kept to show it.

use sha2::{Digest, Sha256};

pub const KEY_PREFIX: &str = "pr_live_";
/// Characters of a key shown in lists (`pr_live_` and the first eight random ones).
pub const PREFIX_LEN: usize = 16;
const RANDOM_LEN: usize = 30;
const CHECKSUM_LEN: usize = 6;
const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A scope a key can hold, with what it allows.
#[derive(Debug, Clone, Copy)]
pub struct Scope {
    pub name: &'static str,
    pub allows: &'static str,
    /// Only administrators may give it to a key (never implied by other scopes).
    pub admin: bool,
}

/// The scope of the site's public content key: read-only, public posts only, acting as a guest,
/// safe to ship in a headless front end's browser code. Alone in its key.
pub const CONTENT_SCOPE: &str = "content:read";

pub const SCOPES: [Scope; 11] = [
    Scope {
        name: "read:posts",
        allows: "Read posts as you see them: your posts and drafts, feeds, search, bookmarks, your profile.",
        admin: false,
    },
    Scope {
        name: "write:drafts",
        allows: "Create drafts and edit your posts (publishing needs publish:posts too).",
        admin: false,
    },
    Scope {
        name: "publish:posts",
        allows: "Publish, unpublish and delete your posts.",
        admin: false,
    },
    Scope {
        name: "read:comments",
        allows: "Read the comments on posts.",
        admin: false,
    },
    Scope {
        name: "write:comments",
        allows: "Write, edit and delete your comments.",
        admin: false,
    },
    Scope {
        name: "read:stats",
        allows: "Read your posts' statistics, delivery and your readers' engagement.",
        admin: false,
    },
    Scope {
        name: "read:subscribers",
        allows: "Read your followers, who you follow, your plans and your subscribers.",
        admin: false,
    },
    Scope {
        name: "read:earnings",
        allows: "Read your earnings and tips received (never bank details or payouts).",
        admin: false,
    },
    Scope {
        name: CONTENT_SCOPE,
        allows: "Administrators: a public content key for headless front ends (read-only, public posts only, as a guest; alone in its key).",
        admin: true,
    },
    Scope {
        name: "admin:read",
        allows: "Administrators: read users, posts, reports, messages, analytics and the audit log.",
        admin: true,
    },
    Scope {
        name: "admin:moderate",
        allows: "Administrators: block and unblock users and posts, and review reports.",
        admin: true,
    },
];

/// The scope named `name`.
pub fn scope(name: &str) -> Option<&'static Scope> {
    SCOPES.iter().find(|s| s.name == name)
}

fn base62(mut n: u64, len: usize) -> String {
    let mut out = vec![b'0'; len];
    for slot in out.iter_mut().rev() {
        *slot = BASE62[(n % 62) as usize];
        n /= 62;
    }
    String::from_utf8(out).unwrap_or_default()
}

fn checksum(random: &str) -> String {
    base62(u64::from(crc32fast::hash(random.as_bytes())), CHECKSUM_LEN)
}

/// A new key.
pub fn generate() -> String {
    use rand::Rng;
    let mut rng = rand::thread_rng();
    let random: String = (0..RANDOM_LEN)
        .map(|_| char::from(BASE62[rng.gen_range(0..BASE62.len())]))
        .collect();
    let sum = checksum(&random);
    format!("{KEY_PREFIX}{random}{sum}")
}

/// Whether `token` is shaped like a key (the prefix), to route it to key authentication.
pub fn looks_like_key(token: &str) -> bool {
    token.starts_with(KEY_PREFIX)
}

/// Whether `token` is a well-formed key whose checksum matches.
pub fn is_well_formed(token: &str) -> bool {
    let Some(rest) = token.strip_prefix(KEY_PREFIX) else {
        return false;
    };
    if rest.len() != RANDOM_LEN + CHECKSUM_LEN || !rest.bytes().all(|b| BASE62.contains(&b)) {
        return false;
    }
    let (random, sum) = rest.split_at(RANDOM_LEN);
    checksum(random) == sum
}

/// What is stored of a key: its SHA-256, hex.
pub fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The part of a key shown in lists.
pub fn prefix(token: &str) -> String {
    token.chars().take(PREFIX_LEN).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_carry_their_prefix_and_checksum() {
        let key = generate();
        assert_eq!(key.len(), 44);
        assert!(key.starts_with("pr_live_"));
        assert!(is_well_formed(&key));
        assert_eq!(prefix(&key).len(), PREFIX_LEN);
        // One character changed breaks the checksum.
        let mut broken: Vec<char> = key.chars().collect();
        broken[10] = if broken[10] == 'a' { 'b' } else { 'a' };
        let broken: String = broken.into_iter().collect();
        assert!(!is_well_formed(&broken));
        assert!(!is_well_formed("pr_live_short"));
        assert!(!is_well_formed("eyJhbGciOi.x.y"));
        assert_ne!(generate(), generate());
    }

    #[test]
    fn admin_scopes_are_marked() {
        assert!(scope("admin:read").is_some_and(|s| s.admin));
        assert!(scope("read:posts").is_some_and(|s| !s.admin));
        assert!(scope("write:everything").is_none());
    }
}
