local result = {}
for _, node in ipairs(redis.call('SMEMBERS', p .. 'nodes')) do
  if node ~= ARGV[1] then
    table.insert(result, node)
    table.insert(result, redis.call('PTTL', p .. 'alive:' .. node))
  end
end
return result
