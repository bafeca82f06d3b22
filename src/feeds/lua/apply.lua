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
local old = redis.call('HMGET', pk, 'm', 'ls', 'slug', 'sk')
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
  local sk
  while i < #ARGV do
    fields[#fields + 1] = ARGV[i]
    fields[#fields + 1] = ARGV[i + 1]
    if ARGV[i] == 'sk' then sk = ARGV[i + 1] end
    i = i + 2
  end
  redis.call('HSET', pk, unpack(fields))
  if explicit == '' and sk and old[4] == sk then
    -- nothing the search index holds changed (a counter did): it is not told
    return ''
  end
end
if explicit ~= '' then return 'applied' end
return redis.call('XADD', ns .. 'ix:changes', 'MAXLEN', '~', '100000', '*', 'p', id)
