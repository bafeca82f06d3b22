//! The Lua scripts of the read index. Each runs atomically in Redis, so a change and the switch
//! to a rebuilt generation never interleave. Keys are computed inside the scripts from the
//! namespace (single Redis instance; not for Redis Cluster).

use std::sync::LazyLock;

use deadpool_redis::redis::Script;

/// Applies one post's state (`put`) or removal (`del`) to a generation, unless a newer refresh
/// was applied there already (per-post sequence numbers, see `write`).
///
/// ARGV: namespace, id, seq, mode (`put`|`del`), generation (`` = the current one: the change is
/// then also recorded as touched for a generation being built, and announced on the change
/// stream), member, slug, list count, then (list, score) pairs, then (field, value) pairs.
/// Returns the change stream entry id, `` when nothing was applied.
pub static APPLY: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/apply.lua")));

/// Set and sorted-set changes of the social graph and bookmarks, applied to the current
/// generation and recorded as touched for one being built.
///
/// ARGV: namespace, then groups of (op `sadd`|`srem`|`zadd`|`zrem`, key suffix, member, score,
/// touched entry).
pub static EDGE: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/edge.lua")));

/// New trending scores: updates each post's score in the trending lists it is in.
///
/// ARGV: namespace, then (id, score) pairs.
pub static RESCORE: LazyLock<Script> =
    LazyLock::new(|| Script::new(include_str!("lua/rescore.lua")));

/// Up to n entries of a sorted set strictly after a position, in either direction, with their
/// scores (`[member, score, ...]`). The position is (score, member); member `` means after every
/// entry of that score. When the member is still there with that score, its rank is the
/// position (logarithmic); otherwise equal-score entries are compared with it.
///
/// KEYS: the sorted set. ARGV: direction (`d` descending, `a` ascending), score, member, n.
pub static AFTER: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/after.lua")));

/// Makes a built generation current, unless changes touched it since they were last applied
/// (-1: apply them and try again) or another build replaced it (-2). Returns the generation it
/// replaced (0: none) and announces the switch on the change stream.
///
/// ARGV: namespace, generation.
pub static SWITCH: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/switch.lua")));

/// Loads every script into Redis (pipelines cannot load a missing script themselves).
pub async fn load_all<C>(conn: &mut C) -> Result<(), deadpool_redis::redis::RedisError>
where
    C: deadpool_redis::redis::aio::ConnectionLike,
{
    for script in [&*APPLY, &*EDGE, &*RESCORE, &*AFTER, &*SWITCH] {
        script.load_async(conn).await?;
    }
    Ok(())
}
