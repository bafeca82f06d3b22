local node, socket = ARGV[1], ARGV[2]
local user = redis.call('HGET', p .. 'sockets:' .. node, socket)
if not user then
  return {0, count(), string.format('%.0f', version()), ''}
end
redis.call('HDEL', p .. 'sockets:' .. node, socket)
local last = 0
if remove(user) then last = 1 end
return {last, count(), string.format('%.0f', next_version()), user}
