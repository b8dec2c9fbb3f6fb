local unit, priority = tonumber(ARGV[1]), tonumber(ARGV[2])
local n = #ARGV - 2
local last = redis.call('INCRBY', KEYS[2], n)
if last >= unit then return redis.error_reply('ERR job ids are exhausted for this queue') end
local entries, ids = {}, {}
for i = 1, n do
  local id = last - n + i
  entries[#entries + 1] = priority * unit + id
  entries[#entries + 1] = id .. ':' .. ARGV[2 + i]
  ids[i] = id
end
redis.call('ZADD', KEYS[1], unpack(entries))
return ids
