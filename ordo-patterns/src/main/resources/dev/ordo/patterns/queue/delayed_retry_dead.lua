local n = 0
for _, id in ipairs(ARGV) do
  if redis.call('ZREM', dead, id) == 1 then
    redis.call('HDEL', attempts, id)
    redis.call('HSET', due, id, now)
    redis.call('ZADD', delayed, now, id)
    n = n + 1
  end
end
for k = 1, math.min(n, 16) do redis.call('ZADD', signal, 0, 'w' .. k) end
return n
