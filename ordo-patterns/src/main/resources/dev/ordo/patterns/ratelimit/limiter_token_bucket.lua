local level = {}
for i = 1, n do
  local capacity, rate = tonumber(ARGV[3 * i - 1]), tonumber(ARGV[3 * i]) / tonumber(ARGV[3 * i + 1])
  local h = redis.call('HMGET', KEYS[i], 'tokens', 'ts')
  local tokens, ts = tonumber(h[1]), tonumber(h[2])
  if not tokens or not ts then
    tokens, ts = capacity, now
  elseif now > ts then
    tokens = math.min(capacity, tokens + (now - ts) * rate)
    ts = now
  end
  level[i] = {tokens, ts, capacity, rate}
  if tokens < p then
    allowed = 0
    local delay = (p - tokens) / rate
    if refusing == 0 or delay > wait then refusing = i end
    if delay > wait then wait = delay end
  end
  if remaining == nil or tokens < remaining then remaining, tightest = tokens, i end
end
if allowed == 1 and p > 0 then
  for i = 1, n do
    local l = level[i]
    local left = l[1] - p
    redis.call('HSET', KEYS[i], 'tokens', left, 'ts', l[2])
    redis.call('PEXPIREAT', KEYS[i], math.ceil((now + (l[3] - left) / l[4]) / 1000) + 1000)
  end
  remaining = remaining - p
end
return {allowed, math.floor(remaining), math.ceil(wait), now, allowed == 1 and tightest or refusing}
