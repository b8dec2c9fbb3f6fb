local out = {}
for i = 2, #ARGV, 4 do
  local id = ARGV[i]
  local exists = redis.call('HEXISTS', payload, id) == 1
  if exists and ARGV[1] == 'REJECT' then
    out[#out + 1] = 0
    out[#out + 1] = 0
  else
    if exists then purge(id) end
    local at = dueOf(ARGV[i + 3])
    redis.call('HSET', payload, id, ARGV[i + 1])
    redis.call('HSET', prio, id, ARGV[i + 2])
    redis.call('HSET', due, id, at)
    redis.call('ZADD', delayed, at, id)
    out[#out + 1] = 1
    out[#out + 1] = at
  end
end
for k = 1, math.min((#ARGV - 1) / 4, 16) do redis.call('ZADD', signal, 0, 'w' .. k) end
return out
