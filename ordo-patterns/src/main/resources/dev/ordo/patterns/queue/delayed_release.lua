local back = {}
for i = 1, #ARGV, 2 do
  local id = ARGV[i]
  if current(id, ARGV[i + 1]) then
    redis.call('ZREM', inflight, id)
    redis.call('HDEL', claim, id)
    if redis.call('HINCRBY', attempts, id, -1) <= 0 then redis.call('HDEL', attempts, id) end
    back[#back + 1] = id
  end
end
enqueue(back)
for k = 1, math.min(#back, 16) do redis.call('ZADD', signal, 0, 'w' .. k) end
return #back
