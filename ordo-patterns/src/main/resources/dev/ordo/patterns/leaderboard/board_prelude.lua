local desc = ARGV[1] == 'desc'
local tie = ARGV[2]
local timed = tie == 'first'
local meta = KEYS[1]
local groups = (#KEYS - 1) / 3
local function board(g)
  local i = 2 + (g - 1) * 3
  return {z = KEYS[i], names = KEYS[i + 1], ds = KEYS[i + 2]}
end
local function nameOf(b, id)
  if timed then return redis.call('HGET', b.names, id) end
  return id
end
local function idOf(name)
  if timed then return string.sub(name, 15) end
  return name
end
local function position(b, name)
  if desc then return redis.call('ZREVRANK', b.z, name) end
  return redis.call('ZRANK', b.z, name)
end
local function rankOf(b, name, s)
  if tie == 'competition' then
    if desc then return redis.call('ZCOUNT', b.z, '(' .. s, '+inf') + 1 end
    return redis.call('ZCOUNT', b.z, '-inf', '(' .. s) + 1
  elseif tie == 'dense' then
    if desc then return redis.call('ZCOUNT', b.ds, '(' .. s, '+inf') + 1 end
    return redis.call('ZCOUNT', b.ds, '-inf', '(' .. s) + 1
  end
  return position(b, name) + 1
end
local function range(b, start, stop)
  if desc then return redis.call('ZREVRANGE', b.z, start, stop, 'WITHSCORES') end
  return redis.call('ZRANGE', b.z, start, stop, 'WITHSCORES')
end
local function entries(b, start, r, withMeta)
  local ranks, metas = {}, {}
  if (tie == 'competition' or tie == 'dense') and #r > 0 then
    local rank = rankOf(b, r[1], r[2])
    ranks[1] = rank
    for i = 3, #r, 2 do
      if r[i + 1] ~= r[i - 1] then
        if tie == 'dense' then rank = rank + 1 else rank = start + (i + 1) / 2 end
      end
      ranks[#ranks + 1] = rank
    end
  end
  if withMeta and #r > 0 then
    local ids = {}
    for i = 1, #r, 2 do ids[#ids + 1] = idOf(r[i]) end
    for c = 1, #ids, 1000 do
      local part = redis.call('HMGET', meta, unpack(ids, c, math.min(c + 999, #ids)))
      for j = 1, #part do metas[#metas + 1] = part[j] end
    end
  end
  return {start, r, ranks, metas}
end
local function dense(b, old, new)
  if tie ~= 'dense' or old == new then return end
  if old and redis.call('ZCOUNT', b.z, old, old) == 0 then
    redis.call('ZREMRANGEBYSCORE', b.ds, old, old)
  end
  if new and redis.call('ZCOUNT', b.z, new, new) == 1 then
    redis.call('ZADD', b.ds, new, new)
  end
end
