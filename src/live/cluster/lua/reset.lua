local node, force = ARGV[1], ARGV[2]
if force ~= '1' and redis.call('EXISTS', p .. 'alive:' .. node) == 1 then
  return {}
end
local before = {}
local offline = {}
forget(node, offline)
local online = {}
local added = 0
for i = 3, #ARGV, 2 do
  local socket, user = ARGV[i], ARGV[i + 1]
  if redis.call('HSETNX', p .. 'sockets:' .. node, socket, user) == 1 then
    added = added + 1
    if add(user) then
      if offline[user] then offline[user] = nil else online[user] = true end
    end
  end
end
if added > 0 then
  redis.call('SADD', p .. 'nodes', node)
end
local result = {count(), string.format('%.0f', next_version())}
local gone = {}
for user in pairs(offline) do table.insert(gone, user) end
table.insert(result, #gone)
for _, user in ipairs(gone) do table.insert(result, user) end
for user in pairs(online) do table.insert(result, user) end
return result
