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
pub static APPLY: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r#"
local ns, id, seq, mode, explicit = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]
local g = explicit
if g == '' then
  local bld = redis.call('GET', ns .. 'ix:bld')
  if bld then redis.call('SADD', ns .. 'ix:touched:' .. bld, 'p:' .. id) end
  g = redis.call('GET', ns .. 'ix:cur')
  if not g then return '' end
end
local gp = ns .. 'g' .. g .. ':'
local q = redis.call('HGET', gp .. 'q', id)
if q and tonumber(q) >= seq then return '' end
redis.call('HSET', gp .. 'q', id, seq)
local pk = gp .. 'p:' .. id
local old = redis.call('HMGET', pk, 'm', 'ls', 'slug')
if old[1] then
  for l in string.gmatch(old[2] or '', '[^\031]+') do
    redis.call('ZREM', gp .. 'l:' .. l, old[1])
  end
  if old[3] and redis.call('HGET', gp .. 'slug', old[3]) == id then
    redis.call('HDEL', gp .. 'slug', old[3])
  end
  redis.call('DEL', pk)
end
if mode == 'put' then
  local member, slug, n = ARGV[6], ARGV[7], tonumber(ARGV[8])
  local names = {}
  local i = 9
  for _ = 1, n do
    redis.call('ZADD', gp .. 'l:' .. ARGV[i], ARGV[i + 1], member)
    names[#names + 1] = ARGV[i]
    i = i + 2
  end
  redis.call('HSET', gp .. 'slug', slug, id)
  local fields = {'m', member, 'ls', table.concat(names, '\031'), 'slug', slug}
  while i < #ARGV do
    fields[#fields + 1] = ARGV[i]
    fields[#fields + 1] = ARGV[i + 1]
    i = i + 2
  end
  redis.call('HSET', pk, unpack(fields))
end
if explicit ~= '' then return 'applied' end
return redis.call('XADD', ns .. 'ix:changes', 'MAXLEN', '~', '100000', '*', 'p', id)
"#,
    )
});

/// Set and sorted-set changes of the social graph and bookmarks, applied to the current
/// generation and recorded as touched for one being built.
///
/// ARGV: namespace, then groups of (op `sadd`|`srem`|`zadd`|`zrem`, key suffix, member, score,
/// touched entry).
pub static EDGE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r#"
local ns = ARGV[1]
local bld = redis.call('GET', ns .. 'ix:bld')
local cur = redis.call('GET', ns .. 'ix:cur')
local i = 2
while i <= #ARGV do
  local op, suffix, member, score, touched = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  if bld then redis.call('SADD', ns .. 'ix:touched:' .. bld, touched) end
  if cur then
    local key = ns .. 'g' .. cur .. ':' .. suffix
    if op == 'sadd' then redis.call('SADD', key, member)
    elseif op == 'srem' then redis.call('SREM', key, member)
    elseif op == 'zadd' then redis.call('ZADD', key, score, member)
    elseif op == 'zrem' then redis.call('ZREM', key, member) end
  end
  i = i + 5
end
return 1
"#,
    )
});

/// New trending scores: updates each post's score in the trending lists it is in.
///
/// ARGV: namespace, then (id, score) pairs.
pub static RESCORE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r#"
local ns = ARGV[1]
local bld = redis.call('GET', ns .. 'ix:bld')
local cur = redis.call('GET', ns .. 'ix:cur')
local i = 2
while i <= #ARGV do
  local id, score = ARGV[i], ARGV[i + 1]
  if bld then redis.call('SADD', ns .. 'ix:touched:' .. bld, 'p:' .. id) end
  if cur then
    local gp = ns .. 'g' .. cur .. ':'
    local pk = gp .. 'p:' .. id
    local f = redis.call('HMGET', pk, 'm', 'ls')
    if f[1] then
      redis.call('HSET', pk, 'tr', score)
      for l in string.gmatch(f[2] or '', '[^\031]+') do
        if string.sub(l, -6) == ':trend' then
          redis.call('ZADD', gp .. 'l:' .. l, 'XX', score, f[1])
        end
      end
    end
  end
  i = i + 2
end
return 1
"#,
    )
});

/// Up to n entries of a sorted set strictly after a position, in either direction, with their
/// scores (`[member, score, ...]`). The position is (score, member); member `` means after every
/// entry of that score. When the member is still there with that score, its rank is the
/// position (logarithmic); otherwise equal-score entries are compared with it.
///
/// KEYS: the sorted set. ARGV: direction (`d` descending, `a` ascending), score, member, n.
pub static AFTER: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r#"
local key, dir, s, m, n = KEYS[1], ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local out = {}
if m ~= '' then
  local here = redis.call('ZSCORE', key, m)
  if here and tonumber(here) == tonumber(s) then
    if dir == 'd' then
      local r = redis.call('ZREVRANK', key, m)
      return redis.call('ZREVRANGE', key, r + 1, r + n, 'WITHSCORES')
    end
    local r = redis.call('ZRANK', key, m)
    return redis.call('ZRANGE', key, r + 1, r + n, 'WITHSCORES')
  end
  local eq = redis.call('ZRANGEBYSCORE', key, s, s)
  if dir == 'd' then
    for i = #eq, 1, -1 do
      if #out >= 2 * n then break end
      if eq[i] < m then out[#out + 1] = eq[i]; out[#out + 1] = s end
    end
  else
    for i = 1, #eq do
      if #out >= 2 * n then break end
      if eq[i] > m then out[#out + 1] = eq[i]; out[#out + 1] = s end
    end
  end
end
local left = n - #out / 2
if left <= 0 then return out end
local rest
if dir == 'd' then
  rest = redis.call('ZREVRANGEBYSCORE', key, '(' .. s, '-inf', 'WITHSCORES', 'LIMIT', 0, left)
else
  rest = redis.call('ZRANGEBYSCORE', key, '(' .. s, '+inf', 'WITHSCORES', 'LIMIT', 0, left)
end
for i = 1, #rest do out[#out + 1] = rest[i] end
return out
"#,
    )
});

/// Makes a built generation current, unless changes touched it since they were last applied
/// (-1: apply them and try again) or another build replaced it (-2). Returns the generation it
/// replaced (0: none) and announces the switch on the change stream.
///
/// ARGV: namespace, generation.
pub static SWITCH: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r#"
local ns, g = ARGV[1], ARGV[2]
if redis.call('GET', ns .. 'ix:bld') ~= g then return -2 end
if redis.call('SCARD', ns .. 'ix:touched:' .. g) > 0 then return -1 end
local old = redis.call('GET', ns .. 'ix:cur')
redis.call('SET', ns .. 'ix:cur', g)
redis.call('DEL', ns .. 'ix:bld', ns .. 'ix:touched:' .. g)
redis.call('XADD', ns .. 'ix:changes', 'MAXLEN', '~', '100000', '*', 'rebuilt', g)
return tonumber(old or '0')
"#,
    )
});

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
