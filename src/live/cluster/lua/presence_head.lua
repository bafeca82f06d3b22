-- Common head of the presence scripts: key prefix (KEYS[1]) and the next version.
local p = KEYS[1]
local function next_version()
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local last = tonumber(redis.call('GET', p .. 'version') or '0')
  local v = math.max(now, last + 1)
  redis.call('SET', p .. 'version', string.format('%.0f', v))
  return v
end
-- People online: a socket's value is a user id, 'g:' and a guest id, or '' (a guest without a
-- verified id, its own person); `people` counts distinct users and guests plus those sockets.
local function count()
  return tonumber(redis.call('GET', p .. 'people') or '0')
end
local function person(who)
  if who == '' then return nil, nil end
  if string.sub(who, 1, 2) == 'g:' then return p .. 'guests', string.sub(who, 3) end
  return p .. 'users', who
end
-- One more socket of `who`; answers whether a user came online.
local function add(who)
  redis.call('INCR', p .. 'socket_count')
  local hash, field = person(who)
  if hash == nil then
    redis.call('INCR', p .. 'people')
    return false
  end
  if redis.call('HINCRBY', hash, field, 1) == 1 then
    redis.call('INCR', p .. 'people')
    return hash == p .. 'users'
  end
  return false
end
local function floor_decr(key)
  if redis.call('DECR', key) < 0 then redis.call('SET', key, 0) end
end
-- One socket of `who` fewer; answers whether a user went offline.
local function remove(who)
  floor_decr(p .. 'socket_count')
  local hash, field = person(who)
  if hash == nil then
    floor_decr(p .. 'people')
    return false
  end
  if redis.call('HINCRBY', hash, field, -1) <= 0 then
    redis.call('HDEL', hash, field)
    floor_decr(p .. 'people')
    return hash == p .. 'users'
  end
  return false
end
local function version()
  return tonumber(redis.call('GET', p .. 'version') or '0')
end
-- Forgets every socket of `node`; returns the users left with no socket anywhere.
local function forget(node, offline)
  local sockets = redis.call('HGETALL', p .. 'sockets:' .. node)
  local n = 0
  for i = 2, #sockets, 2 do
    local who = sockets[i]
    n = n + 1
    if remove(who) then offline[who] = true end
  end
  redis.call('DEL', p .. 'sockets:' .. node)
  redis.call('SREM', p .. 'nodes', node)
  return n
end
