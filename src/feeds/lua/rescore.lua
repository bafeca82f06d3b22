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
