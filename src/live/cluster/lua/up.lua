local node, socket, user = ARGV[1], ARGV[2], ARGV[3]
redis.call('SADD', p .. 'nodes', node)
if redis.call('HSETNX', p .. 'sockets:' .. node, socket, user) == 0 then
  return {0, count(), string.format('%.0f', version())}
end
local first = 0
if add(user) then first = 1 end
return {first, count(), string.format('%.0f', next_version())}
