-- KEYS: open, due, last. ARGV: now, user, openUntil. Opening claims at once: the Home is published now.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[1])
return 1
