local n = 0
for i = 1, #ARGV, 2 do
  if current(ARGV[i], ARGV[i + 1]) then
    purge(ARGV[i])
    n = n + 1
  end
end
return n
