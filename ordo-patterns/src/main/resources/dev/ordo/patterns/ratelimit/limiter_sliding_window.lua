local state = {}
for i = 1, n do
  local limit, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local w = math.floor(now / window)
  local elapsed = now - w * window
  local h = redis.call('HMGET', KEYS[i], 'w', 'c', 'p')
  local sw, cur, prev = tonumber(h[1]), tonumber(h[2]) or 0, tonumber(h[3]) or 0
  if sw == w - 1 then prev, cur = cur, 0
  elseif sw == nil or sw < w - 1 then prev, cur = 0, 0
  elseif sw > w then w = sw end
  state[i] = {w, cur, prev}
  local estimate = prev * (window - elapsed) / window + cur
  if estimate + p > limit then
    allowed = 0
    local delay
    if cur + p > limit then
      delay = window - elapsed
      if cur > 0 then
        local extra = window * (1 - (limit - p) / cur)
        if extra > 0 then delay = delay + extra end
      end
    else
      delay = window * (1 - (limit - cur - p) / prev) - elapsed
    end
    if refusing == 0 or delay > wait then refusing = i end
    if delay > wait then wait = delay end
  end
  local left = math.floor(limit - estimate)
  if remaining == nil or left < remaining then remaining, tightest = left, i end
end
if allowed == 1 and p > 0 then
  for i = 1, n do
    local s = state[i]
    redis.call('HSET', KEYS[i], 'w', s[1], 'c', s[2] + p, 'p', s[3])
    redis.call('PEXPIREAT', KEYS[i], math.ceil((now + 2 * tonumber(ARGV[2 * i + 1])) / 1000) + 1)
  end
  remaining = remaining - p
end
if remaining < 0 then remaining = 0 end
return {allowed, remaining, math.ceil(wait), now, allowed == 1 and tightest or refusing}
