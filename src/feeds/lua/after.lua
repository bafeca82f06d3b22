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
