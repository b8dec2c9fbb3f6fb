local ids = redis.call('ZRANGE', dead, 0, tonumber(ARGV[1]) - 1)
for _, id in ipairs(ids) do purge(id) end
return #ids
