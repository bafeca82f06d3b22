local ns, g = ARGV[1], ARGV[2]
if redis.call('GET', ns .. 'ix:bld') ~= g then return -2 end
if redis.call('SCARD', ns .. 'ix:touched:' .. g) > 0 then return -1 end
local old = redis.call('GET', ns .. 'ix:cur')
redis.call('SET', ns .. 'ix:cur', g)
redis.call('DEL', ns .. 'ix:bld', ns .. 'ix:touched:' .. g)
redis.call('XADD', ns .. 'ix:changes', 'MAXLEN', '~', '100000', '*', 'rebuilt', g)
return tonumber(old or '0')
