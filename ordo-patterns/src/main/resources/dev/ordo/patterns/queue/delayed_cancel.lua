if redis.call('HEXISTS', payload, ARGV[1]) == 0 then return 0 end
purge(ARGV[1])
return 1
