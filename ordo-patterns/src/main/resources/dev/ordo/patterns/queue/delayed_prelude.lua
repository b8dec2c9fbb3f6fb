local delayed, ready, inflight, dead = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local payload, prio, attempts, due, err = KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9]
local seq, signal, claim = KEYS[10], KEYS[11], KEYS[12]
local unit = 8796093022208
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function purge(id)
  redis.call('ZREM', delayed, id)
  redis.call('ZREM', ready, id)
  redis.call('ZREM', inflight, id)
  redis.call('ZREM', dead, id)
  redis.call('HDEL', payload, id)
  redis.call('HDEL', prio, id)
  redis.call('HDEL', attempts, id)
  redis.call('HDEL', due, id)
  redis.call('HDEL', err, id)
  redis.call('HDEL', claim, id)
end
local function dueOf(spec)
  if string.sub(spec, 1, 1) == '+' then return now + tonumber(string.sub(spec, 2)) end
  return tonumber(string.sub(spec, 2))
end
local function current(id, token)
  return redis.call('ZSCORE', inflight, id) and redis.call('HGET', claim, id) == token
end
-- Makes ids ready, behind the jobs already ready at their priority, in the order given.
local function enqueue(ids)
  if #ids == 0 then return end
  local last = redis.call('INCRBY', seq, #ids)
  for i, id in ipairs(ids) do
    local p = tonumber(redis.call('HGET', prio, id)) or 0
    redis.call('ZADD', ready, p * unit + last - #ids + i, id)
  end
end
