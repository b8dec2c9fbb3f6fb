local id = ARGV[1]
if not redis.call('ZSCORE', delayed, id) and not redis.call('ZSCORE', ready, id) then return 0 end
local at = dueOf(ARGV[2])
redis.call('ZREM', ready, id)
redis.call('ZADD', delayed, at, id)
redis.call('HSET', due, id, at)
redis.call('ZADD', signal, 0, 'w1')
return 1
