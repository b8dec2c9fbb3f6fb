local counts = {}
for i = 1, n do
  local limit, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local expired = 0
  if p > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  else
    -- a peek writes nothing: it skips the expired entries instead of removing them
    expired = redis.call('ZCOUNT', KEYS[i], '-inf', now - window)
  end
  local c = redis.call('ZCARD', KEYS[i]) - expired
  counts[i] = c
  if c + p > limit then
    allowed = 0
    local oldest = redis.call('ZRANGE', KEYS[i], expired + c + p - limit - 1, expired + c + p - limit - 1, 'WITHSCORES')
    local w = tonumber(oldest[2]) + window - now
    if refusing == 0 or w > wait then refusing = i end
    if w > wait then wait = w end
  end
  if remaining == nil or limit - c < remaining then remaining, tightest = limit - c, i end
end
if allowed == 1 and p > 0 then
  local stamp = string.format('%.0f', now) .. ':'
  for i = 1, n do
    local entries = {}
    for j = 1, p do
      entries[#entries + 1] = now
      entries[#entries + 1] = stamp .. (counts[i] + j)
    end
    redis.call('ZADD', KEYS[i], unpack(entries))
    redis.call('PEXPIREAT', KEYS[i], math.ceil((now + tonumber(ARGV[2 * i + 1])) / 1000) + 1)
  end
  remaining = remaining - p
end
return {allowed, remaining, math.ceil(wait), now, allowed == 1 and tightest or refusing}
