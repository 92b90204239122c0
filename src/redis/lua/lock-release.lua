-- Lets go of a lock only for its holder. KEYS: the lock. ARGV: the holder's token. Returns 1 when released, else 0.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
