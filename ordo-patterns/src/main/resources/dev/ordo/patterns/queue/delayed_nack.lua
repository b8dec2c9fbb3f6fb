local id = ARGV[1]
if not current(id, ARGV[2]) then return 0 end
redis.call('ZREM', inflight, id)
redis.call('HDEL', claim, id)
redis.call('HSET', err, id, ARGV[3])
if tonumber(ARGV[6]) >= tonumber(ARGV[5]) then
  redis.call('ZADD', dead, now, id)
  return 2
end
local at = now + tonumber(ARGV[4])
redis.call('HSET', due, id, at)
redis.call('ZADD', delayed, at, id)
redis.call('ZADD', signal, 0, 'w1')
return 1
