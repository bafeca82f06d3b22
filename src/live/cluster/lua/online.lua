local result = {count(), tonumber(redis.call('GET', p .. 'socket_count') or '0')}
for _, user in ipairs(redis.call('HKEYS', p .. 'users')) do table.insert(result, user) end
return result
