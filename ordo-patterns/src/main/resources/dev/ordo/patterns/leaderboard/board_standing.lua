local b = board(1)
local name = nameOf(b, ARGV[3])
local s = name and redis.call('ZSCORE', b.z, name)
if not s then return false end
local behind
if desc then behind = redis.call('ZCOUNT', b.z, '-inf', '(' .. s)
else behind = redis.call('ZCOUNT', b.z, '(' .. s, '+inf') end
return {behind, redis.call('ZCOUNT', b.z, s, s), redis.call('ZCARD', b.z)}
