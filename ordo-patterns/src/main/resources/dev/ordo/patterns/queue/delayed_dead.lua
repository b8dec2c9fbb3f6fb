local ids = redis.call('ZRANGE', dead, 0, tonumber(ARGV[1]) - 1)
local out = {}
for _, id in ipairs(ids) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', payload, id)
  out[#out + 1] = redis.call('HGET', err, id) or ''
end
return out
