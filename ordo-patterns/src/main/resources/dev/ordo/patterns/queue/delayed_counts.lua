local dueNow = redis.call('ZCOUNT', delayed, '-inf', now)
local nextAt = -1
local d = redis.call('ZRANGE', delayed, 0, 0, 'WITHSCORES')
if #d > 0 then nextAt = tonumber(d[2]) end
local f = redis.call('ZRANGE', inflight, 0, 0, 'WITHSCORES')
if #f > 0 and (nextAt < 0 or tonumber(f[2]) < nextAt) then nextAt = tonumber(f[2]) end
local wait = -1
if nextAt >= 0 then wait = math.max(0, nextAt - now) end
if redis.call('ZCARD', ready) > 0 then wait = 0 end
return {redis.call('ZCARD', delayed) - dueNow, redis.call('ZCARD', ready) + dueNow,
        redis.call('ZCARD', inflight), redis.call('ZCARD', dead), wait}
