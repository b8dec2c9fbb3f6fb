local b, start = board(1), tonumber(ARGV[3])
return entries(b, start, range(b, start, tonumber(ARGV[4])), ARGV[5] == '1')
