local max, visibility, maxAttempts = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local expired = redis.call('ZRANGEBYSCORE', inflight, '-inf', now, 'LIMIT', 0, 1000)
local again = {}
for _, id in ipairs(expired) do
  redis.call('ZREM', inflight, id)
  local a = tonumber(redis.call('HGET', attempts, id)) or 0
  if a >= maxAttempts then
    redis.call('ZADD', dead, now, id)
    redis.call('HSET', err, id, 'visibility timeout passed on attempt ' .. a)
  else
    again[#again + 1] = id
  end
end
enqueue(again)
local fallen = redis.call('ZRANGEBYSCORE', delayed, '-inf', now, 'LIMIT', 0, 1000)
for _, id in ipairs(fallen) do redis.call('ZREM', delayed, id) end
enqueue(fallen)
local out = {now}
local popped = redis.call('ZPOPMIN', ready, max)
local token = 0
if #popped > 0 then token = redis.call('INCRBY', seq, #popped / 2) - #popped / 2 end
for i = 1, #popped, 2 do
  local id = popped[i]
  local a = redis.call('HINCRBY', attempts, id, 1)
  token = token + 1
  redis.call('HSET', claim, id, token)
  redis.call('ZADD', inflight, now + visibility, id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', payload, id)
  out[#out + 1] = math.floor(tonumber(popped[i + 1]) / unit)
  out[#out + 1] = a
  out[#out + 1] = tonumber(redis.call('HGET', due, id)) or 0
  out[#out + 1] = token
end
if redis.call('ZCARD', ready) > 0 then redis.call('ZADD', signal, 0, 'w1') end
return out
