local mode, id, value = ARGV[3], ARGV[4], ARGV[5]
local stamp
local function arrival()
  if not stamp then
    local ms = tonumber(ARGV[6])
    if not ms then
      local t = redis.call('TIME')
      ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    end
    if desc then ms = 9999999999999 - ms end
    stamp = string.format('%013d', ms) .. ':'
  end
  return stamp
end
local function improves(new, old)
  if desc then return new > old end
  return new < old
end
local out = {}
for g = 1, groups do
  local b = board(g)
  local name = nameOf(b, id)
  local old = (timed or tie == 'dense' or mode == 'dim' or mode == 'dimadd') and name and redis.call('ZSCORE', b.z, name)
  local mode, value = mode, value
  if mode == 'dim' or mode == 'dimadd' then
    local mult, mod, v = string.match(value, '^(%S+) (%S+) (%S+)$')
    mult, mod, v = tonumber(mult), tonumber(mod), tonumber(v)
    local s = tonumber(old or '0')
    if s ~= math.floor(s) or s < 0 or s >= 9007199254740992 then
      return redis.error_reply('ERR score ' .. old .. ' is not a packed score')
    end
    local q = math.floor(s / mult)
    local cur = q - math.floor(q / mod) * mod
    if mode == 'dimadd' then v = cur + v end
    if v < 0 or v >= mod then
      return redis.error_reply('ERR dimension value ' .. v .. ' is out of range [0, ' .. mod .. ')')
    end
    mode, value = 'set', s - cur * mult + v * mult
  end
  local new
  if not timed then
    if mode == 'add' then new = redis.call('ZINCRBY', b.z, value, id)
    elseif mode == 'set' then redis.call('ZADD', b.z, value, id)
    else redis.call('ZADD', b.z, desc and 'GT' or 'LT', value, id) end
  elseif mode == 'add' then
    if not name then
      name = arrival() .. id
      redis.call('HSET', b.names, id, name)
    end
    new = redis.call('ZINCRBY', b.z, value, name)
    if old and new ~= old then
      redis.call('ZREM', b.z, name)
      name = arrival() .. id
      redis.call('ZADD', b.z, new, name)
      redis.call('HSET', b.names, id, name)
    end
  elseif not old or (mode == 'set' and tonumber(value) ~= tonumber(old))
      or (mode == 'best' and improves(tonumber(value), tonumber(old))) then
    if name then redis.call('ZREM', b.z, name) end
    name = arrival() .. id
    redis.call('ZADD', b.z, value, name)
    redis.call('HSET', b.names, id, name)
  end
  new = new or redis.call('ZSCORE', b.z, name)
  dense(b, old, new)
  out[#out + 1] = new
  out[#out + 1] = rankOf(b, name, new)
  local at = ARGV[6 + g]
  if at ~= '0' then
    redis.call('PEXPIREAT', b.z, at)
    if timed then redis.call('PEXPIREAT', b.names, at) end
    if tie == 'dense' then redis.call('PEXPIREAT', b.ds, at) end
  end
end
return out
