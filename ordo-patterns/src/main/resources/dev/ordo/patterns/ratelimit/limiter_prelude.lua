-- p, the permits asked for, is 0 for a peek: the scripts then decide as for a request but write nothing
local p = tonumber(ARGV[1])
local n = #KEYS
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local allowed, remaining, wait = 1, nil, 0
-- which limit decided, 1-based: the one with the fewest permits left, or the refusing one with the longest wait
local tightest, refusing = 1, 0
