local z, desc, s, m, reach = KEYS[1], ARGV[1] == 'desc', ARGV[2], ARGV[3], tonumber(ARGV[4])
local function at(i)
  if desc then return redis.call('ZREVRANGE', z, i, i)[1] end
  return redis.call('ZRANGE', z, i, i)[1]
end
local function before(a)
  local n = math.min(#a, #m)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(m, i)
    if x ~= y then
      if desc then return x > y end
      return x < y
    end
  end
  if desc then return #a > #m end
  return #a < #m
end
local better
if desc then better = redis.call('ZCOUNT', z, '(' .. s, '+inf')
else better = redis.call('ZCOUNT', z, '-inf', '(' .. s) end
local lo, hi = 0, redis.call('ZCOUNT', z, s, s)
while lo < hi do
  local mid = math.floor((lo + hi) / 2)
  if before(at(better + mid)) then lo = mid + 1 else hi = mid end
end
local pos = better + lo
local out = {pos, better, redis.call('ZCARD', z)}
if reach >= 0 then
  local from = pos - reach
  if from < 0 then from = 0 end
  local r
  if desc then r = redis.call('ZREVRANGE', z, from, pos + reach, 'WITHSCORES')
  else r = redis.call('ZRANGE', z, from, pos + reach, 'WITHSCORES') end
  for i = 1, #r do out[#out + 1] = r[i] end
end
return out
