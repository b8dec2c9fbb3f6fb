local b = board(1)
local name = nameOf(b, ARGV[3])
local s = name and redis.call('ZSCORE', b.z, name)
if not s then return false end
return {s, rankOf(b, name, s), redis.call('ZCARD', b.z)}
