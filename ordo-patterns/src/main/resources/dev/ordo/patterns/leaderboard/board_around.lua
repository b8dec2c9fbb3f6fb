local b = board(1)
local name = nameOf(b, ARGV[3])
local pos = name and position(b, name)
if not pos then return false end
local size = tonumber(ARGV[4])
local start = pos - math.floor((size - 1) / 2)
if start < 0 then start = 0 end
local r = range(b, start, start + size - 1)
if #r < 2 * size and start > 0 then
  local card = redis.call('ZCARD', b.z)
  local shifted = card - size
  if shifted < 0 then shifted = 0 end
  if shifted ~= start then
    start = shifted
    r = range(b, start, start + size - 1)
  end
end
return entries(b, start, r, ARGV[5] == '1')
