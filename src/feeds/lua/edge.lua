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
