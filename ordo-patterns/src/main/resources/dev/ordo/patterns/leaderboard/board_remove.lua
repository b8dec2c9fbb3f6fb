local id = ARGV[3]
local removed = 0
for g = 1, groups do
  local b = board(g)
  local name = nameOf(b, id)
  local old = name and redis.call('ZSCORE', b.z, name)
  if old then
    redis.call('ZREM', b.z, name)
    if timed then redis.call('HDEL', b.names, id) end
    dense(b, old, nil)
    removed = 1
  end
end
if ARGV[4] == '1' then redis.call('HDEL', meta, id) end
return removed
